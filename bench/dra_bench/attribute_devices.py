"""Devices of the test node's driver without metadata files, attributes.example.com (src/test/kube-node/
attribute-drivers.sh), made larger for the node_mode part: N devices of K attributes of mixed types (UUID-like and
other strings, ints, versions, bools, a few list-typed ints and strings), written to the driver's devices file by
rename, which the driver republishes as its pool's next generation. How many attributes, and whether list-typed ones,
the API server takes is asked of it first (a server-side dry run): it caps attributes and capacities per device and
drops list-typed values unless the DRAListTypeAttributes feature gate is on."""
import hashlib
import json
import os
import re

from . import kube_node

DRIVER_KEY, DEVICES_KEY = "attribute_driver", "attribute_driver_devices"
# gpu-7 keeps the attribute by which the DeviceClass mixed.example.com selects it (attributes.example.com does not).
MIXED = ("example.com/mixed", {"bool": True})


def _uuid(i, salt=""):
    s = hashlib.sha256(f"gpu-{i}{salt}".encode()).hexdigest()
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:32]}"


def catalogue(i):
    """Device i's attributes, in the order they are taken (the first K): every type within the first 16. The list
    values of the first 32 are 18, so that 32 attributes stay within the API server's 48 values per device."""
    cpus = list(range(8 * i, 8 * i + 8))
    peers = [p for p in range(8) if p != i]
    return [
        ("uuid", {"string": _uuid(i)}),
        ("memory", {"int": 81920}),
        ("driverVersion", {"version": "550.54.15"}),
        ("index", {"int": i}),
        ("productName", {"string": "Example GPU X100 80GB HBM3"}),
        ("cpuAffinity", {"ints": cpus}),
        ("eccEnabled", {"bool": True}),
        ("cudaVersion", {"version": "12.4.1"}),
        ("pciBusID", {"string": f"0000:{0x18 + 0x10 * i:02x}:00.0"}),
        ("migProfiles", {"strings": ["1g.10gb", "3g.40gb", "7g.80gb"]}),
        ("minor", {"int": i}),
        ("serial", {"string": f"16509230{i:05d}"}),
        ("nvlinkPeers", {"ints": peers}),
        ("architecture", {"string": "Hopper"}),
        ("firmwareVersion", {"version": f"96.0.{i}"}),
        ("migCapable", {"bool": True}),
        ("numaNode", {"int": i // 4}),
        ("vbiosVersion", {"string": f"96.00.99.00.{i:02d}"}),
        ("smCount", {"int": 132}),
        ("boardPartNumber", {"string": "699-2G530-0200-200"}),
        ("maxClockMHz", {"int": 1980}),
        ("memoryClockMHz", {"int": 2619}),
        ("powerLimitWatts", {"int": 700}),
        ("pcieGeneration", {"int": 5}),
        ("pcieLinkWidth", {"int": 16}),
        ("computeCapability", {"version": "9.0.0"}),
        ("brand", {"string": "Example"}),
        ("persistenceMode", {"bool": False}),
        ("parentUUID", {"string": _uuid(i, "parent")}),
        ("l2CacheKiB", {"int": 51200}),
        ("memoryBandwidthGBs", {"int": 3352}),
        ("nvlinkVersion", {"version": "4.0.0"}),
        ("encoderCount", {"int": 7}),
        ("decoderCount", {"int": 7}),
        ("vgpuCapable", {"bool": False}),
        ("clusterUUID", {"string": _uuid(0, "cluster")}),
        ("cliqueID", {"int": 1}),
        ("supportedClocks", {"ints": [1980, 1755, 1410, 1095]}),
        ("computeModes", {"strings": ["Default", "ExclusiveProcess", "Prohibited"]}),
        ("healthy", {"bool": True}),
    ]


def scalar(value):
    """A list-typed value as the scalar string the API server takes without the feature gate (items joined by ',')."""
    for key in ("ints", "strings"):
        if key in value:
            return {"string": ",".join(str(v) for v in value[key])}
    return value


def devices(n, attributes, lists):
    """n devices gpu-0..gpu-(n-1), each with `attributes` attributes; list-typed ones as such only when `lists`."""
    out = []
    for i in range(n):
        chosen = catalogue(i)[:attributes]
        if i == 7:
            chosen = chosen[:attributes - 1] + [MIXED]
        out.append({"name": f"gpu-{i}", "attributes": {k: v if lists else scalar(v) for k, v in chosen}})
    return out


def _dry_run_slice(node, devices_):
    """A server-side dry run of a slice of these devices: (the object as the API server would store it, or None; its
    refusal, or None)."""
    probe = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "bench-probe"},
             "spec": {"driver": node.env[DRIVER_KEY], "nodeName": node.env["node"], "devices": devices_,
                      "pool": {"name": "bench-probe", "generation": 1, "resourceSliceCount": 1}}}
    r = node.kubectl_run("create", "--dry-run=server", "-o", "json", "-f", "-", stdin=json.dumps(probe))
    return (json.loads(r.stdout), None) if r.returncode == 0 else (None, r.stderr.strip())


def plan(node, asked, n=8):
    """What the API server takes: {"attributes": K (asked, or its per-device limit when that is lower), "lists": bool,
    "capped_by": its refusal of `asked` or None, "lists_refused": its answer to list-typed values or None}."""
    out = {"asked": asked, "capped_by": None, "lists_refused": None}
    k = asked
    stored, err = _dry_run_slice(node, devices(n, k, False))
    if stored is None:
        limit = re.search(r"[^\n*]*must not exceed (\d+)", err or "")
        if not limit:
            raise RuntimeError(f"the API server refuses {n} devices of {k} attributes: {err}")
        out["capped_by"] = limit.group(0).strip()
        k = int(limit.group(1))
        stored, err = _dry_run_slice(node, devices(n, k, False))
        if stored is None:
            raise RuntimeError(f"the API server refuses {n} devices of {k} attributes too: {err}")
    out["attributes"] = k
    stored, err = _dry_run_slice(node, devices(n, k, True))
    kept = stored is not None and any(
        "ints" in v or "strings" in v for d in stored["spec"]["devices"] for v in d["attributes"].values())
    out["lists"] = kept
    if not kept:
        first = re.search(r"[^\n*]*must specify[^\n]*", err or "")
        out["lists_refused"] = (first.group(0) if first else err or "accepted, the list-typed values dropped").strip()[:300]
    return out


def write(path, devices_):
    """The devices file replaced by rename, as the driver wants it (no half-written file is ever read)."""
    write_text(path, json.dumps(devices_))


def write_text(path, text):
    """`text` as the devices file, by rename."""
    with open(path + ".bench-tmp", "w") as f:
        f.write(text)
    os.rename(path + ".bench-tmp", path)


def published(node):
    """The attribute counts of the driver's devices in its slices on the API server, by device name."""
    slices = json.loads(node.kubectl("get", "resourceslices", "-o", "json",
                                     f"--field-selector=spec.driver={node.env[DRIVER_KEY]}"))["items"]
    return {d["name"]: len(d.get("attributes", {})) for s in slices for d in s["spec"].get("devices", [])}


def republish(node, devices_, seconds=30):
    """Writes `devices_` and waits until the API server holds them (every device with its number of attributes)."""
    write(node.env[DEVICES_KEY], devices_)
    want = {d["name"]: len(d["attributes"]) for d in devices_}
    kube_node.wait(lambda: published(node) == want, seconds, f"the driver republishing {len(devices_)} devices")
