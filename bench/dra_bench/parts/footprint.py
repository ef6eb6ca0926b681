"""Part footprint: seconds from process start to /q/health/started UP, and RSS after warm-up and under load,
for JDK 17, Temurin 25 and Temurin 25 with a JDK AOT cache (full runs; smoke runs measure JDK 17 only)."""
import os
import time

from .. import http_client
from ..context import log
from ..metadata_files import ONE_CLAIM_PATH, one_claim_tree
from ..processes import peak_rss_kib, rss_kib, tail
from ..report import verdict
from ..sidecar import quarkus_started_in
from ..stats import median, rounded
from ..wrk import run_wrk

NAME = "footprint"


def add_arguments(parser):
    parser.add_argument("--start-reps", type=int, default=3)


def run(ctx):
    reps = 1 if ctx.smoke else ctx.args.start_reps
    root = one_claim_tree(ctx.work)
    out = {"jvm_options": ctx.jvm_opts, "jvm_options_source": ctx.sidecars.jvm_opts_source, "configs": {}}
    configs = _configurations(ctx, root, out)
    data = {name: {"starts": [], "quarkus": []} for name, _, _ in configs}
    # the configurations alternate start by start, so that a change in the machine's load hits all alike
    for i in range(reps):
        for name, jdk, extra in configs:
            d = data[name]
            sidecar, port, _, started = ctx.sidecars.start(f"footprint-{name}", jdk, root, extra=extra)
            d["starts"].append(started)
            d["quarkus"].append(quarkus_started_in(sidecar.logpath))
            if i == reps - 1:
                d.update(_memory_under_load(ctx, sidecar, port, name))
            ctx.procs.stop(sidecar)
    for name, jdk, extra in configs:
        d = data[name]
        starts = d["starts"]
        out["configs"][name] = c = {
            "jdk": jdk, "extra_options": extra, "starts_s": [round(x, 3) for x in starts],
            "started_s_median": round(median(starts), 3), "started_s_min": round(min(starts), 3),
            "quarkus_started_in_s": d["quarkus"],
            "rss_after_warmup_mib": rounded(d["rss_w"] / 1024 if d.get("rss_w") else None),
            "rss_under_load_mib": rounded(d["rss_l"] / 1024 if d.get("rss_l") else None),
            "vmhwm_mib": rounded(d["hwm"] / 1024 if d.get("hwm") else None),
            "rps_during_load": rounded(d.get("rps")),
        }
        log(f"footprint {name}: started {c['started_s_median']} s (min {c['started_s_min']}), "
            f"RSS warm {c['rss_after_warmup_mib']} MiB, under load {c['rss_under_load_mib']} MiB")
    j17 = out["configs"].get("jdk17", {})
    out["target"] = "started <= 0.8 s; RSS <= 96 MiB after warm-up, <= 128 MiB under load"
    out["met_jdk17"] = bool(j17) and j17["started_s_median"] <= 0.8 and (j17["rss_after_warmup_mib"] or 1e9) <= 96 \
        and (j17["rss_under_load_mib"] or 1e9) <= 128
    return out


def _configurations(ctx, root, out):
    """[name, JDK home, extra JVM options] to measure: JDK 17; in full runs with Temurin 25 present, Temurin 25
    and Temurin 25 with an AOT cache (skipped, saying why, in `out` when its training run writes none)."""
    configs = [["jdk17", ctx.jdk17, []]]
    if ctx.smoke:
        return configs  # JDK 17 only: the smoke run stays within a minute
    if not os.path.isfile(os.path.join(ctx.jdk25, "bin/java")):
        ctx.notes.append(f"no JDK at {ctx.jdk25}: Temurin 25 footprint skipped")
        return configs
    configs.append(["temurin25", ctx.jdk25, []])
    # -XX:AOTMode=on makes the JVM fail instead of silently starting without an unusable cache
    aot = os.path.join(ctx.work, "app.aot")
    extra, note = aot_training(ctx, ctx.jdk25, root, aot)
    if extra is None:
        out["configs"]["temurin25-aot"] = {"skipped": note}
    else:
        configs.append(["temurin25-aot", ctx.jdk25, extra + ["-XX:AOTMode=on"]])
        out["aot"] = note
    return configs


def _memory_under_load(ctx, sidecar, port, name):
    """RSS after a wrk warm-up and a pause, the highest RSS during a further wrk load, VmHWM and that load's rps."""
    warmup = 2 if ctx.smoke else 5
    load = 2 if ctx.smoke else 5
    status, _, _ = http_client.get(port, ONE_CLAIM_PATH)
    if status != 200:
        raise RuntimeError(f"{name}: GET {ONE_CLAIM_PATH} -> {status}")
    run_wrk(ctx, port, ONE_CLAIM_PATH, warmup)
    time.sleep(1.0 if ctx.smoke else 2.0)
    figures = {"rss_w": rss_kib(sidecar.pid)}
    w = run_wrk(ctx, port, ONE_CLAIM_PATH, load, sample_pid=sidecar.pid)
    figures.update(rss_l=w.get("rss_max_kib"), hwm=peak_rss_kib(sidecar.pid), rps=w.get("rps"))
    return figures


def aot_training(ctx, jdk, root, aot):
    """A training run with -XX:AOTCacheOutput (the JDK's one-step AOT cache workflow) that serves real requests
    and 3 s of load; returns (options that use the cache, description) or (None, why there is no cache)."""
    if os.path.exists(aot):
        os.remove(aot)
    t0 = time.monotonic()
    sidecar, port, mgmt_port, _ = ctx.sidecars.start("aot-training", jdk, root, extra=[f"-XX:AOTCacheOutput={aot}"])
    for path in (ONE_CLAIM_PATH, "/claims", "/claims/gpu-claim", "/claims/gpu-claim/gpu/drivers/gpu.example.com",
                 "/claims/nope/x"):
        http_client.get(port, path)
    for path in ("/q/health/ready", "/q/health/live", "/q/metrics"):
        http_client.get(mgmt_port, path)
    run_wrk(ctx, port, ONE_CLAIM_PATH, 3)
    ctx.procs.stop(sidecar, grace=120.0)  # the JVM writes the cache at exit
    took = time.monotonic() - t0
    if not os.path.isfile(aot):
        return None, f"training run wrote no AOT cache; log {sidecar.logpath}: {tail(sidecar.logpath, 5)}"
    size = os.path.getsize(aot)
    log(f"AOT cache: {size / 1048576:.1f} MiB from a {took:.1f}s training run")
    return [f"-XX:AOTCache={aot}"], (f"-XX:AOTCacheOutput training run ({took:.1f} s incl. 3 s of wrk load), "
                                      f"cache {size / 1048576:.1f} MiB; plain `-jar quarkus-run.jar` as packaged")


def summary_rows(fp):
    rows = []
    for name, c in fp.get("configs", {}).items():
        if "started_s_median" in c:
            rows += [f"| {name}: start to started UP (median of {len(c['starts_s'])}) | {c['started_s_median']} s (min {c['started_s_min']}) | <= 0.8 s ({verdict(c['started_s_median'] <= 0.8)}) |",
                     f"| {name}: RSS after warm-up / under load | {c['rss_after_warmup_mib']} / {c['rss_under_load_mib']} MiB | <= 96 / <= 128 MiB ({verdict((c['rss_after_warmup_mib'] or 1e9) <= 96 and (c['rss_under_load_mib'] or 1e9) <= 128)}) |"]
        else:
            rows += [f"| {name} | skipped: {c.get('skipped')} | |"]
    return rows


def detail_lines(fp):
    if not fp.get("jvm_options"):
        return []
    lines = [f"- footprint JVM options `{' '.join(fp['jvm_options'])}` from {fp['jvm_options_source']}"]
    if fp.get("aot"):
        lines += [f"- temurin25-aot: {fp['aot']}"]
    for name, c in fp.get("configs", {}).items():
        if c.get("quarkus_started_in_s"):
            lines += [f"- {name}: starts {c['starts_s']} s to started UP; Quarkus' own \"started in\" {c['quarkus_started_in_s']} s; VmHWM {c.get('vmhwm_mib')} MiB"]
    return lines
