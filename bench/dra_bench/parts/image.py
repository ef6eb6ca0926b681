"""Part image: the container image as it ships, run as the pod runs it, side by side with the same jar
outside the container (JDK 25, the same JVM options, its own AOT cache).

Needs podman that can run containers here (src/test/image/podman.sh); otherwise the part says why it is skipped.
Builds the image with the README's command from the jar in target/quarkus-app, on the base image that
src/test/image/temurin-standin.sh provides (the real eclipse-temurin:25-jre, or a labelled stand-in).
"""
import concurrent.futures
import os
import re
import selectors
import socket
import subprocess
import time

from .. import http_client
from ..processes import CLOCK_TICKS_PER_SECOND, cpu_ticks
from ..report import verdict
from ..stats import median, rounded
from ..wrk import run_wrk
from .footprint import aot_training

NAME = "image"

IMAGE = "dra-metadata-sidecar:0.1.0"
ROOT_IN_CONTAINER = "/var/run/kubernetes.io/dra-device-attributes"


def _script(repo, name):
    return os.path.join(repo, "src/test/image", name)


def _podman(repo, *args, timeout=120, check=True):
    r = subprocess.run(["bash", _script(repo, "podman.sh"), *args], capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f"podman {' '.join(args[:2])} failed: {(r.stdout + r.stderr).strip()[-500:]}")
    return r


def why_podman_cannot_run(repo):
    try:
        r = subprocess.run(["podman", "--version"], capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        return "podman is not installed"
    if r.returncode != 0:
        return f"podman --version failed: {r.stderr.strip()}"
    r = _podman(repo, "info", "--format", "{{.Host.OCIRuntime.Name}}", timeout=60, check=False)
    return None if r.returncode == 0 else f"podman cannot run here: {(r.stdout + r.stderr).strip()[-300:]}"


def manifest_memory_limit(repo):
    text = open(os.path.join(repo, "deploy/kubernetes/components/sidecar/sidecar.yaml")).read()
    m = re.search(r"limits:\s*\n\s*memory:\s*(\d+)Mi", text)
    return int(m.group(1))


def memory_cgroup(pid):
    for line in open(f"/proc/{pid}/cgroup"):
        _, controllers, path = line.rstrip("\n").split(":", 2)
        if "memory" in controllers.split(","):
            return "/sys/fs/cgroup/memory" + path
    raise RuntimeError(f"no memory cgroup for pid {pid}")


def cgroup_rss_kib(cgroup):
    for line in open(os.path.join(cgroup, "memory.stat")):
        if line.startswith("rss "):
            return int(line.split()[1]) // 1024
    return None


def rss_anon_kib(pid):
    """Anonymous resident memory of a process: what a memory cgroup charges as `rss` (VmRSS also counts the
    AOT cache's clean file pages, which the cgroup charges as page cache)."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    except FileNotFoundError:
        pass
    return None


def seconds_since_process_start(pid, clk_tck):
    start = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[19]) / clk_tck
    return float(open("/proc/uptime").read().split()[0]) - start


def _hold(sel, socks, hold_s, sample, on_ready):
    """Runs `sel` for `hold_s` seconds, calling on_ready(key, events) for each ready socket and sample() every
    100 ms; then closes `socks` and `sel`."""
    end = time.monotonic() + hold_s
    next_sample = 0
    while time.monotonic() < end:
        for key, ev in sel.select(0.05):
            on_ready(key, ev)
        if time.monotonic() >= next_sample:
            sample()
            next_sample = time.monotonic() + 0.1
    for s in socks:
        s.close()
    sel.close()


def long_poll_flood(port, path, etag, count, hold_s, sample):
    """Opens `count` long polls (one connection each) from one selector and holds them `hold_s` seconds,
    calling sample() every 100 ms; returns (answered 503 too-many-long-polls, closed by the server)."""
    from urllib.parse import quote
    req = (f"GET {path}?waitForChange=true&timeoutSeconds=120&lastEtag={quote(etag, safe='')} HTTP/1.1\r\n"
           "Host: localhost\r\n\r\n").encode()
    sel = selectors.DefaultSelector()
    socks, counts = [], {"refused": 0, "closed": 0}
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        sel.register(s, selectors.EVENT_WRITE)
        socks.append(s)

    def on_ready(key, ev):
        s = key.fileobj
        try:
            if ev & selectors.EVENT_WRITE:
                s.send(req)
                sel.modify(s, selectors.EVENT_READ)
            else:
                data = s.recv(65536)
                if b"too-many-long-polls" in data:
                    counts["refused"] += 1
                elif not data:
                    counts["closed"] += 1
                sel.unregister(s)
        except OSError:
            counts["closed"] += 1
            sel.unregister(s)
    _hold(sel, socks, hold_s, sample, on_ready)
    return counts["refused"], counts["closed"]


def silent_connections(ports, count, hold_s, sample):
    """Opens `count` connections to each port that never send a byte, holds them `hold_s` seconds calling sample()
    every 100 ms, and returns how many the server closed, per port."""
    sel = selectors.DefaultSelector()
    socks, closed = [], {p: 0 for p in ports}
    for p in ports:
        for _ in range(count):
            s = socket.socket()
            try:
                s.connect(("127.0.0.1", p))
            except OSError:
                closed[p] += 1
                s.close()
                continue
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ, p)
            socks.append(s)

    def on_ready(key, _):
        try:
            data = key.fileobj.recv(1)
        except OSError:
            data = b""
        if not data:
            closed[key.data] += 1
            sel.unregister(key.fileobj)
    _hold(sel, socks, hold_s, sample, on_ready)
    return closed


def dense_stream():
    """A valid metadata stream of about 1 MB (under dra.metadata.max-file-size): one request, many devices."""
    devices = []
    size = 0
    while size < 990_000:
        d = ('{"driver":"gpu.example.com","pool":"p","name":"gpu-%d","attributes":{%s}}'
             % (len(devices), ",".join('"a%d":{"string":"xxxxxxxx"}' % a for a in range(8))))
        devices.append(d)
        size += len(d) + 1
    return ('{"kind":"DeviceMetadata","apiVersion":"metadata.resource.k8s.io/v1beta1","metadata":{"name":"c",'
            '"namespace":"n","uid":"u","generation":1},"requests":[{"name":"r","devices":[%s]}]}'
            % ",".join(devices)).encode()


def validate_flood(port, count, sample):
    """POSTs `count` dense 1 MB streams to /validate at once, calling sample() every 100 ms until all are
    answered; returns the answers by status (-1: closed unanswered)."""
    body = dense_stream()
    statuses = {}
    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        futures = [pool.submit(http_client.post, port, "/validate", body) for _ in range(count)]
        while not all(f.done() for f in futures):
            sample()
            time.sleep(0.1)
        for f in futures:
            statuses[f.result()[0]] = statuses.get(f.result()[0], 0) + 1
    return dict(sorted(statuses.items()))


def pipelined_flood(port, path, connections, megabytes, sample):
    """Sends `megabytes` MB of pipelined GETs of `path` on each of `connections` connections and reads no answer,
    calling sample() every 100 ms until every sender is done (a sender gives up when the server stops reading for
    2 s); returns the MB the server took in all."""
    burst = f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode() * 1000
    taken = [0] * connections

    def send(i):
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.settimeout(2.0)
            try:
                for _ in range(megabytes * 1048576 // len(burst)):
                    s.sendall(burst)
                    taken[i] += len(burst)
            except OSError:
                pass
    with concurrent.futures.ThreadPoolExecutor(connections) as pool:
        futures = [pool.submit(send, i) for i in range(connections)]
        while not all(f.done() for f in futures):
            sample()
            time.sleep(0.1)
    return round(sum(taken) / 1048576)


def run(ctx):
    a = ctx.args
    repo = a.repo
    why = why_podman_cannot_run(repo)
    if why:
        return {"skipped": why}
    reps = 1 if ctx.smoke else a.start_reps
    warm = 2 if ctx.smoke else a.warmup_seconds
    load = 2 if ctx.smoke else a.wrk_seconds
    idle_s = 3 if ctx.smoke else a.idle_seconds
    flood = 300 if ctx.smoke else 2000
    silent = 300 if ctx.smoke else 3000
    limit_mib = manifest_memory_limit(repo)
    out = {"memory_limit_mib": limit_mib, "targets": "cgroup rss <= 64 MiB after warm-up, <= 96 MiB at the worst "
           "local load; <= 0.5 s from process start to started UP"}

    base = subprocess.run(["bash", _script(repo, "temurin-standin.sh")], capture_output=True, text=True, timeout=900)
    if base.returncode != 0:
        raise RuntimeError(f"no base image: {base.stderr.strip()}")
    out["base"] = base.stdout.strip()
    t0 = time.monotonic()
    readme = open(os.path.join(repo, "README.md")).read()
    build = re.search(r"^podman build .*$", readme, re.M).group(0).split()
    r = subprocess.run(["bash", _script(repo, "podman.sh"), *build[1:]], cwd=repo, capture_output=True, text=True,
                       timeout=900)
    if r.returncode != 0:
        raise RuntimeError(f"podman build failed: {(r.stdout + r.stderr)[-800:]}")
    out["build_s"] = round(time.monotonic() - t0, 1)
    out["build_command"] = " ".join(build)

    tree = os.path.join(ctx.work, "tree-image")
    if not os.path.isdir(tree):
        subprocess.run(["cp", "-r", os.path.join(repo, "deploy/sample/dra-device-attributes"), tree], check=True)
        subprocess.run(["chmod", "-R", "a+rX", tree], check=True)
    path = "/claims/gpu-claim/gpu"

    def measure(name, start, stop):
        """start() -> (pid, port, mport, seconds to started UP, rss_kib(), log()); figures of one configuration."""
        starts, quarkus, res = [], [], {}
        for i in range(reps):
            pid, port, mport, started, rss, logtext = start(i)
            starts.append(started)
            m = re.search(r"started in ([\d.]+)s", logtext())
            quarkus.append(float(m.group(1)) if m else None)
            if i < reps - 1:
                stop()
                continue
            run_wrk(ctx, port, path, warm)
            time.sleep(2.0)
            res["rss_after_warmup_mib"] = rounded(rss() / 1024)
            c0, t = cpu_ticks(pid), time.monotonic()
            time.sleep(idle_s)
            res["idle_cpu_pct_of_one_core"] = round(100.0 * (cpu_ticks(pid) - c0) / CLOCK_TICKS_PER_SECOND / (time.monotonic() - t), 3)
            peak = [0]

            def sample():
                peak[0] = max(peak[0], rss() or 0)
            w = run_wrk(ctx, port, path, load)
            sample()
            res["rps"] = w["rps"]
            res["p99_ms"] = w["p99_ms"]
            st, hd, _ = http_client.get(port, "/claims/net-claim/nic")
            etag = {k.lower(): v for k, v in hd.items()}["etag"]
            refused, closed = long_poll_flood(port, "/claims/net-claim/nic", etag, flood, 3 if ctx.smoke else 8, sample)
            res["flood"] = {"long_polls": flood, "refused_503": refused, "closed_by_server": closed}
            # longer than quarkus.management.idle-timeout (1s), which closes the silent management connections
            closed = silent_connections([port, mport], silent, 3 if ctx.smoke else 5, sample)
            res["silent"] = {"per_port": silent, "closed_by_server_api": closed[port],
                             "closed_by_server_management": closed[mport]}
            res["validations"] = {"dense_1mb_streams": 30, "answers": validate_flood(port, 30, sample)}
            res["pipelined"] = {"connections": 20, "mb_each": 2 if ctx.smoke else 10,
                                "mb_taken": pipelined_flood(port, path, 20, 2 if ctx.smoke else 10, sample)}
            res["rss_worst_mib"] = rounded(peak[0] / 1024)
            res["alive_after_flood"] = http_client.get(port, "/claims")[0] == 200
            stop()
        res["starts_s"] = [round(x, 3) for x in starts]
        res["started_s_median"] = round(median(starts), 3)
        res["started_s_min"] = round(min(starts), 3)
        res["quarkus_started_in_s"] = quarkus
        out[name] = res

    # the image, as the pod runs it (ports taken from the free ones, so that a run beside the tests does not clash)
    container = "dra-bench-image"
    box = {}

    def start_image(i):
        _podman(repo, "rm", "--force", "--time", "0", container, check=False)
        port, mport = http_client.free_port(), http_client.free_port()
        r = subprocess.run(["bash", _script(repo, "run-like-pod.sh"), IMAGE, container, f"{limit_mib}m", tree, "--",
                            "--env", f"QUARKUS_HTTP_PORT={port}", "--env", f"QUARKUS_MANAGEMENT_PORT={mport}"],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"podman run failed: {r.stderr.strip()[-500:]}")
        pid = int(_podman(repo, "inspect", "--format", "{{.State.Pid}}", container).stdout.strip())
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                st, _, body = http_client.get(mport, "/q/health/started", timeout=1.0)
                if st == 200 and b'"UP"' in body:
                    started = seconds_since_process_start(pid, CLOCK_TICKS_PER_SECOND)
                    cg = memory_cgroup(pid)
                    return (pid, port, mport, started, lambda: cgroup_rss_kib(cg),
                            lambda: _podman(repo, "logs", container, check=False).stdout)
            except OSError:
                pass
            time.sleep(0.01)
        raise RuntimeError(f"image not started in 60 s: {_podman(repo, 'logs', container, check=False).stdout[-800:]}")

    def stop_image():
        t = time.monotonic()
        _podman(repo, "stop", "--time", "10", container, timeout=60)
        box["stop_s"] = round(time.monotonic() - t, 2)
        box["exit"] = _podman(repo, "inspect", "--format", "{{.State.ExitCode}} oom={{.State.OOMKilled}}",
                              container).stdout.strip()
        _podman(repo, "rm", "--force", container, check=False)

    try:
        measure("image", start_image, stop_image)
    finally:
        _podman(repo, "rm", "--force", "--time", "0", container, check=False)
    out["image"]["stop"] = dict(box)
    i = out["image"]
    out["met"] = i["rss_after_warmup_mib"] <= 64 and i["rss_worst_mib"] <= 96 and i["started_s_median"] <= 0.5

    # the same jar outside the container: JDK 25, the image's options, its own AOT cache, heap sized as under the limit
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
        return p.pid, port, mport, started, lambda: rss_anon_kib(p.pid), lambda: open(p.logpath, errors="replace").read()

    def stop_jar():
        ctx.procs.stop(proc["p"])

    measure("jar", start_jar, stop_jar)
    out["jar"]["start_clock"] = "bench's own clock from spawning java (the image's: from the JVM process start)"
    out["jar"]["memory"] = "RssAnon of the process (the image's: rss of its memory cgroup)"
    i, j = out["image"], out["jar"]
    out["ratios_image_over_jar"] = {
        "start": round(i["started_s_median"] / j["started_s_median"], 2),
        "rss_after_warmup": round(i["rss_after_warmup_mib"] / j["rss_after_warmup_mib"], 2),
        "rps": round(i["rps"] / j["rps"], 2)}
    return out


def summary_rows(im):
    if "skipped" in im:
        return [f"| image | skipped: {im['skipped']} | |"]
    if "image" not in im:
        return []
    i, j = im["image"], im.get("jar", {})
    ratios = im.get("ratios_image_over_jar", {})
    return [
        f"| image: process start to started UP (median of {len(i['starts_s'])}; min) / jar outside | "
        f"{i['started_s_median']} s ({i['started_s_min']} s) / {j.get('started_s_median')} s ({j.get('started_s_min')} s) | "
        f"image <= 0.5 s ({verdict(i['started_s_median'] <= 0.5)}) |",
        f"| image: cgroup rss after warm-up / worst local load ({i['flood']['long_polls']} long polls after wrk, "
        f"then {i['silent']['per_port']} silent connections to each port, then "
        f"{i['validations']['dense_1mb_streams']} dense 1 MB POST /validate at once, then "
        f"{i['pipelined']['mb_each']} MB of pipelined GETs on each of {i['pipelined']['connections']} connections, "
        f"answers unread) | "
        f"{i['rss_after_warmup_mib']} / {i['rss_worst_mib']} MiB | <= 64 / <= 96 MiB "
        f"({verdict(i['rss_after_warmup_mib'] <= 64 and i['rss_worst_mib'] <= 96)}) |",
        f"| jar outside (Temurin 25, same options, own AOT cache): RssAnon after warm-up / worst local load | "
        f"{j.get('rss_after_warmup_mib')} / {j.get('rss_worst_mib')} MiB | |",
        f"| image / jar outside: idle CPU (% of one core) | {i['idle_cpu_pct_of_one_core']} / "
        f"{j.get('idle_cpu_pct_of_one_core')} | |",
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
    return [f"- image: {im['base']}; built with `{im['build_command']}` in {im['build_s']} s; run by "
            f"src/test/image/run-like-pod.sh under the manifests' {im['memory_limit_mib']}Mi limit; starts "
            f"{i['starts_s']} s; Quarkus' own \"started in\" {i['quarkus_started_in_s']} s (jar outside "
            f"{j.get('quarkus_started_in_s')} s); memory: image = `rss` of its memory cgroup, jar = RssAnon"]
