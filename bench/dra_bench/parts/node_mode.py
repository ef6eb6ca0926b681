"""Part node_mode: the two modes on the real node of the tests (src/test/kube-node). The same N pods (default 20,
one shared claim) four times, one after another: reading the file themselves (the baseline), the same with their
service account's token mounted (the baseline with a volume, as the agent's pods have one), each with a sidecar
(deploy/kubernetes/injection), and all served by the one agent (deploy/kubernetes/node). For each: what the node's
metadata service uses with all N pods running (memory: the sum of its containers' memory cgroups; CPU: their
cpuacct over the pods' starts and over an idle window after), and what it adds to a pod's start (pod POST to the
app container's first line, as the pod_start part measures it, against the baselines'), split at containerd's
creation of the app container; for the agent, how many first requests waited for their pod's address and how long
(its dra_node_address_wait_seconds before and after the starts).

Then the agent's resource-API source: N more pods whose one claim holds the 8 devices of attributes.example.com, a
driver that writes no metadata file, so that the agent derives what it serves them. For both kinds of pod, the
agent's API-server requests per pod start (its own dra_kube_api_requests_total before and after the starts); with
the derived pods up, its requests per minute at rest; then its memory (cgroup, and the live heap after a full GC from
jcmd) with the driver's devices as the node starts them and after they are rewritten to 8 devices of
--node-mode-attributes attributes each (or as many as the API server takes), the same pods and claim throughout
(node_mode_memory).

Needs root, podman and the node's binaries (built by the *OnNodeIT tests; skipped, saying so, without them).
"""
import json
import os
import time

from ..stats import median, percentile
from .. import kube_node, node_agent, node_mode_memory
from ..node_agent import calls
from .pod_start import app_log, created, cri_time, wait

NAME = "node_mode"
IDLE_S = 10
TOKEN = "/var/run/secrets/dra-metadata/token"
SERVED_BY_AGENT = ("agent", "derived")


def add_arguments(parser):
    parser.add_argument("--node-mode-n", type=int, default=20, help="pods of each variant")
    # Over 10 minutes: the agent fetches the issuer's keys again every 10 minutes, which a shorter window may miss.
    parser.add_argument("--node-mode-rest-seconds", type=int, default=630,
                        help="window without pod changes in which the agent's API-server requests are counted")
    parser.add_argument("--node-mode-attributes", type=int, default=40,
                        help="attributes of each of attributes.example.com's 8 devices for the agent's memory "
                             "(capped at what the API server takes per device)")


def run(ctx):
    if not ctx.args.only or NAME not in ctx.args.only.split(","):
        return {"skipped": "runs only when named (--only node_mode): it starts 3 x N pods on the node"}
    return kube_node.run_on_node(ctx, measure, 3 if ctx.smoke else ctx.args.node_mode_n)


def measure(ctx, node, repo, n):
    image = node.import_sidecar_image()
    ns = "node-mode"
    node.apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": {
        "pod-security.kubernetes.io/enforce": "restricted"}}})
    wait(lambda: node.kubectl("get", "serviceaccount", "default", "-n", ns, check=False), 30)
    node.apply({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "shared", "namespace": ns},
                "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}}})
    out = {"n": n, "sidecar_image": image}
    out["baseline"] = variant(node, ns, n, "baseline", None)
    out["baseline_token"] = variant(node, ns, n, "baseline_token", None)

    node.apply_injection(image)
    wait(lambda: admitted_with(node, ns, image), 60)
    out["sidecars"] = variant(node, ns, n, "sidecar",
                              lambda pods: [node.container_id(ns, p, "dra-metadata-sidecar") for p in pods])
    node.kubectl("delete", "-k", os.path.join(repo, "deploy/kubernetes/injection"), "--ignore-not-found", "--wait=false")
    wait(lambda: not admitted_with(node, ns, "initContainers"), 60)

    agent = node_agent.deploy(node, repo, image, os.path.join(ctx.args.jdk25, "bin/jcmd"))
    wait(lambda: admitted_with(node, ns, "dra-metadata-token"), 60)
    # Before anything is counted: the first scrape binds the JVM's meters, one jcmd call starts its attach listener.
    out["agent_api_requests_at_start"] = node_agent.per_pod({}, agent.api_requests(), 1)[0]
    out["jcmd_attaches"] = agent.attach_once()
    out["agent"] = variant(node, ns, n, "agent", lambda pods: [agent.container_id], agent=agent)
    node.apply(node_mode_memory.claim(ns))
    rest_s = 3 if ctx.smoke else ctx.args.node_mode_rest_seconds
    out["derived"] = variant(node, ns, n, "derived", lambda pods: [agent.container_id], agent=agent,
                             while_up=lambda names: {
                                 "at_rest": node_mode_memory.at_rest(agent, rest_s),
                                 "memory": node_mode_memory.memory(node, agent, ns, names[0],
                                                                   ctx.args.node_mode_attributes,
                                                                   1 if ctx.smoke else 5, 1 if ctx.smoke else 3)})
    node.kubectl("delete", "-k", os.path.join(repo, "deploy/kubernetes/node"), "--ignore-not-found", "--wait=false")

    for name in ("sidecars", "agent", "derived"):
        out[name]["added_s_p50"] = round(out[name]["p50_s"] - out["baseline"]["p50_s"], 3)
        out[name]["added_s_p50_to_token"] = round(out[name]["p50_s"] - out["baseline_token"]["p50_s"], 3)
    out["memory_ratio_sidecars_to_agent"] = round(out["sidecars"]["memory_mib"] / out["agent"]["memory_mib"], 2)
    return out


def pod(name, ns, app_image, mode):
    """A pod of `mode`. Only baseline_token's pods mount their service account's token (a projected volume, as
    Kubernetes does by default); the agent's pods mount the one the node-mode injection adds: the kubelet looks at a
    pod's volumes every 300 ms until they are mounted, so the first volume costs a start about that much."""
    auth = f"-H \"Authorization: Bearer $(cat {TOKEN})\""
    file = "head -c 60 /var/run/kubernetes.io/dra-device-attributes/resourceclaims/shared/gpu/*-metadata.json"
    read = {"baseline": file, "baseline_token": file,
            "sidecar": "curl -fsS localhost:8089/claims/shared/gpu | head -c 60",
            "agent": f"curl -fsS {auth} \"$DRA_METADATA_URL/claims/shared/gpu\" | head -c 60",
            # The first line says how many tries the first answer took and where it came from (Metadata-Source).
            "derived": f"for i in $(seq 50); do h=$(curl -fsS -o /dev/null -D - {auth} "
                       f"\"$DRA_METADATA_URL/claims/{node_mode_memory.CLAIM}/gpus\") && break; sleep 0.1; done; "
                       f"echo \"tries=$i $(echo \"$h\" | grep -i ^metadata-source | tr -d '\\r')\""}[mode]
    claim = node_mode_memory.CLAIM if mode == "derived" else "shared"
    labels = {} if mode.startswith("baseline") else {"dra-metadata-sidecar.dra.dev/inject": "true"}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns, "labels": labels},
            "spec": {"automountServiceAccountToken": mode == "baseline_token", "terminationGracePeriodSeconds": 1,
                     "securityContext": {"runAsNonRoot": True, "runAsUser": 1001, "runAsGroup": 1001,
                                         "seccompProfile": {"type": "RuntimeDefault"}},
                     "resourceClaims": [{"name": "gpu", "resourceClaimName": claim}],
                     "containers": [{"name": "app", "image": app_image, "imagePullPolicy": "Never",
                                     "command": ["/bin/sh", "-c", f"{read}; echo; exec sleep 3600"],
                                     "resources": {"claims": [{"name": "gpu"}]},
                                     "securityContext": {"allowPrivilegeEscalation": False,
                                                         "capabilities": {"drop": ["ALL"]}}}]}}


def admitted_with(node, ns, text):
    out = node.kubectl("create", "--dry-run=server", "-o", "json", "-f", "-",
                       stdin=json.dumps(pod("probe", ns, node.env["app_image"], "agent")), check=False)
    return bool(out) and text in out


def variant(node, ns, n, mode, service_containers, agent=None, while_up=None):
    """Starts n pods one after another (each timed to its first line), measures the service with all running (and
    whatever `while_up` adds), deletes them. With `agent`, its API-server requests through the starts."""
    names = [f"{mode.replace('_', '-')}-{i}" for i in range(n)]
    # The agent runs before its pods: what it uses then is the baseline of its figures (a pod's sidecar has none).
    running = service_containers([]) if mode in SERVED_BY_AGENT else []
    before, memory_before = cpu_ns(node, running), memory_mib(node, running)
    calls_before = agent.api_requests() if agent else None
    waits_before = agent.address_waits() if agent else None
    lines = [start(node, ns, name, mode) for name in names]
    starts = [seconds for seconds, _, _ in lines]
    result = {"p50_s": round(median(starts), 3), "p90_s": round(percentile(starts, 90), 3),
              # Where the start goes: the POST to containerd creating the app container (the kubelet's work: the
              # sandbox, the volumes, a projected token's TokenRequest), then that to the app's first line (its read).
              "to_app_created_p50_s": round(median([c for _, _, c in lines]), 3),
              "app_created_to_first_line_p50_s": round(median([s - c for s, _, c in lines]), 3)}
    if agent:
        result["api_requests_per_pod"], not_ok = node_agent.per_pod(calls_before, agent.api_requests(), n)
        result["api_requests_per_pod_total"] = node_agent.total(result["api_requests_per_pod"])
        result["api_requests_not_ok"] = not_ok
        count, seconds = (after - before for after, before in zip(agent.address_waits(), waits_before))
        result["address_waits"] = {"requests": count, "mean_s": round(seconds / count, 3) if count else None}
    if mode == "derived":
        # "tries=<n> Metadata-Source: <source>": how many tries the first answer took, and where it came from.
        reads = [line.split(" ", 1) + [""] for _, line, _ in lines]
        result["first_read_tries"] = [int(r[0].removeprefix("tries=")) for r in reads]
        result["first_read_sources"] = sorted({r[1].split(":", 1)[-1].strip() for r in reads})
    if service_containers:
        ids = service_containers(names)
        result["memory_mib"] = memory_mib(node, ids)
        if mode in SERVED_BY_AGENT:
            result["memory_mib_before_pods"] = memory_before
            result["memory_kib_per_pod"] = round((result["memory_mib"] - memory_before) * 1024 / n, 1)
        result["cpu_s_through_starts"] = round((cpu_ns(node, ids) - before) / 1e9, 2)
        t0, used0 = time.monotonic(), cpu_ns(node, ids)
        time.sleep(IDLE_S)  # the idle window being measured, not a wait for an event
        result["idle_cpu_percent"] = round(100 * (cpu_ns(node, ids) - used0) / 1e9 / (time.monotonic() - t0), 3)
        result["containers"] = len(ids)
    if while_up:
        result.update(while_up(names))
    node.kubectl("delete", "pods", "-n", ns, "--all", "--grace-period=1", "--wait=true", timeout=180)
    return result


def start(node, ns, name, mode):
    """Creates the pod; (seconds from the POST to its app's first line, that line without its timestamp, seconds from
    the POST to containerd creating the app container)."""
    t0 = time.time()
    node.kubectl("create", "-f", "-", stdin=json.dumps(pod(name, ns, node.env["app_image"], mode)))
    out = app_log(node, ns, name)
    expected = "resource-api" in out if mode == "derived" else '"kind"' in out or "metadata" in out
    if not expected:
        raise RuntimeError(f"pod {name}: its first read failed: {out[:300]}")
    stamp, _, line = out.split("\n")[0].partition(" ")
    status = json.loads(node.kubectl("get", "pod", "-n", ns, name, "-o", "json"))["status"]
    app = next(s for s in status["containerStatuses"] if s["name"] == "app")
    return cri_time(stamp) - t0, line, created(node, app) - t0


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
    rows = [f"| node_mode: {r['n']} pods, {s['containers']} sidecars / 1 agent: memory, CPU through the starts, idle CPU | "
            f"{s['memory_mib']} / {a['memory_mib']} MiB (x{r['memory_ratio_sidecars_to_agent']}); "
            f"{s['cpu_s_through_starts']} / {a['cpu_s_through_starts']} s; {s['idle_cpu_percent']} / {a['idle_cpu_percent']} % | |",
            f"| node_mode: what each adds to a pod's start (p50 against the pods reading the file, {r['baseline']['p50_s']} s) | "
            f"sidecar {s['added_s_p50']} s, agent {a['added_s_p50']} s | |",
            f"| node_mode: what the agent adds to a pod's start against the same pods with their service account's "
            f"token mounted ({r['baseline_token']['p50_s']} s: a projected volume, as the agent's pods have one) | "
            f"{a['added_s_p50_to_token']} s | p50 <= 0.1 s ({'met' if a['added_s_p50_to_token'] <= 0.1 else '**missed**'}) |",
            f"| node_mode: the agent's first requests that waited for their pod's address (dra_node_address_wait_seconds) | "
            f"{a['address_waits']['requests']} of {r['n']} pods, {a['address_waits']['mean_s']} s each on average | |",
            f"| node_mode: the agent's memory before its pods / with them (change per pod; the heap's collections move "
            f"it too) | {a['memory_mib_before_pods']} / {a['memory_mib']} MiB ({a['memory_kib_per_pod']:+} KiB) | |"]
    d = r.get("derived")
    if not d:
        return rows
    rows += [f"| node_mode: the agent's API-server requests per pod start, by verb and resource ({r['n']} pods each; "
             f"the claim's driver writes files / the agent derives from the resource API) | "
             f"files {a['api_requests_per_pod_total']} ({calls(a['api_requests_per_pod'])}); "
             f"derived {d['api_requests_per_pod_total']} ({calls(d['api_requests_per_pod'])}) | |",
             f"| node_mode: the agent's API-server requests at rest, a minute ({d['at_rest']['window_s']} s with "
             f"{r['n']} derived pods up, no pod changes) | {d['at_rest']['per_minute']} a minute "
             f"({d['at_rest']['requests']} in the window) | |",
             f"| node_mode: what the agent adds to the start of a pod it serves derived metadata (p50 against the pods "
             f"reading the file; the first answer's tries, at most) | {d['added_s_p50']} s (files {a['added_s_p50']} s); "
             f"{max(d['first_read_tries'])} {'try' if max(d['first_read_tries']) == 1 else 'tries'} | |"]
    m = d.get("memory")
    if m:
        base, large = m["baseline"], m["large"]
        k = m["plan"]["attributes"]
        heap = (f"live heap {m['heap_mib'][0]} / {m['heap_mib'][1]} MiB (x{m['heap_ratio']}, "
                f"{m['heap_kib_per_device']:+} KiB a device, {m['heap_kib_per_slice']:+} KiB the slice)"
                if "heap_mib" in m else f"live heap n/a ({base['heap'].get('error', '')[:80]})")
        rows += [f"| node_mode: the agent's memory with attributes.example.com's 8 devices as the node starts them "
                 f"({base['attributes']} attributes) / rewritten to 8 x {k} ({large['attributes']}), the same "
                 f"{r['n']} pods and claim, after a full GC (the last of {len(m['rounds'])} alternations; the changes "
                 f"their median) | {heap}; cgroup rss {m['cgroup_rss_mib_after_gc'][0]} / "
                 f"{m['cgroup_rss_mib_after_gc'][1]} MiB ({m['cgroup_rss_kib_per_device']:+} KiB a device) | |"]
    return rows


def detail_lines(r):
    if "agent" not in r:
        return []
    lines = [f"- node_mode, pod start p50/p90: baseline {r['baseline']['p50_s']}/{r['baseline']['p90_s']} s, sidecars "
             f"{r['sidecars']['p50_s']}/{r['sidecars']['p90_s']} s, agent {r['agent']['p50_s']}/{r['agent']['p90_s']} s"
             + (f", agent serving derived metadata {r['derived']['p50_s']}/{r['derived']['p90_s']} s"
                if "derived" in r else "")
             + "; where it goes (p50): POST to the app container's creation / that to the app's first line: "
             + ", ".join(f"{name} {r[name]['to_app_created_p50_s']} / {r[name]['app_created_to_first_line_p50_s']} s"
                         for name in ("baseline", "baseline_token", "sidecars", "agent", "derived") if name in r)]
    d = r.get("derived")
    if not d:
        return lines
    lines += [f"- node_mode, the agent's API-server requests before its first pod (its start): "
              f"{calls(r['agent_api_requests_at_start'])}; not answered 2xx through the starts: files "
              f"{r['agent']['api_requests_not_ok'] or 'none'}, derived {d['api_requests_not_ok'] or 'none'}; "
              f"at rest, a minute by call: {calls(d['at_rest']['per_minute_by_call'])}",
              f"- node_mode, the derived pods' first answers: Metadata-Source {', '.join(d['first_read_sources'])}"]
    m = d.get("memory")
    if m:
        plan = m["plan"]
        lines += [f"- node_mode, memory: {plan['asked']} attributes a device asked, {plan['attributes']} published"
                  + (f" (the API server: {plan['capped_by']})" if plan["capped_by"] else "")
                  + ("; list-typed values published as lists" if plan["lists"] else
                     f"; list-typed values published as comma-joined strings (the API server: {plan['lists_refused']})")
                  + f"; republished on the API server in {m['large_republished_s']} s, served by the agent in "
                  f"{m['large_served_s']} s",
                  f"- node_mode, memory, each alternation's change a device: live heap "
                  f"{m.get('heap_kib_per_device_rounds', 'n/a')} KiB, cgroup rss {m['cgroup_rss_kib_per_device_rounds']} "
                  f"KiB; the JVM's filler arrays (not counted) baseline / large "
                  f"{m['baseline']['heap'].get('filler_bytes')} / {m['large']['heap'].get('filler_bytes')} bytes",
                  f"- node_mode, memory before the full GC (cgroup usage / rss): baseline "
                  f"{m['baseline']['cgroup_before_gc']['usage_mib']} / {m['baseline']['cgroup_before_gc']['rss_mib']} MiB, "
                  f"large {m['large']['cgroup_before_gc']['usage_mib']} / {m['large']['cgroup_before_gc']['rss_mib']} MiB; "
                  f"after it, usage {m['cgroup_usage_mib_after_gc'][0]} / {m['cgroup_usage_mib_after_gc'][1]} MiB"]
        if "heap_grown_by_class_kib" in m:
            lines += ["- node_mode, the live heap's change by class in the last alternation (KiB): "
                      + ", ".join(f"{c} {v:+}" for c, v in m["heap_grown_by_class_kib"].items())
                      + "; shrunk: " + (", ".join(f"{c} {v:+}" for c, v in m["heap_shrunk_by_class_kib"].items())
                                        or "none")
                      + f"; {m['heap_bytes_per_attribute_added']} bytes per attribute added (median)"]
    return lines
