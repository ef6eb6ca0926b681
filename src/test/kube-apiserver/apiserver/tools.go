//go:build tools

// Package tools pins the command build.sh builds.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
