"""The node-mode agent (deploy/kubernetes/node) on the real node, as the node_mode part measures it: deployed with the
imported image, its API-server calls read from its own counter (dra_kube_api_requests_total on its management port),
its memory from its container's cgroup and its live heap from jcmd."""
import json
import os
import re
import subprocess
import urllib.request

from . import kube_node

NS = "dra-metadata-node"
METRIC = "dra_kube_api_requests_total"
_SAMPLE = re.compile(r"^" + METRIC + r"\{([^}]*)\}\s+([0-9.eE+-]+)\s*$", re.M)
_LABEL = re.compile(r'(\w+)="([^"]*)"')
_WAITS = re.compile(r"^dra_node_address_wait_seconds_(count|sum)\s+([0-9.eE+-]+)\s*$", re.M)


class Agent:
    """The agent's pod once it runs: its container and its pod address."""

    def __init__(self, node, jcmd):
        self.node = node
        self.jcmd = jcmd
        pod = json.loads(node.kubectl("get", "pods", "-n", NS, "-o", "json"))["items"][0]
        self.pod = pod["metadata"]["name"]
        self.container_id = pod["status"]["containerStatuses"][0]["containerID"].removeprefix("containerd://")
        self.pod_ip = pod["status"]["podIP"]

    def metrics_text(self):
        """The Prometheus text of its management port (its pod's address, port 9000)."""
        with urllib.request.urlopen(f"http://{self.pod_ip}:9000/q/metrics", timeout=10) as answer:
            return answer.read().decode()

    def api_requests(self):
        """Its dra_kube_api_requests_total now: {"<verb> <resource> <outcome>": count}."""
        out = {}
        for labels, value in _SAMPLE.findall(self.metrics_text()):
            tags = dict(_LABEL.findall(labels))
            out[f"{tags.get('verb')} {tags.get('resource')} {tags.get('outcome')}"] = int(float(value))
        return out

    def address_waits(self):
        """Its dra_node_address_wait_seconds now: (requests that waited for their pod's address, seconds waited)."""
        values = dict(_WAITS.findall(self.metrics_text()))
        return int(float(values.get("count", 0))), float(values.get("sum", 0))

    def memory(self):
        """The container's memory cgroup now: usage (memory.usage_in_bytes, page cache included) and rss
        (memory.stat: anonymous memory), MiB."""
        return {"usage_mib": round(self.node.cgroup_value(self.container_id, "memory", "memory.usage_in_bytes")
                                   / 2**20, 2),
                "rss_mib": round(self.node.cgroup_rss_bytes(self.container_id) / 2**20, 2)}

    def live_heap(self):
        """jcmd GC.class_histogram (a full GC first) of the agent's JVM: {"bytes": the objects' total without the
        JVM's filler arrays, "filler_bytes": theirs, "classes": {name: bytes}}, or {"error": why} when jcmd cannot
        attach. Fillers (jdk.internal.vm.Filler*) are space the JVM formats as dead arrays, not the program's objects:
        they are counted apart."""
        pid = self.node.host_pid(self.container_id)
        try:
            r = subprocess.run([self.jcmd, str(pid), "GC.class_histogram"], capture_output=True, text=True,
                               timeout=120)
        except (OSError, subprocess.TimeoutExpired) as e:
            return {"error": f"jcmd: {e}"}
        total = re.search(r"^Total\s+\d+\s+(\d+)", r.stdout, re.M)
        if r.returncode != 0 or not total:
            return {"error": f"jcmd exit {r.returncode}: {(r.stdout + r.stderr).strip()[-300:]}"}
        classes = {}
        for count_bytes_name in re.findall(r"^\s*\d+:\s+\d+\s+(\d+)\s+(\S+)", r.stdout, re.M):
            classes[count_bytes_name[1]] = classes.get(count_bytes_name[1], 0) + int(count_bytes_name[0])
        fillers = sum(size for name, size in classes.items() if "jdk.internal.vm.Filler" in name)
        return {"bytes": int(total.group(1)) - fillers, "filler_bytes": fillers, "classes": classes}

    def attach_once(self):
        """One jcmd call that changes nothing, so that the JVM's attach listener (a thread, its stack) is there before
        any memory is measured; True when jcmd can attach at all."""
        pid = self.node.host_pid(self.container_id)
        try:
            return subprocess.run([self.jcmd, str(pid), "VM.version"], capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False


def deploy(node, repo, image, jcmd):
    """deploy/kubernetes/node as shipped, the agent given the imported image and a writable /tmp (an emptyDir,
    where the JVM's attach socket for jcmd goes: the shipped pod has a read-only root and no volume there, which
    changes nothing else it does). Returns the Agent once it is ready."""
    node.kubectl("apply", "-k", os.path.join(repo, "deploy/kubernetes/node"))
    node.kubectl("patch", "daemonset", "dra-metadata-sidecar", "-n", NS, "-p", json.dumps(
        {"spec": {"template": {"spec": {
            "containers": [{"name": "agent", "image": image, "imagePullPolicy": "Never",
                            "volumeMounts": [{"name": "bench-tmp", "mountPath": "/tmp"}]}],
            "volumes": [{"name": "bench-tmp", "emptyDir": {}}]}}}}))
    node.kubectl("rollout", "status", "daemonset/dra-metadata-sidecar", "-n", NS, "--timeout=120s", timeout=130)
    # The rollout replaced the first pod: wait until the one left is the only one.
    kube_node.wait(lambda: len(json.loads(node.kubectl("get", "pods", "-n", NS, "-o", "json"))["items"]) == 1, 60,
                   "the agent's old pod gone")
    return Agent(node, jcmd)


def per_pod(before, after, pods):
    """What changed between two api_requests() readings, per pod: {"<verb> <resource>": requests per pod} over every
    outcome, and {"<verb> <resource> <outcome>": count} of the outcomes that are not ok."""
    by_call, not_ok = {}, {}
    for key, value in after.items():
        delta = value - before.get(key, 0)
        if delta <= 0:
            continue
        verb, resource, outcome = key.split(" ")
        by_call[f"{verb} {resource}"] = by_call.get(f"{verb} {resource}", 0) + delta
        if outcome != "ok":
            not_ok[key] = delta
    return ({k: round(v / pods, 3) for k, v in sorted(by_call.items())}, not_ok)


def calls(counts):
    """"<verb> <resource> n" for each call of a per-pod or per-window dict, or "none"."""
    return ", ".join(f"{call} {n}" for call, n in counts.items()) or "none"


def total(counters):
    """The sum of a reading's counts (or of a per-pod dict's values)."""
    return round(sum(counters.values()), 3)


def exec_read(node, ns, pod, claim, request):
    """From inside `pod` (its app container), the agent's answer for claim/request: (Metadata-Source header, the
    number of attributes of each device in the answer). Raises when the agent does not answer 200."""
    script = (f'curl -fsS -D - -H "Authorization: Bearer $(cat /var/run/secrets/dra-metadata/token)" '
              f'"$DRA_METADATA_URL/claims/{claim}/{request}"')
    out = node.kubectl("exec", "-n", ns, pod, "-c", "app", "--", "sh", "-c", script, timeout=30)
    headers, _, body = out.replace("\r\n", "\n").partition("\n\n")  # kubectl's text may keep or drop the CRs
    source = next((line.split(":", 1)[1].strip() for line in headers.splitlines()
                   if line.lower().startswith("metadata-source:")), None)
    return source, attribute_counts(json.loads(body))


def attribute_counts(answer):
    """The number of attributes of every device of a metadata answer, in document order."""
    counts = []

    def walk(value):
        if isinstance(value, dict):
            if isinstance(value.get("attributes"), dict) and "name" in value:
                counts.append(len(value["attributes"]))
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(answer)
    return counts
