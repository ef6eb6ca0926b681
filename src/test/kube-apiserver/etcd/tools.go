//go:build tools

// Package tools pins the command build.sh builds.
package tools

import _ "go.etcd.io/etcd/server/v3"
