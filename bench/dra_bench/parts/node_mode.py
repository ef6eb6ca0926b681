"""Part node_mode: the two modes on the real node of the tests (src/test/kube-node). The same N pods (default 20,
one shared claim) three times, one after another: reading the file themselves (the baseline), each with a sidecar
(deploy/kubernetes/injection), and all served by the one agent (deploy/kubernetes/node). For each: what the node's
metadata service uses with all N pods running (memory: the sum of its containers' memory cgroups; CPU: their
cpuacct over the pods' starts and over an idle window after), and what it adds to a pod's start (pod POST to the
app container's first line, as the pod_start part measures it, against the baseline's).

Needs root, podman and the node's binaries (built by the *OnNodeIT tests; skipped, saying so, without them).
"""
import json
import os
import time

from ..stats import median, percentile
from .. import kube_node
from .pod_start import app_log, cri_time, wait

NAME = "node_mode"
IDLE_S = 10
TOKEN = "/var/run/secrets/dra-metadata/token"


def add_arguments(parser):
    parser.add_argument("--node-mode-n", type=int, default=20, help="pods of each variant")


def run(ctx):
    if not ctx.args.only or NAME not in ctx.args.only.split(","):
        return {"skipped": "runs only when named (--only node_mode): it starts 3 x N pods on the node"}
    repo = ctx.args.repo
    why = kube_node.why_no_node(repo)
    if why:
        return {"skipped": why}
    n = 3 if ctx.smoke else ctx.args.node_mode_n
    node = kube_node.Node(ctx, repo)
    try:
        return measure(node, repo, n)
    finally:
        node.stop()


def measure(node, repo, n):
    image = node.import_sidecar_image()
    ns = "node-mode"
    node.apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": {
        "pod-security.kubernetes.io/enforce": "restricted"}}})
    wait(lambda: node.kubectl("get", "serviceaccount", "default", "-n", ns, check=False), 30)
    node.apply({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "shared", "namespace": ns},
                "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}}})
    out = {"n": n, "sidecar_image": image}
    out["baseline"] = variant(node, ns, n, "baseline", None)

    node.kubectl("apply", "-k", os.path.join(repo, "deploy/kubernetes/injection"))
    node.kubectl("patch", "configmap", "dra-metadata-sidecar", "-n", "dra-metadata-sidecar", "--type", "merge",
                 "-p", json.dumps({"data": {"image": image}}))
    wait(lambda: admitted_with(node, ns, "initContainers"), 60)
    out["sidecars"] = variant(node, ns, n, "sidecar",
                              lambda pods: [node.container_id(ns, p, "dra-metadata-sidecar") for p in pods])
    node.kubectl("delete", "-k", os.path.join(repo, "deploy/kubernetes/injection"), "--ignore-not-found", "--wait=false")
    wait(lambda: not admitted_with(node, ns, "initContainers"), 60)

    node.kubectl("apply", "-k", os.path.join(repo, "deploy/kubernetes/node"))
    # The test node runs no kube-proxy: the kubernetes Service's address (the agent's in-cluster default) leads
    # nowhere, so the agent (hostNetwork) is given the API server itself, as the *OnNodeIT tests' NodeAgent does.
    api_server = node.kubectl("config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}").strip()
    node.kubectl("patch", "daemonset", "dra-metadata-sidecar", "-n", "dra-metadata-node", "-p", json.dumps(
        {"spec": {"template": {"spec": {"containers": [{"name": "agent", "image": image, "imagePullPolicy": "Never",
                                                        "env": [{"name": "DRA_METADATA_KUBE_API_SERVER",
                                                                 "value": api_server}]}]}}}}))
    node.kubectl("rollout", "status", "daemonset/dra-metadata-sidecar", "-n", "dra-metadata-node", "--timeout=120s",
                 timeout=130)
    wait(lambda: admitted_with(node, ns, "dra-metadata-token"), 60)
    agent = json.loads(node.kubectl("get", "pods", "-n", "dra-metadata-node", "-o", "json"))["items"][0]
    agent_id = agent["status"]["containerStatuses"][0]["containerID"].removeprefix("containerd://")
    out["agent"] = variant(node, ns, n, "agent", lambda pods: [agent_id])
    node.kubectl("delete", "-k", os.path.join(repo, "deploy/kubernetes/node"), "--ignore-not-found", "--wait=false")

    for name in ("sidecars", "agent"):
        out[name]["added_s_p50"] = round(out[name]["p50_s"] - out["baseline"]["p50_s"], 3)
    out["memory_ratio_sidecars_to_agent"] = round(out["sidecars"]["memory_mib"] / out["agent"]["memory_mib"], 2)
    return out


def pod(name, ns, app_image, mode):
    read = {"baseline": "head -c 60 /var/run/kubernetes.io/dra-device-attributes/resourceclaims/shared/gpu/*-metadata.json",
            "sidecar": "curl -fsS localhost:8089/claims/shared/gpu | head -c 60",
            "agent": f"curl -fsS -H \"Authorization: Bearer $(cat {TOKEN})\" \"$DRA_METADATA_URL/claims/shared/gpu\" | head -c 60"}[mode]
    labels = {} if mode == "baseline" else {"dra-metadata-sidecar.dra.dev/inject": "true"}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns, "labels": labels},
            "spec": {"automountServiceAccountToken": False, "terminationGracePeriodSeconds": 1,
                     "securityContext": {"runAsNonRoot": True, "runAsUser": 1001, "runAsGroup": 1001,
                                         "seccompProfile": {"type": "RuntimeDefault"}},
                     "resourceClaims": [{"name": "gpu", "resourceClaimName": "shared"}],
                     "containers": [{"name": "app", "image": app_image, "imagePullPolicy": "Never",
                                     "command": ["/bin/sh", "-c", f"{read}; echo; exec sleep 3600"],
                                     "resources": {"claims": [{"name": "gpu"}]},
                                     "securityContext": {"allowPrivilegeEscalation": False,
                                                         "capabilities": {"drop": ["ALL"]}}}]}}


def admitted_with(node, ns, text):
    out = node.kubectl("create", "--dry-run=server", "-o", "json", "-f", "-",
                       stdin=json.dumps(pod("probe", ns, node.env["app_image"], "agent")), check=False)
    return bool(out) and text in out


def variant(node, ns, n, mode, service_containers):
    """Starts n pods one after another (each timed to its first line), measures the service with all running,
    deletes them."""
    names = [f"{mode}-{i}" for i in range(n)]
    # The agent runs before its pods: what it uses then is the baseline of its figures (a pod's sidecar has none).
    running = service_containers([]) if mode == "agent" else []
    before, memory_before = cpu_ns(node, running), memory_mib(node, running)
    starts = [start(node, ns, name, mode) for name in names]
    result = {"p50_s": round(median(starts), 3), "p90_s": round(percentile(starts, 90), 3)}
    if service_containers:
        ids = service_containers(names)
        result["memory_mib"] = memory_mib(node, ids)
        if mode == "agent":
            result["memory_mib_before_pods"] = memory_before
            result["memory_kib_per_pod"] = round((result["memory_mib"] - memory_before) * 1024 / n, 1)
        result["cpu_s_through_starts"] = round((cpu_ns(node, ids) - before) / 1e9, 2)
        t0, used0 = time.monotonic(), cpu_ns(node, ids)
        time.sleep(IDLE_S)  # the idle window being measured, not a wait for an event
        result["idle_cpu_percent"] = round(100 * (cpu_ns(node, ids) - used0) / 1e9 / (time.monotonic() - t0), 3)
        result["containers"] = len(ids)
    node.kubectl("delete", "pods", "-n", ns, "--all", "--grace-period=1", "--wait=true", timeout=180)
    return result


def start(node, ns, name, mode):
    t0 = time.time()
    node.kubectl("create", "-f", "-", stdin=json.dumps(pod(name, ns, node.env["app_image"], mode)))
    out = app_log(node, ns, name)
    if '"kind"' not in out and "metadata" not in out:
        raise RuntimeError(f"pod {name}: its first read failed: {out[:300]}")
    return cri_time(out.split()[0]) - t0


def memory_mib(node, ids):
    return round(sum(node.cgroup_value(i, "memory", "memory.usage_in_bytes") for i in ids) / 2**20, 1)


def cpu_ns(node, ids):
    return sum(node.cgroup_value(i, "cpuacct", "cpuacct.usage") for i in ids)


def summary_rows(r):
    if "skipped" in r:
        return [f"| node_mode | skipped: {r['skipped']} | |"]
    if "agent" not in r:
        return []
    s, a = r["sidecars"], r["agent"]
    return [f"| node_mode: {r['n']} pods, {s['containers']} sidecars / 1 agent: memory, CPU through the starts, idle CPU | "
            f"{s['memory_mib']} / {a['memory_mib']} MiB (x{r['memory_ratio_sidecars_to_agent']}); "
            f"{s['cpu_s_through_starts']} / {a['cpu_s_through_starts']} s; {s['idle_cpu_percent']} / {a['idle_cpu_percent']} % | |",
            f"| node_mode: what each adds to a pod's start (p50 against the pods reading the file, {r['baseline']['p50_s']} s) | "
            f"sidecar {s['added_s_p50']} s, agent {a['added_s_p50']} s | |",
            f"| node_mode: the agent's memory before its pods / with them (change per pod; the heap's collections move "
            f"it too) | {a['memory_mib_before_pods']} / {a['memory_mib']} MiB ({a['memory_kib_per_pod']:+} KiB) | |"]


def detail_lines(r):
    if "agent" not in r:
        return []
    return [f"- node_mode, pod start p50/p90: baseline {r['baseline']['p50_s']}/{r['baseline']['p90_s']} s, sidecars "
            f"{r['sidecars']['p50_s']}/{r['sidecars']['p90_s']} s, agent {r['agent']['p50_s']}/{r['agent']['p90_s']} s"]
