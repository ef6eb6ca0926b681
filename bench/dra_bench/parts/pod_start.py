"""Part pod_start: what a pod pays for the sidecar, on the real node of the tests (src/test/kube-node: kubelet,
containerd, the upstream DRA test driver). From just before the pod's POST to its app container's first log
line (CRI timestamps; one clock, one machine), for N pods whose sidecar the shipped injection policy
(deploy/kubernetes/injection) adds and the same N pods without it, whose app reads the file itself; alternating
in one run. The added time is split into parts from the sidecar's log and containerd's creation times. Then one
more pod with the sidecar stays up: the sidecar container's own cgroup gives its memory at rest (memory.stat rss)
and its idle CPU (cpuacct.usage over an idle window), beside the same figures of the pod's app container (a shell
asleep) in the same window.

Needs root, podman and the node's binaries (built by the *OnNodeIT tests; the part is skipped, saying so, when
they are not in the cache yet).
"""
import json
import re
import time
from datetime import datetime

from ..report import verdict
from ..stats import median, percentile
from .. import kube_node
from . import image

NAME = "pod_start"
TARGET_ADDED_P50_S = 0.8
TARGET_ADDED_P90_S = 1.0
# The image part's targets for the same container (bench/README.md), here from the pod on the node.
TARGET_RSS_MIB = image.RSS_AT_REST_MIB
TARGET_IDLE_CPU_PERCENT = image.IDLE_PCT
# After the app's first line, before the idle window: the start's last work (JIT, the first full GC) ends.
SETTLE_S = 10
FILE = "/var/run/kubernetes.io/dra-device-attributes/resourceclaimtemplates/gpu/gpu"


def add_arguments(parser):
    parser.add_argument("--pod-start-n", type=int, default=20, help="pods with and pods without the sidecar (each)")
    parser.add_argument("--pod-idle-seconds", type=int, default=60,
                        help="idle window of the pod left up for the sidecar's memory and idle CPU")


def run(ctx):
    if ctx.smoke and (not ctx.args.only or NAME not in ctx.args.only.split(",")):
        return {"skipped": "a smoke run measures it only when named (--only pod_start): the node's pods are the "
                           "*OnNodeIT tests' to check"}
    return kube_node.run_on_node(ctx, measure, 2 if ctx.smoke else ctx.args.pod_start_n)


def measure(ctx, node, repo, n):
    image = node.import_sidecar_image()
    node.apply_injection(image)
    ns = "pod-start"
    node.apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": {
        "pod-security.kubernetes.io/enforce": "restricted"}}})
    wait(lambda: node.kubectl("get", "serviceaccount", "default", "-n", ns, check=False), 30)
    node.apply({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                "metadata": {"name": "gpu-template", "namespace": ns},
                "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
                    "deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": 1}}]}}}})
    # The policy reaches admission through an informer: one pod is created and thrown away until it gets the image.
    wait(lambda: injected(node, ns, node.env["app_image"], image), 60)

    runs = {"with_sidecar": [], "without": []}
    for i in range(n):
        order = ("with_sidecar", "without") if i % 2 == 0 else ("without", "with_sidecar")
        for variant in order:
            runs[variant].append(one_pod(node, ns, f"{variant.replace('_', '-')}-{i}", variant == "with_sidecar"))
    out = {"n": n, "node_start_to_usable_s": node.start_to_usable_s, "sidecar_image": image}
    for variant, results in runs.items():
        totals = [r["first_line_s"] for r in results]
        out[variant] = {"p50_s": round(median(totals), 3), "p90_s": round(percentile(totals, 90), 3),
                        "all_s": [round(x, 3) for x in totals]}
    out["added_s_p50"] = round(out["with_sidecar"]["p50_s"] - out["without"]["p50_s"], 3)
    out["added_s_p90"] = round(out["with_sidecar"]["p90_s"] - out["without"]["p90_s"], 3)
    parts = {}
    for key in runs["with_sidecar"][0]["parts_s"]:
        parts[key] = round(median([r["parts_s"][key] for r in runs["with_sidecar"]]), 3)
    out["parts_p50_s"] = parts
    out["without"]["pod_to_app_created_p50_s"] = round(median([r["app_created_s"] for r in runs["without"]]), 3)
    out["parts"] = {
        "pod_to_sidecar_created": "POST to containerd creating the sidecar container (sandbox, volumes, CDI mounts)",
        "sidecar_created_to_jvm_start": "the container's start and the JVM's, to where Quarkus starts counting",
        "quarkus_start": "Quarkus' own 'started in': the application, the first scan, both HTTP servers",
        "started_line_to_app_created": "the postStart hook seeing the sidecar started, then kubelet's sync creating the app container",
        "app_created_to_first_line": "the app container's start and its first read"}
    out["target"] = f"added p50 <= {TARGET_ADDED_P50_S} s, p90 <= {TARGET_ADDED_P90_S} s"
    out["met"] = out["added_s_p50"] <= TARGET_ADDED_P50_S and out["added_s_p90"] <= TARGET_ADDED_P90_S
    out["at_rest"] = at_rest(node, ns, 3 if ctx.smoke else ctx.args.pod_idle_seconds)
    return out


def at_rest(node, ns, idle_s):
    """One pod with the sidecar, left up: each container's cgroup rss and CPU over `idle_s` after SETTLE_S."""
    name = "at-rest"
    node.kubectl("create", "-f", "-", stdin=json.dumps(pod(name, ns, node.env["app_image"], True)))
    app_log(node, ns, name)
    time.sleep(SETTLE_S)
    ids = {"sidecar": node.container_id(ns, name, "dra-metadata-sidecar"), "app": node.container_id(ns, name, "app")}
    cpu0 = {k: node.cgroup_value(i, "cpuacct", "cpuacct.usage") for k, i in ids.items()}
    t0 = time.monotonic()
    time.sleep(idle_s)
    cpu1 = {k: node.cgroup_value(i, "cpuacct", "cpuacct.usage") for k, i in ids.items()}
    window = time.monotonic() - t0
    out = {"idle_window_s": round(window, 1), "settle_s": SETTLE_S}
    for key, cid in ids.items():
        out[key] = {"rss_mib": round(node.cgroup_rss_bytes(cid) / 2**20, 1),
                    "idle_cpu_percent": round(100 * (cpu1[key] - cpu0[key]) / 1e9 / window, 3)}
    out["rss_met"] = out["sidecar"]["rss_mib"] <= TARGET_RSS_MIB
    out["idle_cpu_met"] = out["sidecar"]["idle_cpu_percent"] <= TARGET_IDLE_CPU_PERCENT
    node.kubectl("delete", "pod", "-n", ns, name, "--grace-period=1", "--wait=true", timeout=120)
    return out


def wait(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise RuntimeError(f"not reached within {seconds} s")


def pod(name, ns, app_image, with_sidecar):
    if with_sidecar:
        read = "curl -fsS localhost:8089/template-claims/gpu/gpu | head -c 60"
    else:
        read = f"head -c 60 {FILE}/*-metadata.json"
    labels = {"dra-metadata-sidecar.dra.dev/inject": "true"} if with_sidecar else {}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns, "labels": labels},
            "spec": {"automountServiceAccountToken": False, "terminationGracePeriodSeconds": 1,
                     "securityContext": {"runAsNonRoot": True, "runAsUser": 1001, "runAsGroup": 1001,
                                         "seccompProfile": {"type": "RuntimeDefault"}},
                     "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "gpu-template"}],
                     "containers": [{"name": "app", "image": app_image, "imagePullPolicy": "Never",
                                     "command": ["/bin/sh", "-c", f"{read}; echo; exec sleep 3600"],
                                     "resources": {"claims": [{"name": "gpu"}]},
                                     "securityContext": {"allowPrivilegeEscalation": False,
                                                         "capabilities": {"drop": ["ALL"]}}}]}}


def injected(node, ns, app_image, image):
    out = node.kubectl("create", "--dry-run=server", "-o", "json", "-f", "-",
                       stdin=json.dumps(pod("probe", ns, app_image, True)), check=False)
    return bool(out) and image in [c["image"] for c in json.loads(out)["spec"].get("initContainers", [])]


def cri_time(text):
    """A CRI log timestamp (RFC 3339 with nanoseconds) as seconds since the epoch."""
    stamp = re.match(r"(\S+?)(\.\d+)?Z", text)
    base = datetime.fromisoformat(stamp.group(1) + "+00:00").timestamp()
    return base + float(stamp.group(2) or 0)


def created(node, status):
    info = json.loads(node.ctr("containers", "info", status["containerID"].removeprefix("containerd://")))
    return cri_time(info["CreatedAt"])


def app_log(node, ns, name):
    """The app container's log (with CRI timestamps) once it has its first line. Waits on one watch (kubectl wait)
    until the pod is Ready, which it is once the app runs, then reads the log: a kubectl started every few
    milliseconds takes 0.05-0.1 s of CPU each, most of a core of this 2-core machine away from the start being
    measured. A line's time is the log's own, not when it is seen."""
    node.kubectl("wait", "--for=condition=Ready", "-n", ns, f"pod/{name}", "--timeout=120s", timeout=130)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        out = node.kubectl("logs", "--timestamps", "-n", ns, name, "-c", "app", check=False)
        if out.strip():
            return out
        time.sleep(0.1)
    raise RuntimeError(f"pod {name}: Ready, but no app output within 30 s")


def one_pod(node, ns, name, with_sidecar):
    t0 = time.time()
    node.kubectl("create", "-f", "-", stdin=json.dumps(pod(name, ns, node.env["app_image"], with_sidecar)))
    first = cri_time(app_log(node, ns, name).split()[0])
    result = {"first_line_s": first - t0}
    status = json.loads(node.kubectl("get", "pod", "-n", ns, name, "-o", "json"))["status"]
    if not with_sidecar:
        result["app_created_s"] = created(node, next(s for s in status["containerStatuses"] if s["name"] == "app")) - t0
    if with_sidecar:
        sidecar = next(s for s in status["initContainerStatuses"] if s["name"] == "dra-metadata-sidecar")
        app = next(s for s in status["containerStatuses"] if s["name"] == "app")
        log = node.kubectl("logs", "--timestamps", "-n", ns, name, "-c", "dra-metadata-sidecar")
        line = next(line for line in log.splitlines() if "started in" in line)
        started_line = cri_time(line)
        quarkus_start = float(re.search(r"started in ([0-9.]+)s", line).group(1))
        sidecar_created, app_created = created(node, sidecar), created(node, app)
        result["parts_s"] = {"pod_to_sidecar_created": sidecar_created - t0,
                             "sidecar_created_to_jvm_start": started_line - quarkus_start - sidecar_created,
                             "quarkus_start": quarkus_start,
                             "started_line_to_app_created": app_created - started_line,
                             "app_created_to_first_line": first - app_created}
    node.kubectl("delete", "pod", "-n", ns, name, "--grace-period=1", "--wait=true", timeout=120)
    return result


def summary_rows(r):
    if "skipped" in r:
        return [f"| pod_start | skipped: {r['skipped']} | |"]
    if "added_s_p50" not in r:
        return []
    rows = [f"| pod_start: pod create to the app's first line, with / without the sidecar (p50; N = {r['n']} each) | "
            f"{r['with_sidecar']['p50_s']} s / {r['without']['p50_s']} s: adds {r['added_s_p50']} s "
            f"(p90 {r['added_s_p90']} s) | {r['target']} ({verdict(r['met'])}) |"]
    rest = r.get("at_rest")
    if rest:
        s, a = rest["sidecar"], rest["app"]
        rows += [f"| pod_start: the sidecar container's cgroup rss at rest / the app container's (same pod, same time) | "
                 f"{s['rss_mib']} / {a['rss_mib']} MiB | <= {TARGET_RSS_MIB} MiB ({verdict(rest['rss_met'])}) |",
                 f"| pod_start: idle CPU of the sidecar container's cgroup / the app container's, % of one core "
                 f"({rest['idle_window_s']} s window) | {s['idle_cpu_percent']} / {a['idle_cpu_percent']} % | "
                 f"<= {TARGET_IDLE_CPU_PERCENT} % ({verdict(rest['idle_cpu_met'])}) |"]
    return rows


def detail_lines(r):
    if "parts_p50_s" not in r:
        return []
    return [f"- pod_start, where the sidecar pod's time goes (p50): "
            + "; ".join(f"{k} {v} s ({r['parts'][k]})" for k, v in r["parts_p50_s"].items())
            + f"; without the sidecar, POST to containerd creating the app container: "
              f"{r['without']['pod_to_app_created_p50_s']} s"]
