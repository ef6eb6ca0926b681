"""Part soak: an injected pod on the real node of the tests (src/test/kube-node) for a long time (--soak-seconds,
30 minutes), its claim's host file rewritten in place --soak-writes-per-second times a second by a v0.36-style
writer (open with O_TRUNC, write, close: the same inode, readers can catch it half written), its app
(src/test/kube-node/app-answers.py) sending --soak-gets-per-second plain GETs a second and keeping
--soak-long-pollers long polls waiting (each answered at every change). What the app saw: every answer must be a
whole version that was written (the same body but for the generation, a generation that was written, never one
older than that client's last), nothing restarts, the sidecar's memory cgroup stays flat (the slope of its `rss`
over the last two thirds of the run: 20 of 30 minutes), and the largest delay from a write to its first answer.

Runs only when named (`--only soak`): a full run is bounded to 10 minutes and the soak holds the node for 30. To
end it early and still get its figures (over the shorter time, which the result says), create
<work>/soak-stop (bench/work/soak-stop).
Needs root, podman and the node's binaries (built by the *OnNodeIT tests), as pod_start does.
"""
import json
import os
import re
import threading
import time

from .. import kube_node
from ..metadata_files import write_in_place
from ..report import verdict

NAME = "soak"
NAMESPACE = "soak"
GENERATION = re.compile(rb'"generation":\s*\d+')
MEMORY_SAMPLE_S = 5


def add_arguments(parser):
    parser.add_argument("--soak-seconds", type=int, default=1800, help="how long the pod runs under writes and reads")
    parser.add_argument("--soak-writes-per-second", type=float, default=10)
    parser.add_argument("--soak-gets-per-second", type=float, default=50)
    parser.add_argument("--soak-long-pollers", type=int, default=5, help="long polls kept waiting at once")


def run(ctx):
    if not ctx.args.only or NAME not in ctx.args.only.split(","):
        return {"skipped": "runs only when named (--only soak): it holds the node for --soak-seconds"}
    return kube_node.run_on_node(ctx, measure)


def app_pod(node, repo, args):
    script = open(os.path.join(kube_node.scripts(repo), "app-answers.py")).read()
    path = f"/claims/gpu-claim/gpu/drivers/{node.env['driver']}"
    command = ["/usr/bin/python3", "-c", script, path, "/answers/answers", str(args.soak_gets_per_second),
               str(args.soak_long_pollers)]
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "soak", "namespace": NAMESPACE,
                         "labels": {"dra-metadata-sidecar.dra.dev/inject": "true"}},
            "spec": {"automountServiceAccountToken": False, "terminationGracePeriodSeconds": 2,
                     "securityContext": {"runAsNonRoot": True, "runAsUser": 1001, "runAsGroup": 1001,
                                         "seccompProfile": {"type": "RuntimeDefault"}},
                     "resourceClaims": [{"name": "gpu", "resourceClaimName": "gpu-claim"}],
                     "volumes": [{"name": "answers", "emptyDir": {}}],
                     "containers": [{"name": "app", "image": node.env["app_image"], "imagePullPolicy": "Never",
                                     "command": command, "resources": {"claims": [{"name": "gpu"}]},
                                     "volumeMounts": [{"name": "answers", "mountPath": "/answers"}],
                                     "securityContext": {"allowPrivilegeEscalation": False,
                                                         "capabilities": {"drop": ["ALL"]}}}]}}


def pod_json(node):
    return json.loads(node.kubectl("get", "pod", "-n", NAMESPACE, "soak", "-o", "json"))


def statuses(pod):
    status = pod.get("status", {})
    return {s["name"]: s for s in status.get("initContainerStatuses", []) + status.get("containerStatuses", [])}


def ready(pod):
    return any(c["type"] == "Ready" and c["status"] == "True" for c in pod.get("status", {}).get("conditions", []))


def start_pod(node, repo, args, image):
    node.apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE, "labels": {
        "pod-security.kubernetes.io/enforce": "restricted"}}})
    kube_node.wait(lambda: node.kubectl("get", "serviceaccount", "default", "-n", NAMESPACE, check=False), 30,
                   "the namespace's ServiceAccount")
    node.apply({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                "metadata": {"name": "gpu-claim", "namespace": NAMESPACE},
                "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}}})
    pod = json.dumps(app_pod(node, repo, args))
    # The policy reaches admission through an informer: a dry run shows when it injects `image`.
    kube_node.wait(lambda: image in [c["image"] for c in json.loads(node.kubectl(
        "create", "--dry-run=server", "-o", "json", "-f", "-", stdin=pod, check=False) or "{}").get("spec", {})
        .get("initContainers", [])], 60, "the injection policy in effect")
    node.kubectl("create", "-f", "-", stdin=pod)
    return kube_node.wait(lambda: (lambda p: p if ready(p) else None)(pod_json(node)), 120, "the soak pod Ready")


class Writer(threading.Thread):
    """Rewrites `path` in place every 1/rate s (a fixed schedule), each time the file's bytes with every
    generation one up; `written` holds (generation, ns after the write closed) for each."""

    def __init__(self, path, rate):
        super().__init__(daemon=True)
        self.path, self.period = path, 1.0 / rate
        self.template = open(path, "rb").read()
        first = GENERATION.search(self.template)
        self.generation = int(re.search(rb"\d+", first.group(0)).group(0))
        self.written = []
        self.stopping = threading.Event()
        self.error = None

    def run(self):
        next_at = time.monotonic()
        try:
            while not self.stopping.is_set():
                self.generation += 1
                data = GENERATION.sub(b'"generation": %d' % self.generation, self.template)
                write_in_place(self.path, data)
                self.written.append((self.generation, time.time_ns()))
                next_at += self.period
                self.stopping.wait(max(0.0, next_at - time.monotonic()))
        except Exception as e:  # reported in the result
            self.error = f"{type(e).__name__}: {e}"


def measure(ctx, node, repo):
    args = ctx.args
    image = node.import_sidecar_image()
    node.apply_injection(image)
    pod = start_pod(node, repo, args, image)
    uid = pod["metadata"]["uid"]
    answers = f"/var/lib/kubelet/pods/{uid}/volumes/kubernetes.io~empty-dir/answers/answers"
    host_file = os.path.join(node.env["plugin_dir"], "dra-device-metadata", f"{NAMESPACE}_gpu-claim", "gpu",
                             "metadata.json")
    kube_node.wait(lambda: os.path.exists(answers) and " 200 " in open(answers).read(), 60, "the app's first 200")
    sidecar = statuses(pod)["dra-metadata-sidecar"]
    sidecar_id = sidecar["containerID"]
    seconds = args.soak_seconds
    writer = Writer(host_file, args.soak_writes_per_second)
    memory = []
    t0, since_ns = time.monotonic(), time.time_ns()
    writer.start()
    stop = os.path.join(ctx.work, "soak-stop")
    while time.monotonic() - t0 < seconds and writer.is_alive() and not os.path.exists(stop):
        memory.append((time.monotonic() - t0, node.cgroup_rss_bytes(sidecar_id)))
        time.sleep(min(MEMORY_SAMPLE_S, max(0.0, seconds - (time.monotonic() - t0))))
    writer.stopping.set()
    writer.join(10)
    memory.append((time.monotonic() - t0, node.cgroup_rss_bytes(sidecar_id)))
    last = writer.written[-1][1]
    kube_node.wait(lambda: any(int(line.split()[2]) > last for line in open(answers).read().splitlines()[-50:]
                               if len(line.split()) == 6), 30, "the app's answers after the last write")
    end = pod_json(node)
    restarts = sum(s.get("restartCount", 0) for s in statuses(end).values())
    out = analyse(open(answers).read(), writer.written, writer.generation - len(writer.written), since_ns)
    out.update({
        "duration_s": round(memory[-1][0], 1), "stopped_early": os.path.exists(stop),
        "restarts": restarts,
        "rss_slope_mib_per_hour": slope_mib_per_hour(memory, memory[-1][0] / 3),
        "rss_mib_first_last_max": [round(memory[0][1] / 2**20, 1), round(memory[-1][1] / 2**20, 1),
                                   round(max(m for _, m in memory) / 2**20, 1)],
        "writes": len(writer.written), "writer_error": writer.error,
        "gets_per_second_achieved": round(out["answers_by_kind"]["get"] / max(1e-9, memory[-1][0]), 1),
        "pod_ready_at_end": ready(end), "sidecar_image": image,
        "settings": {"writes_per_second": args.soak_writes_per_second, "gets_per_second": args.soak_gets_per_second,
                     "long_pollers": args.soak_long_pollers, "memory_sample_s": MEMORY_SAMPLE_S},
    })
    out["met"] = (out["wrong_answers"] == 0 and out["restarts"] == 0 and out["not_200"] == 0
                  and out["generations_never_served"] == 0)
    return out


def analyse(text, written, first_generation, since_ns):
    """What the app saw (app-answers.py's lines, those sent at or after `since_ns`) against what was written: wrong answers (a 200 whose body is not
    the file's but for its generation, whose generation was never written, or older than that client's last),
    answers that are not 200, and per generation the delay from its write to its first answer (of that
    generation or a later one)."""
    lines = [f for f in (line.split() for line in text.splitlines()) if len(f) == 6 and int(f[1]) >= since_ns]
    ok = [l for l in lines if l[3] == "200"]
    digests = {}
    for l in ok:
        digests[l[5]] = digests.get(l[5], 0) + 1
    reference = max(digests, key=digests.get)
    generations = {g for g, _ in written} | {first_generation}
    wrong, last_by_kind, not_200 = [], {}, [l for l in lines if l[3] != "200"]
    for l in ok:
        kind, generation = l[0], int(l[4])
        if l[5] != reference or generation not in generations or generation < last_by_kind.get(kind, 0):
            wrong.append(" ".join(l))
        last_by_kind[kind] = max(generation, last_by_kind.get(kind, 0))
    delays = {"get": {}, "poll": {}}
    for kind, by_generation in delays.items():
        answered = sorted((int(l[4]), int(l[2])) for l in ok if l[0].startswith(kind))
        served, best = [], None
        for generation, at in reversed(answered):   # the first answer of each generation or a later one
            best = at if best is None else min(best, at)
            served.append((generation, best))
        served.reverse()
        i = 0
        for generation, written_at in written:
            while i < len(served) and served[i][0] < generation:
                i += 1
            if i < len(served):
                by_generation[generation] = (served[i][1] - written_at) / 1e6
    first = [min(d[g] for d in delays.values() if g in d) for g, _ in written if any(g in d for d in delays.values())]
    unserved = sum(1 for g, _ in written if not any(g in d for d in delays.values()))
    return {"answers": len(lines), "answers_by_kind": {k: sum(1 for l in lines if l[0].startswith(k)) for k in delays},
            "wrong_answers": len(wrong), "wrong_examples": wrong[:5], "not_200": len(not_200),
            "not_200_examples": [" ".join(l) for l in not_200[:5]],
            "max_delay_ms": round(max(first), 1) if first else None, "generations_never_served": unserved,
            "max_delay_ms_by_kind": {k: round(max(v.values()), 1) if v else None for k, v in delays.items()},
            "p50_delay_ms_by_kind": {k: round(sorted(v.values())[len(v) // 2], 1) if v else None
                                     for k, v in delays.items()}}


def slope_mib_per_hour(samples, from_s):
    """Least-squares slope of the samples (seconds, bytes) taken at or after `from_s`, in MiB per hour."""
    tail = [(t, b / 2**20) for t, b in samples if t >= from_s]
    if len(tail) < 2:
        return None
    n = len(tail)
    mean_t = sum(t for t, _ in tail) / n
    mean_m = sum(m for _, m in tail) / n
    var = sum((t - mean_t) ** 2 for t, _ in tail)
    return round(sum((t - mean_t) * (m - mean_m) for t, m in tail) / var * 3600, 2) if var else None


def summary_rows(r):
    if "skipped" in r:
        return [f"| soak | skipped: {r['skipped']} | |"]
    if "wrong_answers" not in r:
        return []
    s = r["settings"]
    return [f"| soak: {r['duration_s']} s of in-place rewrites ({s['writes_per_second']:g}/s), {s['gets_per_second']:g}"
            f" GETs/s and {s['long_pollers']} long polls: wrong answers, restarts, rss slope, max delay | "
            f"{r['wrong_answers']} wrong, {r['not_200']} not 200, {r['restarts']} restarts, "
            f"{r['rss_slope_mib_per_hour']} MiB/h, {r['max_delay_ms']} ms | none wrong, no restart "
            f"({verdict(r['met'])}) |"]


def detail_lines(r):
    if "answers_by_kind" not in r:
        return []
    return [f"- soak: {r['answers']} answers ({r['answers_by_kind']}), {r['writes']} writes; delay from a write to its"
            f" first answer, max {r['max_delay_ms_by_kind']} ms, p50 {r['p50_delay_ms_by_kind']} ms; the sidecar's"
            f" cgroup rss first / last / max {r['rss_mib_first_last_max']} MiB, slope over the last two thirds"
            f" {r['rss_slope_mib_per_hour']} MiB/h"]
