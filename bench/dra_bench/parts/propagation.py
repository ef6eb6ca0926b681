"""Part propagation: milliseconds from an in-place rewrite of a bind-mounted file to the new generation over
HTTP, by polling GETs and by long polls; then the sidecar's idle CPU."""
import json
import os
import random
import shutil
import subprocess
import threading
import time

from ..context import log
from ..http_client import KeepAliveClient, query_value
from ..metadata_files import stream_bytes, write_in_place
from ..processes import idle_cpu, rss_kib
from ..report import verdict
from ..sidecar import watch_mode
from ..stats import percentile, rounded

NAME = "propagation"
PATH = "/claims/c/r/drivers/d"
"""The driver resource of the one file this part rewrites (claim c, request r, driver d)."""
GIVE_UP_SECONDS = 5


def add_arguments(parser):
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--no-namespace", action="store_true", help="propagation on a plain file")


def run(ctx):
    a = ctx.args
    changes = 20 if ctx.smoke else a.changes
    idle_seconds = 3 if ctx.smoke else a.idle_seconds
    root = os.path.join(ctx.work, "tree-propagation")
    target_dir = os.path.join(root, "resourceclaims/c/r")
    os.makedirs(target_dir, exist_ok=True)
    target = os.path.join(target_dir, "d-metadata.json")
    host = os.path.join(ctx.work, "host-d-metadata.json")
    writer = _Writer(host)
    namespace_ok, why = _mount_namespace_available(ctx.work)
    wrap = None
    if namespace_ok and not a.no_namespace:
        open(target, "wb").close()  # the mount point, as the container runtime creates it
        wrap = ["unshare", "-m", "--propagation", "private", "bash", "-c",
                'mount --bind -o ro "$1" "$2" && exec "${@:3}"', "bind", host, target]
        mode = "read-only single-file bind mount in a private mount namespace (unshare -m), sidecar inside it"
    else:
        writer = _Writer(target)
        mode = f"plain file (mount namespace unavailable: {why})" if not a.no_namespace else "plain file (--no-namespace)"
    sidecar, port, management_port, _ = ctx.sidecars.start("propagation", ctx.jdk17, root, wrap=wrap)
    client = KeepAliveClient(port)
    status, _, body = client.get(PATH)
    if status != 200:
        raise RuntimeError(f"GET {PATH} -> {status}: {body[:300]!r}")
    if json.loads(body)["metadata"]["generation"] != 1:
        raise RuntimeError(f"unexpected generation in {body[:300]!r}")
    if wrap and os.path.getsize(target) != 0:  # the sidecar reads through the mount: outside it, the file is empty
        raise RuntimeError("mount point is not empty outside the namespace")
    watch = watch_mode(management_port)
    log(f"propagation: {changes} in-place rewrites, {mode}, watch mode {watch}")

    polled, missed = _by_polling(client, writer, changes)
    long_polled, long_poll_note, long_poll_missed = _by_long_polls(client, port, writer, changes)
    client.close()

    idle = idle_cpu(sidecar.pid, idle_seconds)
    rss = rss_kib(sidecar.pid)
    ctx.procs.stop(sidecar)
    res = {
        "mode": mode, "watch_mode": watch, "changes": changes, "default_settings": True, "jdk": ctx.jdk17,
        "write": "open(O_TRUNC)+write+close of the host file, generation+1 each time (like Go os.WriteFile)",
        "poll_method": {**_latencies(polled), "missed_5s": missed},
        "longpoll_method": ({**_latencies(long_polled), "missed": long_poll_missed} if long_poll_note is None
                            else {"skipped": long_poll_note}),
        "idle_cpu": idle, "rss_mib": rounded(rss / 1024 if rss else None),
    }
    p99 = res["poll_method"]["p99_ms"]
    res["target"] = "p99 <= 10 ms; idle CPU <= 0.2 % of one core"
    res["met"] = p99 is not None and p99 <= 10 and missed == 0 and idle["pct_of_one_core"] <= 0.2
    return res


class _Writer:
    """The driver: rewrites the file in place with the next generation each time."""

    def __init__(self, path):
        self.path, self.generation = path, 1
        write_in_place(path, stream_bytes("c", "r", "d", 1))

    def next_generation(self):
        """Writes generation + 1; returns the time just before the write."""
        self.generation += 1
        t0 = time.monotonic()
        write_in_place(self.path, stream_bytes("c", "r", "d", self.generation))
        return t0


def _latencies(ms):
    return {"p50_ms": rounded(percentile(ms, 50), 2), "p99_ms": rounded(percentile(ms, 99), 2),
            "max_ms": rounded(max(ms) if ms else None, 2), "n": len(ms)}


def _generation(body):
    return json.loads(body)["metadata"].get("generation")


def _by_polling(client, writer, changes):
    """A tight loop of keep-alive GETs, 1 ms apart, after each write until the new generation is served;
    the writes come at random intervals against the sidecar's poll timer. Returns (ms list, misses)."""
    latencies, missed = [], 0
    for _ in range(changes):
        time.sleep(random.uniform(0.005, 0.06))
        t0 = writer.next_generation()
        while True:
            status, _, body = client.get(PATH)
            if status == 200 and _generation(body) == writer.generation:
                latencies.append((time.monotonic() - t0) * 1000)
                break
            if time.monotonic() - t0 > GIVE_UP_SECONDS:
                missed += 1
                break
            time.sleep(0.001)
    return latencies, missed


def _by_long_polls(client, port, writer, changes):
    """A long poll parked before each write, answered with the new generation. Returns (ms list, why skipped
    or None, misses); skipped when the sidecar sends no ETag or does not hold a long poll."""
    _, headers, _ = client.get(PATH)
    etag = headers.get("etag")
    if not etag:
        return [], "no ETag header", 0
    t0 = time.monotonic()
    status, _, _ = client.get(f"{PATH}?waitForChange=true&lastEtag={query_value(etag)}&timeoutSeconds=1")
    waited = time.monotonic() - t0
    if not (status == 200 and waited >= 0.8):
        return [], f"long poll not honoured (status {status}, answered after {waited:.3f}s)", 0
    latencies, missed = [], 0
    for _ in range(changes):
        _, headers, _ = client.get(PATH)
        seen = {}
        waiter = threading.Thread(target=_wait_for, args=(port, headers["etag"], writer.generation + 1, seen),
                                  daemon=True)
        waiter.start()
        time.sleep(random.uniform(0.01, 0.06))  # the long poll is parked in the sidecar by now
        seen["written"] = writer.next_generation()
        waiter.join(12)
        if "answered" in seen:
            latencies.append((seen["answered"] - seen["written"]) * 1000)
        else:
            missed += 1
    return latencies, None, missed


def _wait_for(port, etag, generation, seen):
    """Long-polls from `etag` until `generation` is served; records the time in seen["answered"], and gives up
    `GIVE_UP_SECONDS` after seen["written"]."""
    client = KeepAliveClient(port, timeout=10)
    try:
        while True:
            status, headers, body = client.get(f"{PATH}?waitForChange=true&lastEtag={query_value(etag)}&timeoutSeconds=5")
            now = time.monotonic()
            if status == 200 and _generation(body) == generation:
                seen["answered"] = now
                return
            if "written" in seen and now - seen["written"] > GIVE_UP_SECONDS:
                return
            etag = headers.get("etag", etag)
    finally:
        client.close()


def _mount_namespace_available(work):
    """(True, "") when this process may bind-mount a file read-only in a private mount namespace, else (False, why)."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False, "not root or no unshare"
    probe = os.path.join(work, "ns-probe")
    open(probe + ".src", "w").write("x")
    open(probe + ".dst", "w").close()
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                        f'mount --bind -o ro "{probe}.src" "{probe}.dst" && cat "{probe}.dst"'],
                       capture_output=True, text=True)
    ok = r.returncode == 0 and r.stdout == "x"
    return ok, (r.stderr.strip() or f"rc={r.returncode}")


def summary_rows(pr):
    if "poll_method" not in pr:
        return []
    pm, lp = pr["poll_method"], pr["longpoll_method"]
    rows = [f"| change propagation p50 / p99 (polling GET), watch mode {pr.get('watch_mode')} | {pm['p50_ms']} / {pm['p99_ms']} ms (n={pm['n']}, missed {pm['missed_5s']}) | p99 <= 10 ms ({verdict(pm['p99_ms'] is not None and pm['p99_ms'] <= 10)}) |"]
    if "p50_ms" in lp:
        rows += [f"| change propagation p50 / p99 (long poll) | {lp['p50_ms']} / {lp['p99_ms']} ms (n={lp['n']}, missed {lp['missed']}) | |"]
    else:
        rows += [f"| change propagation (long poll) | skipped: {lp['skipped']} | |"]
    ic = pr["idle_cpu"]
    rows += [f"| idle CPU, 1 file | {ic['pct_of_one_core']} % of one core ({ic['cpu_s']} s CPU in {ic['seconds']} s) | <= 0.2 % ({verdict(ic['pct_of_one_core'] <= 0.2)}) |"]
    return rows


def detail_lines(pr):
    if "mode" not in pr:
        return []
    return [f"- propagation: {pr['mode']}; {pr['write']}; {pr['changes']} changes per method"]
