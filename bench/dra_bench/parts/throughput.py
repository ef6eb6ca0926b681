"""Part throughput: requests per second and latency of the sidecar against nginx serving the same bytes."""
import os
import re
import shutil
import subprocess
import time

from .. import http_client
from ..context import log
from ..http_client import HOST, free_port
from ..metadata_files import ONE_CLAIM_PATH, one_claim_tree
from ..processes import tail
from ..report import verdict
from ..stats import median, rounded
from ..wrk import run_wrk

NAME = "throughput"


def add_arguments(parser):
    parser.add_argument("--wrk-seconds", type=int, default=10)
    parser.add_argument("--warmup-seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-c2-variant", action="store_true",
                        help="do not add a C2 sidecar to the throughput rounds when the shipped options stop at C1")


def run(ctx):
    a = ctx.args
    seconds = 2 if ctx.smoke else a.wrk_seconds
    rounds = 1 if ctx.smoke else a.rounds
    warmup = 3 if ctx.smoke else a.warmup_seconds
    root = one_claim_tree(ctx.work)
    path = ONE_CLAIM_PATH
    sidecar, port, _, _ = ctx.sidecars.start("throughput-sidecar", ctx.jdk17, root)
    body, content_type = _fetch_with_curl(ctx.work, port, path)
    nginx, nginx_port, nginx_body, nginx_content_type = _start_nginx(ctx, path, content_type)
    variant = _start_c2_variant(ctx, root)
    log(f"throughput: warm-up {warmup}s (sidecar), then {rounds} x ({seconds}s sidecar, {seconds}s nginx"
        f"{', ' + str(seconds) + 's sidecar with C2' if variant else ''}), wrk -t{ctx.wrk_threads} -c{ctx.wrk_conns}")
    run_wrk(ctx, port, path, warmup)
    if variant:
        run_wrk(ctx, variant["port"], path, warmup)
    run_wrk(ctx, nginx_port, path, min(warmup, 2))
    side, ngin, var = [], [], []
    for i in range(rounds):
        s = run_wrk(ctx, port, path, seconds, sample_pid=sidecar.pid)
        n = run_wrk(ctx, nginx_port, path, seconds)
        side.append(s)
        ngin.append(n)
        line = (f"  round {i + 1}: sidecar {s['rps']:.0f} req/s p50 {s['p50_ms']} ms p99 {s['p99_ms']} ms | "
                f"nginx {n['rps']:.0f} req/s p50 {n['p50_ms']} ms p99 {n['p99_ms']} ms")
        if variant:
            v = run_wrk(ctx, variant["port"], path, seconds)
            var.append(v)
            line += f" | sidecar C2 {v['rps']:.0f} req/s p99 {v['p99_ms']} ms"
        log(line)
    rss_under_load = max((s.get("rss_max_kib") or 0) for s in side)
    routes = _routes(ctx, port, max(2, seconds // 2), rounds)
    ctx.procs.stop(nginx)
    ctx.procs.stop(sidecar)
    if variant:
        ctx.procs.stop(variant["proc"])
    sidecar_rps, nginx_rps = median([s["rps"] for s in side]), median([n["rps"] for n in ngin])
    per_round = [s["rps"] / n["rps"] for s, n in zip(side, ngin) if s["rps"] and n["rps"]]
    res = {
        "path": path, "body_bytes": len(body), "content_type": content_type, "nginx_content_type": nginx_content_type,
        "nginx_body_identical": nginx_body == body,
        "wrk": f"-t{ctx.wrk_threads} -c{ctx.wrk_conns} -d{seconds}s --latency",
        "warmup_s": warmup, "rounds": rounds, "jdk": ctx.jdk17, "jvm_options": ctx.jvm_opts,
        "sidecar": _figures(side, rss_under_load_mib=rounded(rss_under_load / 1024)),
        "nginx": _figures(ngin),
        "ratio_rps": round(sidecar_rps / nginx_rps, 3) if sidecar_rps and nginx_rps else None,
        "ratio_rps_per_round": [round(x, 3) for x in per_round],
        "rounds_raw": {"sidecar": side, "nginx": ngin, "sidecar_c2": var},
    }
    if variant:
        variant_rps = median([v["rps"] for v in var])
        res["sidecar_c2"] = {"without": variant["without"], **_figures(var),
                             "ratio_rps": round(variant_rps / nginx_rps, 3) if variant_rps and nginx_rps else None}
    res["routes"] = routes
    res["target"] = "ratio >= 1.0"
    res["met"] = res["ratio_rps"] is not None and res["ratio_rps"] >= 1.0
    return res


# The request and its per-device attribute, which the fast read path and the resources answer from ready bytes,
# beside the plain calls, which the resources derive from the snapshot's entries per request. (label, path, headers)
ROUTES = [
    ("request (fast read path)", ONE_CLAIM_PATH, ()),
    ("per-device attribute, text", ONE_CLAIM_PATH + "/devices/gpu-0/attributes/uuid", ("Accept: text/plain",)),
    ("attribute across devices, JSON", ONE_CLAIM_PATH + "/attributes/uuid", ()),
    ("attribute across devices, text", ONE_CLAIM_PATH + "/attributes/uuid", ("Accept: text/plain",)),
    ("env", ONE_CLAIM_PATH + "/env", ()),
    ("/devices", "/devices", ()),
    ("/devices?attribute=index=0 projected to uuid, text", "/devices/attributes/uuid?attribute=index=0",
     ("Accept: text/plain",)),
]


def _routes(ctx, port, seconds, rounds):
    """Each of ROUTES on the same sidecar, in turn, `rounds` times: medians of req/s, p50 and p99 per route."""
    for _, path, headers in ROUTES:
        status, _, _ = http_client.get(port, path, headers=dict(h.split(": ", 1) for h in headers))
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}")
    log(f"throughput: {len(ROUTES)} routes, {rounds} x {seconds}s each, in turn")
    measured = {label: [] for label, _, _ in ROUTES}
    for _ in range(rounds):
        for label, path, headers in ROUTES:
            measured[label].append(run_wrk(ctx, port, path, seconds, headers=headers))
    return [{"route": label, "path": path, "accept": headers[0][len("Accept: "):] if headers else "*/*",
             **_figures(measured[label])} for label, path, headers in ROUTES]


def _figures(rounds, **more):
    """Medians over the rounds of one server: rps, p50 and p99 ms, and the sum of non-2xx answers."""
    figures = {"rps": rounded(median([r["rps"] for r in rounds])),
               "p50_ms": rounded(median([r["p50_ms"] for r in rounds]), 3),
               "p99_ms": rounded(median([r["p99_ms"] for r in rounds]), 3),
               "non2xx": sum(r["non2xx"] for r in rounds)}
    figures.update(more)
    return figures


def _fetch_with_curl(work, port, path):
    """The sidecar's body and content type for `path`, as a client sees them."""
    body_file = os.path.join(work, "sidecar-body.json")
    headers_file = os.path.join(work, "sidecar-headers.txt")
    subprocess.run(["curl", "-sS", "--fail", "-D", headers_file, "-o", body_file, f"http://{HOST}:{port}{path}"],
                   check=True)
    headers = open(headers_file).read()
    m = re.search(r"^content-type:\s*(.+?)\s*$", headers, re.M | re.I)
    return open(body_file, "rb").read(), (m.group(1) if m else "application/json")


def _start_nginx(ctx, path, content_type):
    """nginx with one worker and no access log, serving the sidecar's body (already fetched into the work
    directory) as a static file at `path` with the same content type; returns (process, port, body, type)."""
    base = os.path.join(ctx.work, "nginx")
    docroot = os.path.join(base, "root")
    os.makedirs(os.path.join(docroot, os.path.dirname(path.lstrip("/"))), exist_ok=True)
    shutil.copyfile(os.path.join(ctx.work, "sidecar-body.json"), os.path.join(docroot, path.lstrip("/")))
    port = free_port()
    conf = os.path.join(base, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""daemon off;
worker_processes 1;
pid {base}/nginx.pid;
error_log {base}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  types {{ }}
  default_type "{content_type}";
  keepalive_requests 1000000;
  keepalive_timeout 75s;
  client_body_temp_path {base}/tmp; proxy_temp_path {base}/tmp; fastcgi_temp_path {base}/tmp;
  uwsgi_temp_path {base}/tmp; scgi_temp_path {base}/tmp;
  server {{
    listen {HOST}:{port};
    root {docroot};
  }}
}}
""")
    os.makedirs(os.path.join(base, "tmp"), exist_ok=True)
    nginx = ctx.procs.start(["nginx", "-c", conf, "-p", base], os.path.join(base, "nginx.out"))
    for _ in range(200):
        try:
            http_client.get(port, path, timeout=1.0)
            break
        except OSError:
            time.sleep(0.02)
    else:
        raise RuntimeError("nginx did not start: " + tail(os.path.join(base, "error.log")))
    _, headers, body = http_client.get(port, path)
    return nginx, port, body, {k.lower(): v for k, v in headers.items()}.get("content-type")


def _start_c2_variant(ctx, root):
    """When the shipped options stop at C1, a second sidecar without them (so with C2) that runs in the same
    rounds: what the C1-only choice costs. None in smoke runs, with --no-c2-variant, or when nothing is C1-only."""
    c1_only = [o for o in ctx.jvm_opts if o.startswith(("-XX:TieredStopAtLevel", "-XX:CICompilerCount"))]
    if not c1_only or ctx.smoke or ctx.args.no_c2_variant:
        return None
    options = [o for o in ctx.jvm_opts if o not in c1_only]
    proc, port, _, _ = ctx.sidecars.start("throughput-sidecar-c2", ctx.jdk17, root, opts=options)
    return {"name": "sidecar_c2", "proc": proc, "port": port, "without": c1_only}


def summary_rows(t):
    if "sidecar" not in t:
        return []
    s, n = t["sidecar"], t["nginx"]
    rows = [f"| throughput sidecar / nginx (req/s) | {s['rps']:.0f} / {n['rps']:.0f} = **{t['ratio_rps']}** | >= 1.0 ({verdict(t['met'])}) |",
            f"| latency p50 sidecar / nginx | {s['p50_ms']} ms / {n['p50_ms']} ms | |",
            f"| latency p99 sidecar / nginx | {s['p99_ms']} ms / {n['p99_ms']} ms | |"]
    base = (t.get("routes") or [None])[0]
    for r in (t.get("routes") or [])[1:]:
        ratio = round(r["rps"] / base["rps"], 3) if r["rps"] and base["rps"] else None
        rows.append(f"| route `{r['path']}` ({r['accept']}) / request route (req/s) | {r['rps']:.0f} / {base['rps']:.0f} "
                    f"= **{ratio}**; p99 {r['p99_ms']} ms / {base['p99_ms']} ms | (diagnostic) |")
    if t.get("sidecar_c2"):
        v = t["sidecar_c2"]
        rows += [f"| same, sidecar without `{' '.join(v['without'])}` (C2) / nginx | {v['rps']:.0f} / {n['rps']:.0f} = **{v['ratio_rps']}**; p50 {v['p50_ms']} ms, p99 {v['p99_ms']} ms | (diagnostic) |"]
    return rows


def detail_lines(t):
    if "sidecar" not in t:
        return []
    return [f"- throughput: `wrk {t['wrk']}` on `GET {t['path']}` ({t['body_bytes']} bytes, `{t['content_type']}`; "
            f"nginx serves the identical bytes: {t['nginx_body_identical']}, content type `{t['nginx_content_type']}`); "
            f"{t['warmup_s']} s warm-up, {t['rounds']} alternating rounds; per-round ratios {t['ratio_rps_per_round']}; "
            f"non-2xx sidecar {t['sidecar']['non2xx']} nginx {t['nginx']['non2xx']}; sidecar RSS under this load {t['sidecar']['rss_under_load_mib']} MiB"]
