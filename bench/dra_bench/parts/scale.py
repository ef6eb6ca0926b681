"""Part scale: the initial scan of a tree of many files, RSS, idle CPU and CPU per refresh cycle on it."""
import json
import os
import re
import subprocess
import time
from collections import Counter

from .. import http_client
from ..context import log
from ..metadata_files import make_tree, one_claim_tree
from ..processes import idle_cpu, rss_kib
from ..report import verdict
from ..sidecar import initial_scan_seconds, quarkus_started_in, watch_mode

NAME = "scale"
REQUESTS_PER_CLAIM = 10
POD_SIZED_HEAP = "pod-sized heap"


def add_arguments(parser):
    parser.add_argument("--scale-claims", type=int, default=1000)
    parser.add_argument("--scale-timeout", type=float, default=45.0,
                        help="seconds the sidecar gets to start on the big tree before it counts as failed")
    parser.add_argument("--poll-interval-ms", type=float, default=10000.0,
                        help="for the CPU per refresh cycle: dra.metadata.safety-poll-interval, the default mode's")


def run(ctx):
    a = ctx.args
    claims = 100 if ctx.smoke else a.scale_claims
    idle_seconds = 3 if ctx.smoke else a.idle_seconds
    root = os.path.join(ctx.work, "tree-scale")
    t0 = time.monotonic()
    make_tree(root, [f"claim-{i:04d}" for i in range(claims)], [f"req-{j}" for j in range(REQUESTS_PER_CLAIM)])
    written_s = time.monotonic() - t0
    files = claims * REQUESTS_PER_CLAIM
    baseline_root = one_claim_tree(ctx.work)
    res = {"files": files, "claims": claims, "requests_per_claim": REQUESTS_PER_CLAIM,
           "tree_written_s": round(written_s, 2)}
    sidecar, port, management_port, baseline_s, big_s = _start_on_big_tree(ctx, root, baseline_root, res)
    if sidecar is None:
        raise RuntimeError(f"the sidecar did not start on {files} files: {res['failed_attempts']}")
    rss_started = rss_kib(sidecar.pid)
    status, _, body = http_client.get(port, "/claims", timeout=30)
    listed = len(json.loads(body).get("claims", [])) if status == 200 else None
    sample_status, _, _ = http_client.get(port, f"/claims/claim-{claims // 2:04d}/req-3")
    memory_bound = _memory_bound(management_port)
    live_heap = _live_heap_mib(ctx.jdk17, sidecar.pid)  # before the GETs: their encodings are kept until needed
    served = _statuses(port, claims)
    watch = watch_mode(management_port)
    idle = idle_cpu(sidecar.pid, idle_seconds)
    rss_idle = rss_kib(sidecar.pid)
    scan_from_log = initial_scan_seconds(sidecar.logpath)
    ctx.procs.stop(sidecar)
    poll_s = a.poll_interval_ms / 1000.0
    res.update({
        "started_s_one_file_tree": round(baseline_s, 3), "started_s_big_tree": round(big_s, 3),
        # the store's own log is the better figure: one start minus another is at the mercy of the load
        "scan_s": scan_from_log if scan_from_log is not None else round(big_s - baseline_s, 3),
        "scan_s_start_difference": round(big_s - baseline_s, 3), "scan_s_from_log": scan_from_log,
        "quarkus_started_in_s": quarkus_started_in(sidecar.logpath),
        "claims_listed": listed, "sample_get_status": sample_status,
        "memory_bound": memory_bound, "get_statuses": served, "live_heap_after_full_gc_mib": live_heap,
        "rss_after_start_mib": _mib(rss_started),
        "rss_idle_mib": _mib(rss_idle),
        "idle_cpu": idle, "watch_mode": watch, "idle_target": "<= 0.5 % of one core",
        "refresh_cycle_cpu_ms": round(idle["cpu_s"] / idle["seconds"] * poll_s * 1000, 3),
        "refresh_cycle_note": f"idle CPU seconds per second x poll interval {a.poll_interval_ms} ms",
    })
    log(f"scale: {files} files, scan {res['scan_s']} s (store log {scan_from_log} s), RSS {res['rss_idle_mib']} MiB, "
        f"idle CPU {idle['pct_of_one_core']} % ({res['heap']})")
    res["target"] = "scan <= 2 s"
    res["met"] = (res["scan_s"] <= 2.0 and listed == claims and res["heap"] == POD_SIZED_HEAP
                  and served == {"200": files})
    return res


def _memory_bound(management_port):
    """The readiness check's memory-bound entry: files held, refused and untracked, the estimate and the bound."""
    status, _, body = http_client.get(management_port, "/q/health/ready")
    for check in json.loads(body).get("checks", []) if body else []:
        if "memory-bound" in check.get("data", {}):
            return check["data"]["memory-bound"]
    return None


def _statuses(port, claims):
    """How many requests of the tree a GET answers with each status."""
    client = http_client.KeepAliveClient(port, timeout=30)
    counts = Counter()
    try:
        for c in range(claims):
            for r in range(REQUESTS_PER_CLAIM):
                counts[str(client.get(f"/claims/claim-{c:04d}/req-{r}")[0])] += 1
    finally:
        client.close()
    return dict(counts)


def _live_heap_mib(jdk, pid):
    """The heap its objects take after a full GC (jcmd's class histogram forces one); None if jcmd cannot attach."""
    try:
        out = subprocess.run([os.path.join(jdk, "bin/jcmd"), str(pid), "GC.class_histogram"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"^Total\s+\d+\s+(\d+)", out, re.M)
    return round(int(m.group(1)) / 1048576, 1) if m else None


def _mib(kib):
    return round(kib / 1024, 1) if kib else None


def _start_on_big_tree(ctx, root, baseline_root, res):
    """Starts a sidecar on the one-file tree (the baseline start time) and then one on the big tree, first with
    the pod-sized heap and, if that one does not get up, with a heap sized for a 1 GiB pod. Records the heap used
    in res["heap"] and each failed attempt in res["failed_attempts"]; returns (process or None, API port,
    management port, baseline seconds, big-tree seconds)."""
    attempts = [(POD_SIZED_HEAP, ctx.jvm_opts)]
    if any(o.startswith("-XX:MaxRAM=") for o in ctx.jvm_opts):
        attempts.append(("heap sized for a 1 GiB pod (-XX:MaxRAM=1g)",
                         [o for o in ctx.jvm_opts if not o.startswith("-XX:MaxRAM=")] + ["-XX:MaxRAM=1g"]))
    for label, opts in attempts:
        baseline, _, _, baseline_s = ctx.sidecars.start("scale-baseline", ctx.jdk17, baseline_root, opts=opts)
        ctx.procs.stop(baseline)
        try:
            sidecar, port, management_port, big_s = ctx.sidecars.start("scale", ctx.jdk17, root, opts=opts,
                                                                       timeout=ctx.args.scale_timeout)
            res["heap"] = label
            return sidecar, port, management_port, baseline_s, big_s
        except RuntimeError as e:
            text = open(ctx.sidecars.last_log("scale"), errors="replace").read()
            res.setdefault("failed_attempts", []).append({
                "heap": label, "options": opts,
                "error": str(e).splitlines()[0][:200],
                "out_of_memory": "OutOfMemoryError" in text,
                "files_decoded_in_log": len(re.findall(r": generation \S+ \(", text)),
            })
            log(f"scale: not started with {label}: {str(e).splitlines()[0][:120]}; OOM in log: "
                f"{'OutOfMemoryError' in text}")
    return None, None, None, None, None


def summary_rows(sc):
    if "scan_s" not in sc:
        return []
    rows = []
    for f in sc.get("failed_attempts", []):
        rows += [f"| scale: {sc['files']} files with {f['heap']} | **did not start**: {f['error']}; OutOfMemoryError {f['out_of_memory']}; {f['files_decoded_in_log']} files decoded | |"]
    rows += [f"| scale: initial scan of {sc['files']} files, {sc['heap']} (store log; start-time difference) | {sc.get('scan_s_from_log')} s; {sc.get('scan_s_start_difference')} s | <= 2 s ({verdict(sc['met'])}) |",
             f"| scale: {sc['files']} files, {sc['heap']}: held (readiness) / GET answers / live heap after a full GC before the GETs | {sc.get('memory_bound')} / {sc.get('get_statuses')} / {sc.get('live_heap_after_full_gc_mib')} MiB | every file served ({verdict(sc.get('get_statuses') == {'200': sc['files']})}) |",
             f"| scale: RSS after start / idle | {sc['rss_after_start_mib']} / {sc['rss_idle_mib']} MiB | |",
             f"| scale: idle CPU / one refresh cycle, watch mode {sc.get('watch_mode')} | {sc['idle_cpu']['pct_of_one_core']} % of one core / {sc['refresh_cycle_cpu_ms']} ms CPU | <= 1 % ({verdict(sc['idle_cpu']['pct_of_one_core'] <= 1)}) |"]
    return rows


def detail_lines(sc):
    return []
