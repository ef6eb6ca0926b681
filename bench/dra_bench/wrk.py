"""Load with wrk, parsed into figures."""
import re
import subprocess
import time

from .http_client import HOST
from .processes import rss_kib

_MILLISECONDS_PER_UNIT = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _milliseconds(text):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text)
    return float(m.group(1)) * _MILLISECONDS_PER_UNIT[m.group(2)] if m else None


def run_wrk(ctx, port, path, seconds, sample_pid=None, headers=()):
    """`wrk --latency` with the run's threads and connections on `path` for `seconds`, sending `headers`
    ("Name: value" each): rps, p50/p90/p99 ms, non-2xx count, socket errors; with `sample_pid`, also the highest
    RSS of that process sampled every 100 ms. Raises RuntimeError when wrk reports no rate or failed connects
    (the server is gone)."""
    cmd = ["wrk", f"-t{ctx.wrk_threads}", f"-c{ctx.wrk_conns}", f"-d{seconds}s", "--latency"]
    for header in headers:
        cmd += ["-H", header]
    cmd.append(f"http://{HOST}:{port}{path}")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    ctx.procs.track(p)
    rss = []
    while p.poll() is None:
        if sample_pid:
            v = rss_kib(sample_pid)
            if v:
                rss.append(v)
        time.sleep(0.1)
    out = p.stdout.read()
    ctx.procs.forget(p)
    res = {"cmd": " ".join(cmd)}
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    res["rps"] = float(m.group(1)) if m else None
    if res["rps"] is None or re.search(r"Socket errors:.*connect [1-9]", out):
        raise RuntimeError(f"wrk against port {port} failed (server gone?): {out.strip()[-300:]}")
    for q in ("50", "90", "99"):
        m = re.search(rf"^\s+{q}(?:\.000)?%\s+(\S+)", out, re.M)
        res[f"p{q}_ms"] = _milliseconds(m.group(1)) if m else None
    m = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    res["non2xx"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors:(.*)", out)
    res["socket_errors"] = m.group(1).strip() if m else ""
    if sample_pid:
        res["rss_max_kib"] = max(rss) if rss else None
    return res
