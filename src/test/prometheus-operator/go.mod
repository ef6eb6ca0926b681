// Pins the Prometheus Operator release whose CustomResourceDefinitions (example/prometheus-operator-crd/) the
// chart's monitoring objects are applied against (src/test/prometheus-operator/crds.sh).
module dev.dra.sidecar/test/prometheus-operator

go 1.26.8

require github.com/prometheus-operator/prometheus-operator v0.85.0
