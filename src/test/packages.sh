#!/usr/bin/env bash
# Installs the Debian packages the tests need (as root): unshare/mount for the bind-mount tests, kubectl for
# rendering the Kustomize manifests, nginx-light and wrk for the benchmark smoke test, podman/runc/debootstrap for
# the image test and the benchmark's image part (debootstrap builds the base image's stand-in where no registry is
# reachable), openssl (certificates) and curl for the real kube-apiserver of the Kubernetes tests; python3-venv for
# Schemathesis (SchemathesisIT); for the real node of the *OnNodeIT tests (src/test/kube-node): the CNI plugins,
# iproute2 and iptables (the node's links, and to check that it leaves no rule), busybox-static for its app image;
# dash and bash, the shells the environment route's answer is evaluated in (EnvShellTest).
# Used by .ci/run and by the workflows that run tests.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq python3 python3-venv util-linux mount procps curl dash bash kubectl nginx-light wrk podman runc \
  debootstrap openssl containernetworking-plugins iproute2 iptables busybox-static >/dev/null
