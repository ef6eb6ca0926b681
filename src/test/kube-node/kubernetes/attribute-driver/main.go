// Command attribute-driver is a DRA kubelet plugin for the real-node tests: upstream's test driver (the package
// behind its `test-driver kubelet-plugin` command) started with devices that carry attributes, where that command
// publishes devices without any. It prepares claims as upstream's driver does (a CDI spec per request, with
// environment variables), and writes metadata files only with --enable-device-metadata.
//
//	attribute-driver --kubeconfig=F --node-name=N --driver-name=D --devices=FILE [--enable-device-metadata]
//	    [--cdi-dir=/var/run/cdi] [--plugin-dir=/var/lib/kubelet/plugins]
//	    [--registry-dir=/var/lib/kubelet/plugins_registry]
//
// FILE holds a JSON array of resource.k8s.io/v1 Device objects (name, attributes, capacity), published as one
// slice of the node's pool (named after the node). When the file changes (another file renamed over it, or its
// modification time or size; looked at every 100 ms) it is read again and its devices published as the pool's next
// generation: spec.pool.generation one above the highest the API server holds for the pool or this process published
// (upstream's slice controller alone keeps the generation of a pool of one slice when its devices change). A test
// changes an attribute by rewriting the file (by rename, so that no half-written file is read); a file that does not read keeps what was published and says why on stderr. A FILE that does not read at
// the start is an error (exit status 1). On SIGTERM or SIGINT it stops (its sockets removed); the slice stays
// published. klog's flags (--v) set the verbosity of upstream's log lines.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	metadataapi "k8s.io/dynamic-resource-allocation/api/metadata/v1beta1"
	"k8s.io/dynamic-resource-allocation/kubeletplugin"
	"k8s.io/dynamic-resource-allocation/resourceslice"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/test/e2e/dra/test-driver/app"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "attribute-driver:", err)
		os.Exit(1)
	}
}

func run() error {
	kubeconfig := flag.String("kubeconfig", "", "the kubeconfig of the API server")
	nodeName := flag.String("node-name", "", "the node whose pool the devices are")
	driverName := flag.String("driver-name", "", "the driver's name, a DNS subdomain")
	devicesFile := flag.String("devices", "", "a JSON array of resource.k8s.io/v1 Device objects")
	metadata := flag.Bool("enable-device-metadata", false, "write metadata files as upstream's helper does")
	cdiDir := flag.String("cdi-dir", "/var/run/cdi", "where CDI specs are written")
	pluginDir := flag.String("plugin-dir", kubeletplugin.KubeletPluginsDir, "the kubelet's plugin directory")
	registryDir := flag.String("registry-dir", kubeletplugin.KubeletRegistryDir, "the kubelet's plugin registry")
	klog.InitFlags(flag.CommandLine)
	flag.Parse()
	// From the start: a stop asked for while the plugin starts still removes its sockets.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	if *kubeconfig == "" || *nodeName == "" || *driverName == "" || *devicesFile == "" {
		return fmt.Errorf("--kubeconfig, --node-name, --driver-name and --devices are required")
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	seen, resources, err := readDevices(*devicesFile, *nodeName)
	if err != nil {
		return err
	}
	dataDir := filepath.Join(*pluginDir, *driverName)
	for _, dir := range []string{*cdiDir, dataDir} {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	plugin, err := app.StartPlugin(ctx, *cdiDir, *driverName, client, *nodeName,
		app.FileOperations{DriverResources: &resources},
		kubeletplugin.PluginDataDirectoryPath(dataDir),
		kubeletplugin.RegistrarDirectoryPath(*registryDir),
		kubeletplugin.EnableDeviceMetadata(*metadata, []schema.GroupVersion{metadataapi.SchemeGroupVersion}))
	if err != nil {
		return fmt.Errorf("start the plugin: %w", err)
	}
	defer plugin.Stop()
	fmt.Fprintf(os.Stderr, "attribute-driver: %s serves %d device(s) on node %s, metadata files: %t\n",
		*driverName, len(resources.Pools[*nodeName].Slices[0].Devices), *nodeName, *metadata)

	generation := int64(0) // the highest pool generation this process published
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-signals:
			return nil
		case <-tick.C:
		}
		now, err := os.Stat(*devicesFile)
		if err != nil || unchanged(seen, now) {
			continue
		}
		info, next, err := readDevices(*devicesFile, *nodeName)
		seen = info
		if err != nil {
			fmt.Fprintln(os.Stderr, "attribute-driver: keeping the published devices:", err)
			continue
		}
		generation = nextGeneration(ctx, client, *driverName, *nodeName, generation)
		pool := next.Pools[*nodeName]
		pool.Generation = generation
		next.Pools[*nodeName] = pool
		if err := plugin.PublishResources(ctx, next); err != nil {
			fmt.Fprintln(os.Stderr, "attribute-driver: publish:", err)
			continue
		}
		fmt.Fprintf(os.Stderr, "attribute-driver: published %d device(s) again, pool generation %d\n",
			len(pool.Slices[0].Devices), generation)
	}
}

// unchanged says whether the devices file is still the one read before: the same file (a rename over it makes
// another one), modification time and size.
func unchanged(seen, now os.FileInfo) bool {
	return seen != nil && os.SameFile(seen, now) && now.ModTime().Equal(seen.ModTime()) && now.Size() == seen.Size()
}

// nextGeneration returns one above the highest pool generation of the driver's slices on the node and published (the
// generation this process published last). Without an answer from the API server, it is published+1, which the
// slice controller ignores when it is not above what it holds.
func nextGeneration(ctx context.Context, client kubernetes.Interface, driver, node string, published int64) int64 {
	highest := published
	slices, err := client.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{
		FieldSelector: fields.Set{"spec.driver": driver, "spec.nodeName": node}.AsSelector().String(),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "attribute-driver: list the pool's slices:", err)
		return highest + 1
	}
	for _, slice := range slices.Items {
		if slice.Spec.Pool.Name == node && slice.Spec.Pool.Generation > highest {
			highest = slice.Spec.Pool.Generation
		}
	}
	return highest + 1
}

// readDevices reads the devices file as the node's pool of one slice. The file's FileInfo is taken before it is
// read, so that a change while it is read is seen at the next look; it is nil when the file could not be looked at.
func readDevices(file, nodeName string) (os.FileInfo, resourceslice.DriverResources, error) {
	info, err := os.Stat(file)
	if err != nil {
		return nil, resourceslice.DriverResources{}, fmt.Errorf("read the devices: %w", err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return info, resourceslice.DriverResources{}, fmt.Errorf("read the devices: %w", err)
	}
	var devices []resourceapi.Device
	if err := json.Unmarshal(data, &devices); err != nil {
		return info, resourceslice.DriverResources{}, fmt.Errorf("decode the devices in %s: %w", file, err)
	}
	return info, resourceslice.DriverResources{
		Pools: map[string]resourceslice.Pool{nodeName: {Slices: []resourceslice.Slice{{Devices: devices}}}},
	}, nil
}
