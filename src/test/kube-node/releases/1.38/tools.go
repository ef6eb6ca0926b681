//go:build tools

// Package tools pins the Kubernetes 1.38 commands build.sh --release 1.38 builds: the control plane and upstream's
// DRA test driver, all of release v1.38.0-beta.0. Its kubelet and kube-proxy import sigs.k8s.io/iptables-wrappers,
// which the Go module proxy does not serve: the node runs build.sh's own.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/test/e2e/dra/test-driver"
)
