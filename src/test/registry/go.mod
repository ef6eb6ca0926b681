// The OCI registry of the tests (main.go; src/test/registry/build.sh builds it).
module dev.dra.sidecar/test/registry

go 1.26.8

require github.com/google/go-containerregistry v0.22.1
