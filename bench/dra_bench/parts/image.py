"""Part image: the container image as it ships, run as the pod runs it, side by side with the same jar
outside the container (JDK 25, the same JVM options, its own AOT cache).

Needs podman that can run containers here (src/test/image/podman.sh); otherwise the part says why it is skipped.
Builds the image with the README's commands from the jar in target/quarkus-app, on the base images that
src/test/image/distroless-standin.sh and temurin-standin.sh provide (the real ones, or labelled stand-ins), and
reports its size by part (base, runtime, application, AOT cache) beside the start the AOT cache saves.
"""
import os
import re
import subprocess
import time

from .. import container, http_client, idle, local_load
from ..processes import CLOCK_TICKS_PER_SECOND
from ..report import verdict
from ..stats import median, rounded
from ..wrk import run_wrk
from .footprint import aot_training

NAME = "image"

MAX_IMAGE_MB = 150
RSS_AT_REST_MIB, RSS_WORST_MIB, START_S, START_RATIO, IDLE_PCT = 40, 96, 0.5, 1.15, 0.05
IDLE_WINDOWS = 3
ROOT_IN_CONTAINER = "/var/run/kubernetes.io/dra-device-attributes"


def run(ctx):
    a = ctx.args
    repo = a.repo
    why = container.why_podman_cannot_run(repo)
    if why:
        return {"skipped": why}
    reps = 1 if ctx.smoke else a.start_reps
    warm = 2 if ctx.smoke else a.warmup_seconds
    load = 2 if ctx.smoke else a.wrk_seconds
    # each of IDLE_WINDOWS windows three times the other parts' window: the JVM's own timers run every few seconds
    idle_s = 3 if ctx.smoke else 3 * a.idle_seconds
    flood = 300 if ctx.smoke else 2000
    silent = 300 if ctx.smoke else 3000
    image = f"dra-metadata-sidecar:{container.project_version(repo)}"
    limit_mib = container.manifest_memory_limit(repo)
    out = {"memory_limit_mib": limit_mib, "targets": f"cgroup rss <= {RSS_AT_REST_MIB} MiB after warm-up, <= "
           f"{RSS_WORST_MIB} MiB at the worst local load; <= {START_S} s from process start to started UP, and <= "
           f"{START_RATIO}x the same jar outside; idle <= {IDLE_PCT} % of one core (median of {IDLE_WINDOWS} windows, "
           f"beside a JVM with the same options that only sleeps, in the same windows)"}

    out["base"] = "; ".join(container.ensure_base_images(repo))
    t0 = time.monotonic()
    r = container.run_readme_build(repo)
    if r.returncode != 0:
        raise RuntimeError(f"podman build failed: {(r.stdout + r.stderr)[-800:]}")
    out["build_s"] = round(time.monotonic() - t0, 1)
    out["build_command"] = " ".join(container.readme_build_script(repo).split())
    parts = container.image_parts(repo, image)
    out["size_mb"] = {"total": round(sum(parts.values()) / 1e6, 1),
                      **{name: round(size / 1e6, 1) for name, size in parts.items()}}

    tree = os.path.join(ctx.work, "tree-image")
    if not os.path.isdir(tree):
        subprocess.run(["cp", "-r", os.path.join(repo, "deploy/sample/dra-device-attributes"), tree], check=True)
        subprocess.run(["chmod", "-R", "a+rX", tree], check=True)
    path = "/claims/gpu-claim/gpu"

    def measure(name, start, stop, baseline):
        """start() -> (pid, port, mport, seconds to started UP, rss_kib(), log()); baseline = (start() -> pid,
        stop()) of the JVM that only sleeps; figures of one configuration."""
        starts, quarkus, res = [], [], {}
        for i in range(reps):
            pid, port, mport, started, rss, logtext = start(i)
            starts.append(started)
            m = re.search(r"started in ([\d.]+)s", logtext())
            quarkus.append(float(m.group(1)) if m else None)
            if i < reps - 1:
                stop()
                continue
            sleeper = baseline[0]()  # started first: its own start is over by the idle windows
            try:
                run_wrk(ctx, port, path, warm)
                time.sleep(2.0)
                res["rss_after_warmup_mib"] = rounded(rss() / 1024)
                both = idle.side_by_side({"sidecar": pid, "baseline": sleeper}, idle_s, IDLE_WINDOWS)
            finally:
                baseline[1]()
            res["idle_cpu_pct_of_one_core"] = round(both["sidecar"]["pct_of_one_core"], 3)
            res["idle_baseline_pct_of_one_core"] = round(both["baseline"]["pct_of_one_core"], 3)
            res["idle"] = both
            res["rss_at_rest_mib"] = rounded(rss() / 1024)  # after the idle windows too
            peak = [0]

            def sample():
                peak[0] = max(peak[0], rss() or 0)
            w = run_wrk(ctx, port, path, load)
            sample()
            res["rps"] = w["rps"]
            res["p99_ms"] = w["p99_ms"]
            st, hd, _ = http_client.get(port, "/claims/net-claim/nic")
            etag = {k.lower(): v for k, v in hd.items()}["etag"]
            refused, closed = local_load.long_poll_flood(port, "/claims/net-claim/nic", etag, flood, 3 if ctx.smoke else 8, sample)
            res["flood"] = {"long_polls": flood, "refused_503": refused, "closed_by_server": closed}
            # longer than quarkus.management.idle-timeout (1s), which closes the silent management connections
            closed = local_load.silent_connections([port, mport], silent, 3 if ctx.smoke else 5, sample)
            res["silent"] = {"per_port": silent, "closed_by_server_api": closed[port],
                             "closed_by_server_management": closed[mport]}
            res["validations"] = {"dense_1mb_streams": 30, "answers": local_load.validate_flood(port, 30, sample)}
            res["pipelined"] = {"connections": 20, "mb_each": 2 if ctx.smoke else 10,
                                "mb_taken": local_load.pipelined_flood(port, path, 20, 2 if ctx.smoke else 10, sample)}
            res["rss_worst_mib"] = rounded(peak[0] / 1024)
            res["alive_after_flood"] = http_client.get(port, "/claims")[0] == 200
            stop()
        res["starts_s"] = [round(x, 3) for x in starts]
        res["started_s_median"] = round(median(starts), 3)
        res["started_s_min"] = round(min(starts), 3)
        res["quarkus_started_in_s"] = quarkus
        out[name] = res

    # the image, as the pod runs it (ports taken from the free ones, so that a run beside the tests does not clash)
    cname = "dra-bench-image"
    box = {}

    def start_image(i, *options):
        container.podman(repo, "rm", "--force", "--time", "0", cname, check=False)
        port, mport = http_client.free_port(), http_client.free_port()
        r = subprocess.run(["bash", container.script(repo, "run-like-pod.sh"), image, cname, f"{limit_mib}m", tree, "--",
                            "--env", f"QUARKUS_HTTP_PORT={port}", "--env", f"QUARKUS_MANAGEMENT_PORT={mport}", *options],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"podman run failed: {r.stderr.strip()[-500:]}")
        pid = int(container.podman(repo, "inspect", "--format", "{{.State.Pid}}", cname).stdout.strip())
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                st, _, body = http_client.get(mport, "/q/health/started", timeout=1.0)
                if st == 200 and b'"UP"' in body:
                    started = container.seconds_since_process_start(pid, CLOCK_TICKS_PER_SECOND)
                    cg = container.memory_cgroup(pid)
                    return (pid, port, mport, started, lambda: container.cgroup_rss_kib(cg),
                            lambda: container.podman(repo, "logs", cname, check=False).stdout)
            except OSError:
                pass
            time.sleep(0.01)
        raise RuntimeError(f"image not started in 60 s: {container.podman(repo, 'logs', cname, check=False).stdout[-800:]}")

    def stop_image():
        t = time.monotonic()
        container.podman(repo, "stop", "--time", "10", cname, timeout=60)
        box["stop_s"] = round(time.monotonic() - t, 2)
        box["exit"] = container.podman(repo, "inspect", "--format", "{{.State.ExitCode}} oom={{.State.OOMKilled}}",
                              cname).stdout.strip()
        container.podman(repo, "rm", "--force", cname, check=False)

    sleeper_dir = idle.sleeper_classes(ctx.jdk25, ctx.work)
    bname = "dra-bench-image-baseline"

    def start_image_baseline():
        container.podman(repo, "rm", "--force", "--time", "0", bname, check=False)
        r = subprocess.run(["bash", container.script(repo, "run-like-pod.sh"), image, bname, f"{limit_mib}m", tree, "--",
                            "--mount", f"type=bind,source={sleeper_dir},destination=/sleeper,readonly=true",
                            "--entrypoint", SLEEPER_ENTRYPOINT], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"podman run (baseline) failed: {r.stderr.strip()[-500:]}")
        return int(container.podman(repo, "inspect", "--format", "{{.State.Pid}}", bname).stdout.strip())

    def stop_image_baseline():
        container.podman(repo, "rm", "--force", "--time", "0", bname, check=False)

    try:
        measure("image", start_image, stop_image, (start_image_baseline, stop_image_baseline))
    finally:
        container.podman(repo, "rm", "--force", "--time", "0", cname, check=False)
    out["image"]["stop"] = dict(box)
    i = out["image"]
    out["aot_cache"] = aot_cache_gain(out, reps, start_image, stop_image, cname, repo)
    out["met"] = (i["rss_after_warmup_mib"] <= RSS_AT_REST_MIB and i["rss_worst_mib"] <= RSS_WORST_MIB
                  and i["started_s_median"] <= START_S and i["idle_cpu_pct_of_one_core"] <= IDLE_PCT
                  and out["size_mb"]["total"] <= MAX_IMAGE_MB)

    # the same jar outside the cname: JDK 25, the image's options, its own AOT cache, heap sized as under the limit
    if ctx.smoke:
        out["jar"] = {"skipped": "smoke run (its AOT training run alone takes longer than a smoke part may)"}
        return out
    aot = os.path.join(ctx.work, "app-image-part.aot")
    extra, note = aot_training(ctx, ctx.jdk25, tree, aot)
    if extra is None:
        out["jar"] = {"skipped": note}
        return out
    proc = {}

    def start_jar(i):
        p, port, mport, started = ctx.sidecars.start("image-part-jar", ctx.jdk25, tree, extra=extra + ["-XX:AOTMode=on"])
        proc["p"] = p
        return p.pid, port, mport, started, lambda: container.rss_anon_kib(p.pid), lambda: open(p.logpath, errors="replace").read()

    def stop_jar():
        ctx.procs.stop(proc["p"])

    def start_jar_baseline():
        cmd = [os.path.join(ctx.jdk25, "bin/java"), *ctx.sidecars.jvm_opts, "-cp", sleeper_dir, "Sleep"]
        proc["baseline"] = ctx.procs.start(cmd, os.path.join(ctx.work, "image-part-jar-baseline.log"))
        return proc["baseline"].pid

    def stop_jar_baseline():
        ctx.procs.stop(proc["baseline"])

    measure("jar", start_jar, stop_jar, (start_jar_baseline, stop_jar_baseline))
    out["jar"]["start_clock"] = "bench's own clock from spawning java (the image's: from the JVM process start)"
    out["jar"]["memory"] = "RssAnon of the process (the image's: rss of its memory cgroup)"
    i, j = out["image"], out["jar"]
    out["ratios_image_over_jar"] = {
        "start": round(i["started_s_median"] / j["started_s_median"], 2),
        "rss_after_warmup": round(i["rss_after_warmup_mib"] / j["rss_after_warmup_mib"], 2),
        "rps": round(i["rps"] / j["rps"], 2)}
    out["met"] = out["met"] and out["ratios_image_over_jar"]["start"] <= START_RATIO
    return out


# The baseline of idle CPU in the image: its JVM and options (without the application's AOT cache, which is
# made for another class path) running a main that only sleeps.
SLEEPER_ENTRYPOINT = ('["/opt/jre/bin/java", "@/deployments/jvm-options", "-XX:AOTMode=off", "-cp", "/sleeper", '
                      '"Sleep"]')


# The image's own command with the AOT cache switched off (a later -XX:AOTMode wins over the argument file's).
NO_CACHE_ENTRYPOINT = ('["/opt/jre/bin/java", "@/deployments/jvm-options", "-XX:AOTMode=off", "-jar", '
                       '"/deployments/quarkus-run.jar"]')


def aot_cache_gain(out, reps, start_image, stop_image, cname, repo):
    """What the AOT cache's megabytes buy: the image's start without it (same container, same clock), beside its
    size."""
    starts = []
    try:
        for i in range(reps):
            starts.append(start_image(i, "--entrypoint", NO_CACHE_ENTRYPOINT)[3])
            stop_image()
    finally:
        container.podman(repo, "rm", "--force", "--time", "0", cname, check=False)
    with_cache = out["image"]["started_s_median"]
    without = round(median(starts), 3)
    return {"size_mb": out["size_mb"].get("AOT cache"), "started_s_median_without": without,
            "starts_s_without": [round(x, 3) for x in starts], "started_s_median_with": with_cache,
            "saves_s": round(without - with_cache, 3)}


def summary_rows(im):
    if "skipped" in im:
        return [f"| image | skipped: {im['skipped']} | |"]
    if "image" not in im:
        return []
    i, j = im["image"], im.get("jar", {})
    ratios = im.get("ratios_image_over_jar", {})
    size, aot = im["size_mb"], im["aot_cache"]
    return [
        f"| image size, uncompressed, by part (MB) | {size['total']} = "
        + " + ".join(f"{name} {mb}" for name, mb in size.items() if name != "total")
        + f" | <= {MAX_IMAGE_MB} ({verdict(size['total'] <= MAX_IMAGE_MB)}) |",
        f"| image: the AOT cache's {aot['size_mb']} MB against the start it saves (process start to started UP, "
        f"medians of {len(aot['starts_s_without'])}) | without {aot['started_s_median_without']} s, with "
        f"{aot['started_s_median_with']} s: saves {aot['saves_s']} s | kept: start <= {START_S} s |",
        f"| image: process start to started UP (median of {len(i['starts_s'])}; min) / jar outside | "
        f"{i['started_s_median']} s ({i['started_s_min']} s) / {j.get('started_s_median')} s ({j.get('started_s_min')} s) | "
        f"image <= {START_S} s ({verdict(i['started_s_median'] <= START_S)}) |",
        f"| image / jar outside: start ratio (medians, same run) | {ratios.get('start')} | <= {START_RATIO} "
        f"({verdict(ratios.get('start') is not None and ratios['start'] <= START_RATIO)}) |",
        f"| image: cgroup rss after warm-up / worst local load ({i['flood']['long_polls']} long polls after wrk, "
        f"then {i['silent']['per_port']} silent connections to each port, then "
        f"{i['validations']['dense_1mb_streams']} dense 1 MB POST /validate at once, then "
        f"{i['pipelined']['mb_each']} MB of pipelined GETs on each of {i['pipelined']['connections']} connections, "
        f"answers unread) | "
        f"{i['rss_after_warmup_mib']} / {i['rss_worst_mib']} MiB | <= {RSS_AT_REST_MIB} / <= {RSS_WORST_MIB} MiB "
        f"({verdict(i['rss_after_warmup_mib'] <= RSS_AT_REST_MIB and i['rss_worst_mib'] <= RSS_WORST_MIB)}) |",
        f"| image: cgroup rss at rest (after the idle window) / jar outside RssAnon | {i.get('rss_at_rest_mib')} / "
        f"{j.get('rss_at_rest_mib')} MiB | |",
        f"| jar outside (Temurin 25, same options, own AOT cache): RssAnon after warm-up / worst local load | "
        f"{j.get('rss_after_warmup_mib')} / {j.get('rss_worst_mib')} MiB | |",
        f"| image: idle CPU (% of one core, median of {IDLE_WINDOWS} windows of {i['idle']['sidecar']['window_s']} s) "
        f"/ baseline: the image's JVM and options running a main that only sleeps, same windows | "
        f"{i['idle_cpu_pct_of_one_core']} / {i['idle_baseline_pct_of_one_core']} | image <= {IDLE_PCT} "
        f"({verdict(i['idle_cpu_pct_of_one_core'] <= IDLE_PCT)}) |",
        f"| jar outside: idle CPU / its baseline (same options, a sleeping main) (% of one core, same way) | "
        f"{j.get('idle_cpu_pct_of_one_core')} / {j.get('idle_baseline_pct_of_one_core')} | |",
        f"| image / jar outside: throughput (req/s) | {i['rps']:.0f} / {j.get('rps') or 0:.0f} = {ratios.get('rps')} | |",
        f"| image: {i['flood']['long_polls']} long polls at once | {i['flood']['refused_503']} refused 503, "
        f"{i['flood']['closed_by_server']} connections closed; serving after: {i['alive_after_flood']}; "
        f"podman stop: {i['stop']} | |",
        f"| image: {i['silent']['per_port']} silent connections to each port | closed by the sidecar: "
        f"{i['silent']['closed_by_server_api']} on the API (past max-connections), "
        f"{i['silent']['closed_by_server_management']} on the management port (idle timeout) | |",
        f"| image: {i['validations']['dense_1mb_streams']} dense 1 MB POST /validate at once | answers by status "
        f"{i['validations']['answers']} (503: too-many-request-bodies; -1: closed while sending) | |",
        f"| image: {i['pipelined']['mb_each']} MB of pipelined GETs on each of {i['pipelined']['connections']} "
        f"connections, answers unread | {i['pipelined']['mb_taken']} MB taken by the sidecar; serving after all "
        f"phases: {i['alive_after_flood']} | |"]


def detail_lines(im):
    if "image" not in im:
        return []
    i, j = im["image"], im.get("jar", {})
    lines = [f"- image: {im['base']}; built with `{im['build_command']}` in {im['build_s']} s; run by "
            f"src/test/image/run-like-pod.sh under the manifests' {im['memory_limit_mib']}Mi limit; starts "
            f"{i['starts_s']} s; Quarkus' own \"started in\" {i['quarkus_started_in_s']} s (jar outside "
            f"{j.get('quarkus_started_in_s')} s); memory: image = `rss` of its memory cgroup, jar = RssAnon"]
    for label, res in (("image", i), ("jar outside", j)):
        for who in ("sidecar", "baseline"):
            c = res.get("idle", {}).get(who)
            if c:
                lines.append(f"- {label} at rest, {who}: % of one core per window {c['windows_pct']}; per thread "
                             f"[CPU ms/min, wakes/min] (medians): {c['threads_ms_and_wakes_per_min']}")
    return lines
