//go:build tools

// Package tools pins the commands build.sh builds; the versions are those of the kube-apiserver module, so
// that the two builds share the Go build cache.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-proxy"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubelet"
	_ "k8s.io/kubernetes/test/e2e/dra/test-driver"
)
