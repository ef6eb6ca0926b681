"""For the node_mode part, with the pods whose claim the agent derives from the resource API up: the agent's API-server
requests at rest, and its memory with attributes.example.com's devices as the node starts them (a baseline) and then
rewritten to 8 devices of many attributes, the same pods and claim served throughout."""
import json
import time

from . import attribute_devices, node_agent
from .kube_node import wait
from .stats import median

CLAIM = "all-gpus"
# The claim's two requests: gpu-0..gpu-6 (DeviceClass attributes.example.com, all of them), and gpu-7 (mixed.example.com,
# which also selects the nic of files.example.com: a selector keeps the driver's).
REQUESTS = ("gpus", "gpu7")


def claim(ns):
    """The ResourceClaim of all 8 devices of attributes.example.com (allocated once, before the devices change)."""
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": CLAIM, "namespace": ns},
            "spec": {"devices": {"requests": [
                {"name": "gpus", "exactly": {"deviceClassName": "attributes.example.com", "allocationMode": "All"}},
                {"name": "gpu7", "exactly": {"deviceClassName": "mixed.example.com", "selectors": [{"cel": {
                    "expression": 'device.driver == "attributes.example.com"'}}]}}]}}}


def at_rest(agent, seconds):
    """The agent's API-server requests over `seconds` in which no pod comes or goes."""
    before, t0 = agent.api_requests(), time.monotonic()
    time.sleep(seconds)  # the window being measured, not a wait for an event
    after, window = agent.api_requests(), time.monotonic() - t0
    by_call, not_ok = node_agent.per_pod(before, after, window / 60)
    return {"window_s": round(window, 1), "requests": node_agent.total(after) - node_agent.total(before),
            "per_minute": round((node_agent.total(after) - node_agent.total(before)) * 60 / window, 3),
            "per_minute_by_call": by_call, "not_ok": not_ok}


def served(node, ns, reader):
    """What the agent answers `reader` for each request of the claim: its Metadata-Source, attributes per device."""
    out = {}
    for request in REQUESTS:
        source, counts = node_agent.exec_read(node, ns, reader, CLAIM, request)
        out[request] = {"source": source, "attributes_per_device": counts}
    return out


HISTOGRAMS = 3


def snapshot(agent):
    """The agent's memory now (cgroup), then its live heap (jcmd's histogram, a full GC, HISTOGRAMS times a second
    apart: the median total, the classes of the last; the JVM's fillers apart), then the cgroup again."""
    out = {"cgroup_before_gc": agent.memory()}
    heaps = []
    for i in range(HISTOGRAMS):
        if i:
            time.sleep(1)
        heaps.append(agent.live_heap())
    if all("bytes" in h for h in heaps):
        middle = sorted(heaps, key=lambda h: h["bytes"])[HISTOGRAMS // 2]
        out["heap"] = {"bytes": middle["bytes"], "filler_bytes": middle["filler_bytes"],
                       "each_bytes": [h["bytes"] for h in heaps], "classes": heaps[-1]["classes"]}
    else:
        out["heap"] = next(h for h in heaps if "error" in h)
    out["cgroup_after_gc"] = agent.memory()
    return out


def memory(node, agent, ns, reader, asked, settle_s, rounds):
    """`rounds` alternations of the devices as the node starts them (the baseline) and 8 devices of `asked`
    attributes (or the API server's limit), each republished by the driver, served by the agent, read through it by
    `reader`, settled and measured; the change from each baseline to the large devices after it, and its median.
    The devices file is as the node wrote it after."""
    path = node.env[attribute_devices.DEVICES_KEY]
    original = open(path).read()
    out = {"plan": attribute_devices.plan(node, asked), "rounds": []}
    k = out["plan"]["attributes"]
    phases = {"baseline": json.loads(original), "large": attribute_devices.devices(8, k, out["plan"]["lists"])}
    for i in range(rounds):
        measured = {}
        for phase, devices in phases.items():
            if i or phase == "large":
                t0 = time.monotonic()
                attribute_devices.republish(node, devices)
                out.setdefault(f"{phase}_republished_s", round(time.monotonic() - t0, 2))
                wait(lambda: serves(node, ns, reader, devices), 60, f"the agent serving the {phase} devices")
                out.setdefault(f"{phase}_served_s", round(time.monotonic() - t0, 2))
            measured[phase] = {"attributes": sum(len(d["attributes"]) for d in devices),
                               "served": served(node, ns, reader)}
            time.sleep(settle_s)  # the same quiet time before each measurement
            measured[phase].update(snapshot(agent))
        measured.update(compare(measured["baseline"], measured["large"]))
        for phase in phases:
            measured[phase]["heap"].pop("classes", None)
        out["rounds"].append(measured)
    attribute_devices.write_text(path, original)
    last = out["rounds"][-1]
    out["baseline"], out["large"] = last["baseline"], last["large"]
    for key in ("heap_kib_per_device", "heap_kib_per_slice", "heap_bytes_per_attribute_added", "heap_ratio",
                "cgroup_rss_kib_per_device", "cgroup_rss_ratio", "cgroup_usage_kib_per_device", "cgroup_usage_ratio"):
        values = [r[key] for r in out["rounds"] if key in r]
        if values:
            out[key] = round(median(values), 3)
            out[key + "_rounds"] = values
    for key in ("heap_mib", "cgroup_rss_mib_after_gc", "cgroup_usage_mib_after_gc", "heap_grown_by_class_kib",
                "heap_shrunk_by_class_kib"):
        if key in last:
            out[key] = last[key]
    return out


def serves(node, ns, reader, devices):
    """Whether the agent serves each of the claim's devices with as many attributes as `devices` give it."""
    want = {d["name"]: len(d["attributes"]) for d in devices}
    now = served(node, ns, reader)
    return (sorted(now["gpus"]["attributes_per_device"]) == sorted(want[f"gpu-{i}"] for i in range(7))
            and now["gpu7"]["attributes_per_device"] == [want["gpu-7"]])


def compare(base, large):
    """The change from the baseline: live heap, cgroup rss and usage after the full GC, per device (8) and per slice
    (the driver publishes one), and the classes that grew most."""
    out = {}
    if "bytes" in base["heap"] and "bytes" in large["heap"]:
        grown = large["heap"]["bytes"] - base["heap"]["bytes"]
        out["heap_mib"] = [round(base["heap"]["bytes"] / 2**20, 2), round(large["heap"]["bytes"] / 2**20, 2)]
        out["heap_ratio"] = round(large["heap"]["bytes"] / base["heap"]["bytes"], 3)
        out["heap_kib_per_device"] = round(grown / 1024 / 8, 1)
        out["heap_kib_per_slice"] = round(grown / 1024, 1)
        out["heap_bytes_per_attribute_added"] = round(grown / max(1, large["attributes"] - base["attributes"]), 1)
        deltas = {name: large["heap"]["classes"].get(name, 0) - base["heap"]["classes"].get(name, 0)
                  for name in set(base["heap"]["classes"]) | set(large["heap"]["classes"])
                  if "jdk.internal.vm.Filler" not in name}
        ranked = sorted(deltas.items(), key=lambda item: -item[1])
        out["heap_grown_by_class_kib"] = {name: round(d / 1024, 1) for name, d in ranked[:8] if d > 0}
        out["heap_shrunk_by_class_kib"] = {name: round(d / 1024, 1) for name, d in ranked[::-1][:4] if d < 0}
    for key in ("rss_mib", "usage_mib"):
        b, l = base["cgroup_after_gc"][key], large["cgroup_after_gc"][key]
        out[f"cgroup_{key}_after_gc"] = [b, l]
        out[f"cgroup_{key.removesuffix('_mib')}_kib_per_device"] = round((l - b) * 1024 / 8, 1)
        out[f"cgroup_{key.removesuffix('_mib')}_ratio"] = round(l / b, 3)
    return out
