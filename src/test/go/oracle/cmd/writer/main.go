// Command writer writes, updates and removes a claim's metadata files with the upstream kubeletplugin metadata
// writer of k8s.io/dynamic-resource-allocation (the version go.mod pins), as a DRA driver using the Helper does.
// The writer is unexported: the command builds only with kubeletplugin_export.go.txt added to the upstream
// package. Go refuses overlays inside its module cache, so the build (UpstreamWriter.build in the Java tests)
// copies the pinned module elsewhere, builds with a go.mod that replaces the module by the copy, and adds the
// file to the copy with an overlay:
//
//	go build -mod=readonly -modfile=<copy of go.mod + "replace k8s.io/dynamic-resource-allocation => <copy>">
//	    -overlay=<{"Replace":{"<copy>/kubeletplugin/zz_sidecar_export.go":"<this dir>/kubeletplugin_export.go.txt"}}>
//	    ./cmd/writer
//
// For the same reason "go build ./..." and "go vet ./..." in this module fail on this package.
//
// Usage:
//
//	writer prepare <pluginDataDir> <cdiDir>   processPreparedClaim: the metadata file (generation 1) and its CDI spec
//	writer update  <pluginDataDir> <cdiDir>   updateRequestMetadata: the next generation, model changed to "model-2"
//	writer cleanup <pluginDataDir> <cdiDir>   cleanupClaim: the claim's metadata directory and CDI specs removed
//
// The claim is always default/c (uid "uid-c"), request "r", one device p/gpu-0 of driver gpu.example.com with
// the attributes model (a string) and index (an int); the files are written as metadata.resource.k8s.io/v1beta1.
package main

import (
	"fmt"
	"os"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	metadatav1beta1 "k8s.io/dynamic-resource-allocation/api/metadata/v1beta1"
	"k8s.io/dynamic-resource-allocation/kubeletplugin"
)

const (
	driver    = "gpu.example.com"
	namespace = "default"
	claimName = "c"
	claimUID  = types.UID("uid-c")
	request   = "r"
)

func main() {
	if len(os.Args) != 4 {
		fail(fmt.Errorf("usage: writer prepare|update|cleanup <pluginDataDir> <cdiDir>"))
	}
	w, err := kubeletplugin.NewExportedMetadataWriter(driver, os.Args[2], os.Args[3],
		[]schema.GroupVersion{metadatav1beta1.SchemeGroupVersion})
	fail(err)
	switch os.Args[1] {
	case "prepare":
		claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: claimName, UID: claimUID}}
		_, err = w.ProcessPreparedClaim(claim, []kubeletplugin.Device{device("model-1")})
	case "update":
		err = w.UpdateRequestMetadata(namespace, claimName, claimUID, request, []kubeletplugin.Device{device("model-2")})
	case "cleanup":
		err = w.CleanupClaim(namespace, claimName, claimUID)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	fail(err)
}

func device(model string) kubeletplugin.Device {
	index := int64(0)
	return kubeletplugin.Device{
		Requests:   []string{request},
		PoolName:   "p",
		DeviceName: "gpu-0",
		Metadata: &kubeletplugin.DeviceMetadata{Attributes: map[string]resourceapi.DeviceAttribute{
			"model": {StringValue: &model},
			"index": {IntValue: &index},
		}},
	}
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "writer:", err)
		os.Exit(1)
	}
}
