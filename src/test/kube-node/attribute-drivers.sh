# Sourced by start.sh (after teardown.sh, which names the drivers): the node's two attribute drivers, each an
# attribute-driver (build.sh) run as a node component, their devices files and the DeviceClasses that select them.
#
#   driver (component)                        metadata files  devices and attributes
#   attributes.example.com (attribute-driver)       no        gpu-0..gpu-7: uuid (string GPU-xxxxxxxx-xxxx-xxxx-
#                                                             xxxx-xxxxxxxxxxxx, distinct, the same at every start),
#                                                             memory (int 81920), driverVersion (version 550.54.15),
#                                                             index (int, the device's number); gpu-7 also the
#                                                             fully qualified example.com/mixed (bool true)
#   files.example.com (attribute-file-driver)       yes       nic-0: model (string example-nic-400g) and
#                                                             example.com/mixed (bool true)
# Each publishes one ResourceSlice, of the pool named after the node. The unqualified attributes are in the driver's
# own domain (device.attributes["attributes.example.com"].uuid in CEL).
#
# DeviceClasses: attributes.example.com selects the devices of attributes.example.com without example.com/mixed
# (gpu-0..gpu-6); mixed.example.com selects every device with example.com/mixed (gpu-7 and nic-0). In DRA's CEL a
# domain a device has no attribute of is an empty map, so `in` on it is false, never an error.
#
# Devices files: <state-dir>/attribute-drivers/<driver>.json, a JSON array of resource.k8s.io/v1 Device objects,
# written anew at each start of the node. A driver publishes its file again, as its pool's next generation, when the
# file is replaced: write the new one beside it and rename it over the old. component.sh's start of a driver runs
# the same command line, so it publishes the file as it is then.
#
# Functions (start.sh's state, bin, kubeconfig, node, start_process and kubectl_apply in scope):
#   start_attribute_drivers    writes the devices files, makes the drivers' plugin directories (0750, as the test
#                              driver's) and starts both drivers (start_process)
#   apply_attribute_classes    applies the two DeviceClasses
#   attribute_drivers_env      prints the lines of <state-dir>/env that name them: attribute_driver and
#                              attribute_file_driver (the drivers' names), <that>_devices (its devices file) and
#                              <that>_plugin_dir (its directory under /var/lib/kubelet/plugins, where
#                              files.example.com writes its metadata files)

attribute_devices_dir() { echo "$state/attribute-drivers"; }

# attribute_devices <driver>: the driver's devices, as its file holds them at the start (a device a line).
attribute_devices() {
  local i sum uuid mixed sep=" "
  case "$1" in
    "$attribute_driver")
      echo "["
      for i in 0 1 2 3 4 5 6 7; do
        sum="$(printf 'gpu-%d' "$i" | sha256sum)"
        uuid="GPU-${sum:0:8}-${sum:8:4}-${sum:12:4}-${sum:16:4}-${sum:20:12}"
        mixed=""
        if [ "$i" = 7 ]; then mixed=', "example.com/mixed": {"bool": true}'; fi
        printf '%s{"name": "gpu-%d", "attributes": {"uuid": {"string": "%s"}, "memory": {"int": 81920}, ' \
          "$sep" "$i" "$uuid"
        printf '"driverVersion": {"version": "550.54.15"}, "index": {"int": %d}%s}}\n' "$i" "$mixed"
        sep=","
      done
      echo "]" ;;
    "$attribute_file_driver")
      echo '[{"name": "nic-0",'
      echo '  "attributes": {"model": {"string": "example-nic-400g"}, "example.com/mixed": {"bool": true}}}]' ;;
  esac
}

start_attribute_drivers() {
  local dir file name component metadata
  dir="$(attribute_devices_dir)"
  mkdir -p "$dir"
  for component in attribute-driver attribute-file-driver; do
    case "$component" in
      attribute-driver) name=$attribute_driver metadata="" ;;
      *) name=$attribute_file_driver metadata=--enable-device-metadata ;;
    esac
    # Its plugin directory root's and 0750, as start.sh makes the test driver's: node mode's agent (user 1001, group
    # root among its groups) reads the metadata files through it as on a real node.
    install -d -m 0750 "/var/lib/kubelet/plugins/$name"
    file="$dir/$name.json"
    attribute_devices "$name" >"$file.tmp"
    mv "$file.tmp" "$file"
    # shellcheck disable=SC2086 # $metadata: no flag or one
    start_process "$component" "$bin/attribute-driver" --kubeconfig="$kubeconfig" --node-name="$node" \
      --driver-name="$name" --devices="$file" $metadata
  done
}

apply_attribute_classes() {
  kubectl_apply <<YAML
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: attributes.example.com
spec:
  selectors:
    - cel:
        expression: 'device.driver == "$attribute_driver" && !("mixed" in device.attributes["example.com"])'
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: mixed.example.com
spec:
  selectors:
    - cel:
        expression: '"mixed" in device.attributes["example.com"]'
YAML
}

attribute_drivers_env() {
  local dir
  dir="$(attribute_devices_dir)"
  cat <<ENV
attribute_driver=$attribute_driver
attribute_driver_devices=$dir/$attribute_driver.json
attribute_driver_plugin_dir=/var/lib/kubelet/plugins/$attribute_driver
attribute_file_driver=$attribute_file_driver
attribute_file_driver_devices=$dir/$attribute_file_driver.json
attribute_file_driver_plugin_dir=/var/lib/kubelet/plugins/$attribute_file_driver
ENV
}
