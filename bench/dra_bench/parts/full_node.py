"""Part full_node: node mode on a full node. As many pods as the node still takes, up to N (default 110, the
kubelet's default maxPods, less the pods already there: the agent's own counts), one shared claim, all served by the
one agent (deploy/kubernetes/node). Each app asks the agent for its claim every --full-node-interval seconds on a new
connection and keeps a long poll (waitForChange with the ETag it has, 30 s) open the whole time, and logs each answer's status and time
(curl's time_total). The pods are created together, not one after another.

Measured: the agent's API-server requests through the starts, per pod; then, with all pods running, over
--full-node-window-seconds: the apps' answers (p50/p99 of the requests' time, how many were not 200, long polls
answered), the agent's CPU (cpuacct.usage, percent of one core), its API-server requests in the window (per minute)
and its memory cgroup (usage now, and the highest usage since it started, memory.max_usage_in_bytes) against the
DaemonSet's limit.

Needs root, podman and the node's binaries (built by the *OnNodeIT tests; skipped, saying so, without them).
"""
import json
import os
import time

from ..stats import median, percentile
from .. import kube_node, node_agent
from ..kube_node import wait
from .node_mode import cpu_ns
from .pod_start import cri_time

NAME = "full_node"
TOKEN = "/var/run/secrets/dra-metadata/token"
NS = "full-node"


def add_arguments(parser):
    parser.add_argument("--full-node-n", type=int, default=110, help="pods at most (the node's free pod slots cap it)")
    parser.add_argument("--full-node-interval", type=float, default=5.0,
                        help="seconds between an app's requests (a curl process each)")
    parser.add_argument("--full-node-window-seconds", type=int, default=120,
                        help="window with all pods running in which the answers, CPU and requests are counted")


def run(ctx):
    if not ctx.args.only or NAME not in ctx.args.only.split(","):
        return {"skipped": "runs only when named (--only full_node): it fills the node with pods"}
    return kube_node.run_on_node(ctx, measure, 3 if ctx.smoke else ctx.args.full_node_n)


def measure(ctx, node, repo, most):
    image = node.import_sidecar_image()
    node.apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS, "labels": {
        "pod-security.kubernetes.io/enforce": "restricted"}}})
    wait(lambda: node.kubectl("get", "serviceaccount", "default", "-n", NS, check=False), 30)
    node.apply({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "shared", "namespace": NS},
                "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}}})
    agent = node_agent.deploy(node, repo, image, os.path.join(ctx.args.jdk25, "bin/jcmd"))
    wait(lambda: "dra-metadata-token" in (node.kubectl("create", "--dry-run=server", "-o", "json", "-f", "-",
                                                       stdin=json.dumps(pod("probe", node, 1)), check=False) or ""), 60)
    node_json = json.loads(node.kubectl("get", "nodes", "-o", "json"))["items"][0]
    slots = int(node_json["status"]["allocatable"]["pods"])
    taken = len(json.loads(node.kubectl("get", "pods", "-A", "-o", "json"))["items"])
    n = min(most, slots - taken)
    limit_mib = int(agent_limit_bytes(node) / 2**20)
    interval = 1.0 if ctx.smoke else ctx.args.full_node_interval
    window_s = 5 if ctx.smoke else ctx.args.full_node_window_seconds

    calls_before = agent.api_requests()
    t0 = time.monotonic()
    names = [f"app-{i}" for i in range(n)]
    node.kubectl("create", "-f", "-", timeout=120,
                 stdin="\n".join(json.dumps(pod(name, node, interval)) for name in names))
    wait(lambda: ready(node) >= n, 600, f"{n} pods Ready")
    all_ready_s = round(time.monotonic() - t0, 1)
    per_pod, not_ok = node_agent.per_pod(calls_before, agent.api_requests(), n)

    # The window begins once every app has had its first answer: each logs it at once.
    await_first_answers(node, names, 300)
    window_start = time.time()
    calls_0, cpu_0, t_0 = agent.api_requests(), cpu_ns(node, [agent.container_id]), time.monotonic()
    time.sleep(window_s)  # the window being measured, not a wait for an event
    cpu_percent = round(100 * (cpu_ns(node, [agent.container_id]) - cpu_0) / 1e9 / (time.monotonic() - t_0), 2)
    in_window, _ = node_agent.per_pod(calls_0, agent.api_requests(), 1)
    requests, polls = [], []
    for name in names:
        for kind, code, seconds, at in answers(node, name):
            if window_start <= at <= window_start + window_s:
                (requests if kind == "r" else polls).append((code, seconds))
    times = [seconds for _, seconds in requests]
    memory = agent.memory()
    out = {"n": n, "node_pod_slots": slots, "interval_s": interval, "window_s": window_s, "all_ready_s": all_ready_s,
           "api_requests_per_pod_start": per_pod, "api_requests_per_pod_start_total": node_agent.total(per_pod),
           "api_requests_not_ok_through_starts": not_ok,
           "requests": len(requests), "requests_not_200": sum(1 for code, _ in requests if code != "200"),
           "requests_by_status": by_status(requests), "long_polls_by_status": by_status(polls),
           "request_p50_ms": round(1000 * median(times), 1) if times else None,
           "request_p99_ms": round(1000 * percentile(times, 99), 1) if times else None,
           "long_polls_answered": len(polls), "long_polls_not_200": sum(1 for code, _ in polls if code != "200"),
           "agent_cpu_percent": cpu_percent,
           "agent_api_requests_per_minute": round(node_agent.total(in_window) * 60 / window_s, 2),
           "agent_api_requests_in_window": in_window,
           "agent_memory_mib": memory, "agent_memory_peak_mib": round(
               node.cgroup_value(agent.container_id, "memory", "memory.max_usage_in_bytes") / 2**20, 1),
           "agent_memory_limit_mib": limit_mib}
    node.kubectl("delete", "namespace", NS, "--wait=true", timeout=600)
    node.kubectl("delete", "-k", os.path.join(repo, "deploy/kubernetes/node"), "--ignore-not-found", "--wait=false")
    return out


def pod(name, node, interval):
    """An app that logs "r <status> <seconds>" for a request every `interval` s and "p ..." for each long poll
    answered (the poll sends the ETag it was last answered with as lastEtag, so it waits for a change or its 30 s);
    when, the
    log's own timestamps say."""
    auth = f"-H \"Authorization: Bearer $(cat {TOKEN})\""
    url = "\"$DRA_METADATA_URL/claims/shared/gpu\""
    line = "-w '%{http_code} %{time_total} '"
    script = (f"poll() {{ etag=; while true; do h=$(curl -s -o /dev/null -D - {line} {auth} --get "
              f"--data waitForChange=true --data timeoutSeconds=30 --data-urlencode \"lastEtag=$etag\" {url}); "
              f"etag=$(echo \"$h\" | sed -n 's/^[Ee][Tt][Aa][Gg]: *//p' | tr -d '\\r'); "
              f"echo \"p $(echo \"$h\" | tail -n 1)\"; done; }}; poll & "
              f"while true; do echo \"r $(curl -s -o /dev/null {line} {auth} {url})\"; "
              f"sleep {interval}; done")
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": NS,
                                                            "labels": {"dra-metadata-sidecar.dra.dev/inject": "true"}},
            "spec": {"automountServiceAccountToken": False, "terminationGracePeriodSeconds": 1,
                     "securityContext": {"runAsNonRoot": True, "runAsUser": 1001, "runAsGroup": 1001,
                                         "seccompProfile": {"type": "RuntimeDefault"}},
                     "resourceClaims": [{"name": "gpu", "resourceClaimName": "shared"}],
                     "containers": [{"name": "app", "image": node.env["app_image"], "imagePullPolicy": "Never",
                                     "command": ["/bin/sh", "-c", script],
                                     "resources": {"claims": [{"name": "gpu"}]},
                                     "securityContext": {"allowPrivilegeEscalation": False,
                                                         "capabilities": {"drop": ["ALL"]}}}]}}


def await_first_answers(node, names, seconds):
    """Returns once every app has logged an answer, looking again a second later at those that had not."""
    waiting, deadline = list(names), time.monotonic() + seconds
    while waiting:
        waiting = [name for name in waiting if not answers(node, name)]
        if waiting and time.monotonic() > deadline:
            raise RuntimeError(f"{len(waiting)} apps without an answer within {seconds} s: {waiting[:5]}")
        if waiting:
            time.sleep(1)


def by_status(answered):
    counts = {}
    for code, _ in answered:
        counts[code] = counts.get(code, 0) + 1
    return dict(sorted(counts.items()))


def ready(node):
    pods = json.loads(node.kubectl("get", "pods", "-n", NS, "-o", "json", timeout=60))["items"]
    return sum(1 for p in pods if any(c["type"] == "Ready" and c["status"] == "True"
                                      for c in p.get("status", {}).get("conditions", [])))


def answers(node, name):
    """The app's answers so far: (kind r or p, status, seconds, epoch seconds when logged)."""
    out = []
    for line in node.kubectl("logs", "--timestamps", "-n", NS, name, "-c", "app", check=False).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[1] in ("r", "p"):
            out.append((parts[1], parts[2], float(parts[3]), cri_time(parts[0])))
    return out


def agent_limit_bytes(node):
    ds = json.loads(node.kubectl("get", "daemonset", "dra-metadata-sidecar", "-n", node_agent.NS, "-o", "json"))
    limit = ds["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"]
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    return int(limit[:-2]) * units[limit[-2:]] if limit[-2:] in units else int(limit)


def summary_rows(r):
    if "skipped" in r:
        return [f"| full_node | skipped: {r['skipped']} | |"]
    if "n" not in r:
        return []
    return [f"| full_node: {r['n']} pods on one agent, each asking every {r['interval_s']} s and long-polling: the "
            f"apps' answers p50 / p99, not 200 | {r['request_p50_ms']} / {r['request_p99_ms']} ms, "
            f"{r['requests_not_200']} of {r['requests']} | |",
            f"| full_node: the agent with {r['n']} pods: CPU, memory now / highest (limit), API-server requests a "
            f"minute / per pod start | {r['agent_cpu_percent']} %, {r['agent_memory_mib']['usage_mib']} / "
            f"{r['agent_memory_peak_mib']} MiB ({r['agent_memory_limit_mib']} MiB), "
            f"{r['agent_api_requests_per_minute']} / {r['api_requests_per_pod_start_total']} | |"]


def detail_lines(r):
    if "n" not in r:
        return []
    return [f"- full_node: {r['n']} pods (the node takes {r['node_pod_slots']}) all Ready {r['all_ready_s']} s after "
            f"they were created together; the agent's API-server requests per pod start "
            f"{node_agent.calls(r['api_requests_per_pod_start'])} (not ok: "
            f"{r['api_requests_not_ok_through_starts'] or 'none'}); in the {r['window_s']} s window "
            f"{node_agent.calls(r['agent_api_requests_in_window'])}; long polls answered "
            f"{r['long_polls_answered']} ({r['long_polls_not_200']} not 200)"]
