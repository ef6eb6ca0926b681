//go:build tools

// Package tools pins the command build.sh builds.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
