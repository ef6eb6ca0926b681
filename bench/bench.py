#!/usr/bin/env python3
"""Benchmark suite of dra-metadata-sidecar (issue #7). Started by bench/run.sh; see bench/README.md.

Standard library only. Every server it starts listens on 127.0.0.1 only and every request goes to
127.0.0.1. Every process it starts is put in its own session, its pid written to <work>/pids, and
killed (whole process group) when the run ends, however it ends.
"""
import argparse
import datetime
import hashlib
import http.client
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

import image_part

CLK_TCK = os.sysconf("SC_CLK_TCK")
DEFAULT_JVM_OPTS = ["-XX:+UseSerialGC", "-Xss512k", "-XX:ReservedCodeCacheSize=32m", "-XX:MaxRAMPercentage=75"]
HOST = "127.0.0.1"


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ----------------------------------------------------------------------------- processes

class Procs:
    """Every child runs in its own session (process group); all are killed on exit."""

    def __init__(self, pidfile):
        self.pidfile = pidfile
        self.live = []

    def start(self, cmd, logpath, env=None, cwd=None):
        logf = open(logpath, "ab")
        p = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             env=env, cwd=cwd, start_new_session=True)
        logf.close()
        p.logpath = logpath
        self.live.append(p)
        with open(self.pidfile, "a") as f:
            f.write(f"{p.pid}\n")
        return p

    def stop(self, p, grace=10.0):
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                p.wait(grace)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        # a process group may outlive its leader (e.g. nginx workers): make sure it is gone
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if p in self.live:
            self.live.remove(p)

    def stop_all(self):
        for p in list(self.live):
            self.stop(p, grace=3.0)


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# ----------------------------------------------------------------------------- /proc

def rss_kib(pid):
    return _status_field(pid, "VmRSS")


def hwm_kib(pid):
    return _status_field(pid, "VmHWM")


def _status_field(pid, name):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return int(line.split()[1])
    except FileNotFoundError:
        return None
    return None


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15), all threads


# ----------------------------------------------------------------------------- HTTP

def http_get(port, path, timeout=5.0, headers=None):
    c = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        c.request("GET", path, headers=headers or {})
        r = c.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        c.close()


class KeepAlive:
    def __init__(self, port, timeout=10.0):
        self.port, self.timeout, self.c = port, timeout, None

    def get(self, path):
        for attempt in (1, 2):
            if self.c is None:
                self.c = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            try:
                self.c.request("GET", path)
                r = self.c.getresponse()
                return r.status, dict((k.lower(), v) for k, v in r.getheaders()), r.read()
            except (http.client.HTTPException, OSError):
                self.c.close()
                self.c = None
                if attempt == 2:
                    raise

    def close(self):
        if self.c:
            self.c.close()


# ----------------------------------------------------------------------------- fixtures

def device_metadata(claim, request, driver, generation, index=0, api="v1beta1"):
    """A realistic file object: a GPU as the example driver of the Kubernetes docs writes it."""
    h = hashlib.sha1(f"{claim}/{request}/{driver}/{index}".encode()).hexdigest()
    return {
        "kind": "DeviceMetadata",
        "apiVersion": f"metadata.resource.k8s.io/{api}",
        "metadata": {"name": claim, "namespace": "bench", "uid": f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}",
                     "generation": generation},
        "requests": [{
            "name": request,
            "devices": [{
                "driver": driver,
                "pool": "worker-0",
                "name": f"gpu-{index}",
                "attributes": {
                    "driverVersion": {"version": "1.0.0"},
                    "index": {"int": index},
                    "model": {"string": "LATEST-GPU-MODEL"},
                    "resource.kubernetes.io/pciBusID": {"string": f"0000:{index + 1:02x}:00.0"},
                    "uuid": {"string": f"gpu-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"},
                },
            }],
        }],
    }


def stream_bytes(claim, request, driver, generation, index=0):
    """What the Go framework writes for a driver configured with v1beta1 then v1alpha1 (§3)."""
    parts = [json.dumps(device_metadata(claim, request, driver, generation, index, api), indent=2)
             for api in ("v1beta1", "v1alpha1")]
    return ("\n".join(parts) + "\n").encode()


def write_in_place(path, data):
    """Like Go's os.WriteFile: open with O_TRUNC (same inode), write, close. Not atomic."""
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def make_tree(root, claims, requests, driver="gpu.example.com"):
    base = os.path.join(root, "resourceclaims")
    os.makedirs(base, exist_ok=True)
    for c in claims:
        for i, r in enumerate(requests):
            d = os.path.join(base, c, r)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, f"{driver}-metadata.json"), "wb") as f:
                f.write(stream_bytes(c, r, driver, 1, i))


# ----------------------------------------------------------------------------- stats

def pct(values, p):
    """Nearest-rank percentile."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def r1(x, n=1):
    return None if x is None else round(x, n)


# ----------------------------------------------------------------------------- wrk

_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _ms(text):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text)
    return float(m.group(1)) * _UNITS[m.group(2)] if m else None


def run_wrk(bench, port, path, seconds, sample_pid=None):
    cmd = ["wrk", f"-t{bench.wrk_threads}", f"-c{bench.wrk_conns}", f"-d{seconds}s", "--latency",
           f"http://{HOST}:{port}{path}"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    bench.procs.live.append(p)
    rss = []
    while p.poll() is None:
        if sample_pid:
            v = rss_kib(sample_pid)
            if v:
                rss.append(v)
        time.sleep(0.1)
    out = p.stdout.read()
    bench.procs.live.remove(p)
    res = {"cmd": " ".join(cmd)}
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    res["rps"] = float(m.group(1)) if m else None
    if res["rps"] is None or re.search(r"Socket errors:.*connect [1-9]", out):
        raise RuntimeError(f"wrk against port {port} failed (server gone?): {out.strip()[-300:]}")
    for q in ("50", "90", "99"):
        m = re.search(rf"^\s+{q}(?:\.000)?%\s+(\S+)", out, re.M)
        res[f"p{q}_ms"] = _ms(m.group(1)) if m else None
    m = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    res["non2xx"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors:(.*)", out)
    res["socket_errors"] = m.group(1).strip() if m else ""
    if res["rps"] is None:
        res["raw"] = out[-2000:]
    if sample_pid:
        res["rss_max_kib"] = max(rss) if rss else None
    return res


# ----------------------------------------------------------------------------- the bench

class Bench:
    def __init__(self, args):
        self.args = args
        self.smoke = args.smoke
        self.jar = os.path.abspath(args.jar)
        self.work = os.path.abspath(args.work)
        self.procs = Procs(os.path.join(self.work, "pids"))
        self.wrk_threads, self.wrk_conns = args.wrk_threads, args.wrk_conns
        self.jdk17, self.jdk25 = args.jdk17, args.jdk25
        self.results = {"mode": "smoke" if self.smoke else "full", "parts": {}, "notes": []}
        self.jvm_opts, self.jvm_opts_source = self.find_jvm_opts()
        self.seq = 0

    # -- configuration -----------------------------------------------------------------

    # options of the image that point at files of the image or that the bench sets itself
    _DROPPED = ("-XX:AOTCache=", "-XX:AOTCacheOutput=", "-XX:AOTConfiguration=", "-XX:AOTMode=", "-Xshare:",
                "-XX:SharedArchiveFile=", "-XX:MaxRAM=")

    def find_jvm_opts(self):
        """The shipped JVM options: src/main/docker/jvm-options (a java @argfile), else JAVA_OPTS* in a
        Dockerfile there, else the issue's default. Options naming files of the image (AOT cache, CDS archive)
        are dropped: the bench makes its own cache for the AOT configuration."""
        repo = self.args.repo
        opts, source = None, None
        f = os.path.join(repo, "src/main/docker/jvm-options")
        if os.path.isfile(f):
            opts = []
            for line in open(f):
                line = line.split("#", 1)[0].strip()
                if line:
                    opts += line.split()
            source = "src/main/docker/jvm-options"
        ddir = os.path.join(repo, "src/main/docker")
        if not opts and os.path.isdir(ddir):
            for name in sorted(os.listdir(ddir)):
                if not name.lower().startswith("dockerfile"):
                    continue
                text = open(os.path.join(ddir, name), errors="replace").read().replace("\\\n", " ")
                m = re.search(r"\bJAVA_OPTS(?:_APPEND)?\s*=\s*\"([^\"]*)\"", text) or \
                    re.search(r"\bJAVA_OPTS(?:_APPEND)?\s*=\s*(\S+)", text)
                if m:
                    opts = [o for o in m.group(1).split() if o.startswith("-X") or o.startswith("-D")]
                    if opts:
                        source = f"src/main/docker/{name} (JAVA_OPTS)"
                        break
        if not opts:
            opts, source = list(DEFAULT_JVM_OPTS), "the default of issue #7 (no JVM options found in src/main/docker/)"
        dropped = [o for o in opts if o.startswith(self._DROPPED)]
        opts = [o for o in opts if not o.startswith(self._DROPPED)]
        if dropped:
            source += f" without {' '.join(dropped)}"
        if self.args.max_ram:
            opts.append(f"-XX:MaxRAM={self.args.max_ram}")
            source += f", plus -XX:MaxRAM={self.args.max_ram} to size the heap as under the pod's memory limit"
        return opts, source

    # -- sidecar -------------------------------------------------------------------------

    def java_cmd(self, jdk, root, http_port, mgmt_port, extra=(), opts=None):
        """The options go into a java @argfile (as the image does it) so that the command line reads
        `java @bench/work/NN-name.args`: a process hunt for "quarkus-run.jar" by someone else on a shared
        machine does not hit the sidecar under test."""
        args = [*(self.jvm_opts if opts is None else opts), *extra,
                f"-Dquarkus.http.host={HOST}", f"-Dquarkus.http.port={http_port}",
                f"-Dquarkus.management.host={HOST}", f"-Dquarkus.management.port={mgmt_port}",
                f"-Ddra.metadata.root={root}", "-jar", self.jar]
        argfile = os.path.join(self.work, f"{self.seq:02d}.args")
        with open(argfile, "w") as f:
            f.write("\n".join(args) + "\n")
        return [os.path.join(jdk, "bin/java"), "@" + argfile]

    def start_sidecar(self, name, jdk, root, extra=(), wrap=None, cwd=None, opts=None, timeout=60.0):
        """Starts the sidecar; returns (proc, http_port, mgmt_port, seconds to /q/health/started UP)."""
        self.seq += 1
        http_port, mgmt_port = free_port(), free_port()
        if self.args.stub:  # harness self-test without the real sidecar
            cmd = [sys.executable, self.args.stub, "--root", root, "--http-port", str(http_port),
                   "--mgmt-port", str(mgmt_port)]
        else:
            cmd = self.java_cmd(jdk, root, http_port, mgmt_port, extra, opts)
        if wrap:
            cmd = wrap + cmd
        env = dict(os.environ, DRA_METADATA_ROOT=root)
        logpath = os.path.join(self.work, f"{self.seq:02d}-{name}.log")
        t0 = time.monotonic()
        p = self.procs.start(cmd, logpath, env=env, cwd=cwd or self.work)
        try:
            started = self.wait_started(p, mgmt_port, t0, timeout)
        except RuntimeError:
            self.procs.stop(p)
            raise
        return p, http_port, mgmt_port, started

    def wait_started(self, p, mgmt_port, t0, timeout=60.0):
        while time.monotonic() - t0 < timeout:
            if p.poll() is not None:
                raise RuntimeError(f"sidecar exited with {p.returncode}; log {p.logpath}:\n{tail(p.logpath)}")
            try:
                c = http.client.HTTPConnection(HOST, mgmt_port, timeout=1.0)
                c.request("GET", "/q/health/started")
                r = c.getresponse()
                body = r.read()
                c.close()
                if r.status == 200 and b'"UP"' in body:
                    return time.monotonic() - t0
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.01)
        raise RuntimeError(f"sidecar not started after {timeout}s; log {p.logpath}:\n{tail(p.logpath)}")

    def idle_cpu(self, pid, seconds):
        time.sleep(1.0)
        t0, c0 = time.monotonic(), cpu_ticks(pid)
        time.sleep(seconds)
        t1, c1 = time.monotonic(), cpu_ticks(pid)
        cpu_s = (c1 - c0) / CLK_TCK
        return {"seconds": r1(t1 - t0, 2), "cpu_s": cpu_s, "pct_of_one_core": round(100.0 * cpu_s / (t1 - t0), 3),
                "resolution_pct": round(100.0 / CLK_TCK / (t1 - t0), 3)}

    # -- part 1: throughput ---------------------------------------------------------------

    def part_throughput(self):
        a = self.args
        dur = 2 if self.smoke else a.wrk_seconds
        rounds = 1 if self.smoke else a.rounds
        warm = 3 if self.smoke else a.warmup_seconds
        root = os.path.join(self.work, "tree-throughput")
        make_tree(root, ["gpu-claim"], ["gpu"])
        path = "/claims/gpu-claim/gpu"
        p, port, mport, started = self.start_sidecar("throughput-sidecar", self.jdk17, root)
        body_file = os.path.join(self.work, "sidecar-body.json")
        hdr_file = os.path.join(self.work, "sidecar-headers.txt")
        subprocess.run(["curl", "-sS", "--fail", "-D", hdr_file, "-o", body_file, f"http://{HOST}:{port}{path}"],
                       check=True)
        headers = open(hdr_file).read()
        m = re.search(r"^content-type:\s*(.+?)\s*$", headers, re.M | re.I)
        ctype = m.group(1) if m else "application/json"
        body = open(body_file, "rb").read()

        # nginx: one worker, no access log, the same bytes as a static file with the same content type
        ngx = os.path.join(self.work, "nginx")
        docroot = os.path.join(ngx, "root")
        os.makedirs(os.path.join(docroot, "claims/gpu-claim"), exist_ok=True)
        shutil.copyfile(body_file, os.path.join(docroot, "claims/gpu-claim/gpu"))
        nport = free_port()
        conf = os.path.join(ngx, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""daemon off;
worker_processes 1;
pid {ngx}/nginx.pid;
error_log {ngx}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  types {{ }}
  default_type "{ctype}";
  keepalive_requests 1000000;
  keepalive_timeout 75s;
  client_body_temp_path {ngx}/tmp; proxy_temp_path {ngx}/tmp; fastcgi_temp_path {ngx}/tmp;
  uwsgi_temp_path {ngx}/tmp; scgi_temp_path {ngx}/tmp;
  server {{
    listen {HOST}:{nport};
    root {docroot};
  }}
}}
""")
        os.makedirs(os.path.join(ngx, "tmp"), exist_ok=True)
        np_ = self.procs.start(["nginx", "-c", conf, "-p", ngx], os.path.join(ngx, "nginx.out"))
        for _ in range(200):
            try:
                st, _, nbody = http_get(nport, path, timeout=1.0)
                break
            except OSError:
                time.sleep(0.02)
        else:
            raise RuntimeError("nginx did not start: " + tail(os.path.join(ngx, "error.log")))
        _, nh, nbody = http_get(nport, path)
        same = nbody == body
        nginx_ctype = {k.lower(): v for k, v in nh.items()}.get("content-type")

        # a second sidecar with C2 when the shipped options stop at C1: what the C1-only choice costs
        variant = None
        c1_only = [o for o in self.jvm_opts if o.startswith(("-XX:TieredStopAtLevel", "-XX:CICompilerCount"))]
        if c1_only and not self.smoke and not a.no_c2_variant:
            v_opts = [o for o in self.jvm_opts if o not in c1_only]
            vp, vport, _, _ = self.start_sidecar("throughput-sidecar-c2", self.jdk17, root, opts=v_opts)
            variant = {"name": "sidecar_c2", "proc": vp, "port": vport, "without": c1_only}
        log(f"throughput: warm-up {warm}s (sidecar), then {rounds} x ({dur}s sidecar, {dur}s nginx"
            f"{', ' + str(dur) + 's sidecar with C2' if variant else ''}), wrk -t{self.wrk_threads} -c{self.wrk_conns}")
        run_wrk(self, port, path, warm)
        if variant:
            run_wrk(self, variant["port"], path, warm)
        run_wrk(self, nport, path, min(warm, 2))
        side, ngin, var = [], [], []
        for i in range(rounds):
            s = run_wrk(self, port, path, dur, sample_pid=p.pid)
            n = run_wrk(self, nport, path, dur)
            side.append(s)
            ngin.append(n)
            line = (f"  round {i + 1}: sidecar {s['rps']:.0f} req/s p50 {s['p50_ms']} ms p99 {s['p99_ms']} ms | "
                    f"nginx {n['rps']:.0f} req/s p50 {n['p50_ms']} ms p99 {n['p99_ms']} ms")
            if variant:
                v = run_wrk(self, variant["port"], path, dur)
                var.append(v)
                line += f" | sidecar C2 {v['rps']:.0f} req/s p99 {v['p99_ms']} ms"
            log(line)
        rss_load = max((s.get("rss_max_kib") or 0) for s in side)
        self.procs.stop(np_)
        self.procs.stop(p)
        if variant:
            self.procs.stop(variant["proc"])
        sm, nm = med([s["rps"] for s in side]), med([n["rps"] for n in ngin])
        pair = [s["rps"] / n["rps"] for s, n in zip(side, ngin) if s["rps"] and n["rps"]]
        res = {
            "path": path, "body_bytes": len(body), "content_type": ctype, "nginx_content_type": nginx_ctype,
            "nginx_body_identical": same, "wrk": f"-t{self.wrk_threads} -c{self.wrk_conns} -d{dur}s --latency",
            "warmup_s": warm, "rounds": rounds, "jdk": self.jdk17, "jvm_options": self.jvm_opts,
            "sidecar": {"rps": r1(sm), "p50_ms": r1(med([s["p50_ms"] for s in side]), 3),
                        "p99_ms": r1(med([s["p99_ms"] for s in side]), 3),
                        "non2xx": sum(s["non2xx"] for s in side), "rss_under_load_mib": r1(rss_load / 1024)},
            "nginx": {"rps": r1(nm), "p50_ms": r1(med([n["p50_ms"] for n in ngin]), 3),
                      "p99_ms": r1(med([n["p99_ms"] for n in ngin]), 3), "non2xx": sum(n["non2xx"] for n in ngin)},
            "ratio_rps": round(sm / nm, 3) if sm and nm else None,
            "ratio_rps_per_round": [round(x, 3) for x in pair],
            "rounds_raw": {"sidecar": side, "nginx": ngin, "sidecar_c2": var},
        }
        if variant:
            vm = med([v["rps"] for v in var])
            res["sidecar_c2"] = {"without": variant["without"], "rps": r1(vm),
                                 "p50_ms": r1(med([v["p50_ms"] for v in var]), 3),
                                 "p99_ms": r1(med([v["p99_ms"] for v in var]), 3),
                                 "non2xx": sum(v["non2xx"] for v in var),
                                 "ratio_rps": round(vm / nm, 3) if vm and nm else None}
        res["target"] = "ratio >= 1.0"
        res["met"] = res["ratio_rps"] is not None and res["ratio_rps"] >= 1.0
        return res

    # -- part 2: change propagation and idle CPU -----------------------------------------

    def namespace_available(self):
        if os.geteuid() != 0 or not shutil.which("unshare"):
            return False, "not root or no unshare"
        t = os.path.join(self.work, "ns-probe")
        open(t + ".src", "w").write("x")
        open(t + ".dst", "w").close()
        r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            f'mount --bind -o ro "{t}.src" "{t}.dst" && cat "{t}.dst"'],
                           capture_output=True, text=True)
        ok = r.returncode == 0 and r.stdout == "x"
        return ok, (r.stderr.strip() or f"rc={r.returncode}")

    def part_propagation(self):
        a = self.args
        changes = 20 if self.smoke else a.changes
        idle_s = 3 if self.smoke else a.idle_seconds
        root = os.path.join(self.work, "tree-propagation")
        target_dir = os.path.join(root, "resourceclaims/c/r")
        os.makedirs(target_dir, exist_ok=True)
        target = os.path.join(target_dir, "d-metadata.json")
        host = os.path.join(self.work, "host-d-metadata.json")
        gen = 1
        write_in_place(host, stream_bytes("c", "r", "d", gen))
        ns_ok, why = self.namespace_available()
        wrap = None
        if ns_ok and not a.no_namespace:
            open(target, "wb").close()  # the mount point, as the container runtime creates it
            wrap = ["unshare", "-m", "--propagation", "private", "bash", "-c",
                    'mount --bind -o ro "$1" "$2" && exec "${@:3}"', "bind", host, target]
            mode = "read-only single-file bind mount in a private mount namespace (unshare -m), sidecar inside it"
        else:
            host = target
            write_in_place(host, stream_bytes("c", "r", "d", gen))
            mode = f"plain file (mount namespace unavailable: {why})" if not a.no_namespace else "plain file (--no-namespace)"
        p, port, mport, started = self.start_sidecar("propagation", self.jdk17, root, wrap=wrap)
        path = "/claims/c/r/drivers/d"
        ka = KeepAlive(port)
        st, h, b = ka.get(path)
        if st != 200:
            raise RuntimeError(f"GET {path} -> {st}: {b[:300]!r}")
        if json.loads(b)["metadata"]["generation"] != 1:
            raise RuntimeError(f"unexpected generation in {b[:300]!r}")
        if wrap:  # prove the sidecar reads through the mount: the same path outside the namespace is empty
            if os.path.getsize(target) != 0:
                raise RuntimeError("mount point is not empty outside the namespace")
        log(f"propagation: {changes} in-place rewrites, {mode}")

        # (a) tight polling of the driver endpoint (1 ms between requests, keep-alive)
        lat_poll = []
        for _ in range(changes):
            time.sleep(random.uniform(0.005, 0.06))  # random phase against the sidecar's poll timer
            gen += 1
            t0 = time.monotonic()
            write_in_place(host, stream_bytes("c", "r", "d", gen))
            while True:
                st, h, b = ka.get(path)
                if st == 200 and json.loads(b)["metadata"].get("generation") == gen:
                    lat_poll.append((time.monotonic() - t0) * 1000)
                    break
                if time.monotonic() - t0 > 5:
                    lat_poll.append(None)
                    break
                time.sleep(0.001)
        missed = sum(1 for x in lat_poll if x is None)
        lat_poll = [x for x in lat_poll if x is not None]

        # (b) the long poll, if the sidecar implements it
        lat_lp, lp_note = [], None
        st, h, b = ka.get(path)
        etag = h.get("etag")
        lp_supported = False
        if etag:
            t0 = time.monotonic()
            st2, h2, _ = ka.get(f"{path}?waitForChange=true&lastEtag={_q(etag)}&timeoutSeconds=1")
            waited = time.monotonic() - t0
            lp_supported = st2 == 200 and waited >= 0.8
            if not lp_supported:
                lp_note = f"long poll not honoured (status {st2}, answered after {waited:.3f}s)"
        else:
            lp_note = "no ETag header"
        lp_missed = 0
        if lp_supported:
            for _ in range(changes):
                st, h, b = ka.get(path)
                etag = h["etag"]
                box = {}

                def waiter(e=etag, g=gen + 1):
                    c = KeepAlive(port, timeout=10)
                    try:
                        e2 = e
                        while True:
                            s_, h_, b_ = c.get(f"{path}?waitForChange=true&lastEtag={_q(e2)}&timeoutSeconds=5")
                            t = time.monotonic()
                            if s_ == 200 and json.loads(b_)["metadata"].get("generation") == g:
                                box["t"] = t
                                return
                            if "t0" in box and t - box["t0"] > 5:
                                return
                            e2 = h_.get("etag", e2)
                            box.setdefault("early", 0)
                            box["early"] += 1
                    finally:
                        c.close()

                th = threading.Thread(target=waiter, daemon=True)
                th.start()
                time.sleep(random.uniform(0.01, 0.06))  # the long poll is parked in the sidecar by now
                gen += 1
                box["t0"] = time.monotonic()
                write_in_place(host, stream_bytes("c", "r", "d", gen))
                th.join(12)
                if "t" in box:
                    lat_lp.append((box["t"] - box["t0"]) * 1000)
                else:
                    lp_missed += 1
        ka.close()

        idle = self.idle_cpu(p.pid, idle_s)
        rss = rss_kib(p.pid)
        self.procs.stop(p)
        res = {
            "mode": mode, "changes": changes, "default_poll_interval": True, "jdk": self.jdk17,
            "write": "open(O_TRUNC)+write+close of the host file, generation+1 each time (like Go os.WriteFile)",
            "poll_method": {"p50_ms": r1(pct(lat_poll, 50), 2), "p99_ms": r1(pct(lat_poll, 99), 2),
                            "max_ms": r1(max(lat_poll) if lat_poll else None, 2), "n": len(lat_poll),
                            "missed_5s": missed},
            "longpoll_method": ({"p50_ms": r1(pct(lat_lp, 50), 2), "p99_ms": r1(pct(lat_lp, 99), 2),
                                 "max_ms": r1(max(lat_lp) if lat_lp else None, 2), "n": len(lat_lp),
                                 "missed": lp_missed} if lp_supported else {"skipped": lp_note}),
            "idle_cpu": idle, "rss_mib": r1(rss / 1024 if rss else None),
        }
        p99 = res["poll_method"]["p99_ms"]
        res["target"] = "p99 <= 100 ms; idle CPU <= 0.5 % of one core"
        res["met"] = p99 is not None and p99 <= 100 and missed == 0 and idle["pct_of_one_core"] <= 0.5
        return res

    # -- part 3: footprint ----------------------------------------------------------------

    def part_footprint(self):
        a = self.args
        reps = 1 if self.smoke else a.start_reps
        warm = 2 if self.smoke else 5
        load = 2 if self.smoke else 5
        root = os.path.join(self.work, "tree-throughput")
        if not os.path.isdir(root):
            make_tree(root, ["gpu-claim"], ["gpu"])
        path = "/claims/gpu-claim/gpu"
        configs = [["jdk17", self.jdk17, []]]
        out = {"jvm_options": self.jvm_opts, "jvm_options_source": self.jvm_opts_source, "configs": {}}
        if self.smoke:
            pass  # JDK 17 only: the smoke run stays within a minute
        elif os.path.isfile(os.path.join(self.jdk25, "bin/java")):
            configs.append(["temurin25", self.jdk25, []])
            # JDK AOT cache (JEP 483/514/515): one training run, then every start uses the cache;
            # -XX:AOTMode=on makes the JVM fail instead of silently starting without an unusable cache
            aot = os.path.join(self.work, "app.aot")
            extra, note = self.aot_training(self.jdk25, root, path, aot)
            if extra is None:
                out["configs"]["temurin25-aot"] = {"skipped": note}
            else:
                configs.append(["temurin25-aot", self.jdk25, extra + ["-XX:AOTMode=on"]])
                out["aot"] = note
        else:
            self.results["notes"].append(f"no JDK at {self.jdk25}: Temurin 25 footprint skipped")
        data = {name: {"starts": [], "quarkus": []} for name, _, _ in configs}
        # the configurations alternate start by start, so that a change in the machine's load hits all alike
        for i in range(reps):
            for name, jdk, extra in configs:
                d = data[name]
                p, port, mport, started = self.start_sidecar(f"footprint-{name}", jdk, root, extra=extra)
                d["starts"].append(started)
                d["quarkus"].append(quarkus_started_in(p.logpath))
                if i == reps - 1:
                    st, _, _ = http_get(port, path)
                    if st != 200:
                        raise RuntimeError(f"{name}: GET {path} -> {st}")
                    run_wrk(self, port, path, warm)
                    time.sleep(1.0 if self.smoke else 2.0)
                    d["rss_w"] = rss_kib(p.pid)
                    w = run_wrk(self, port, path, load, sample_pid=p.pid)
                    d["rss_l"] = w.get("rss_max_kib")
                    d["hwm"] = hwm_kib(p.pid)
                    d["rps"] = w.get("rps")
                self.procs.stop(p)
        for name, jdk, extra in configs:
            d = data[name]
            starts = d["starts"]
            out["configs"][name] = c = {
                "jdk": jdk, "extra_options": extra, "starts_s": [round(x, 3) for x in starts],
                "started_s_median": round(med(starts), 3), "started_s_min": round(min(starts), 3),
                "quarkus_started_in_s": d["quarkus"],
                "rss_after_warmup_mib": r1(d["rss_w"] / 1024 if d.get("rss_w") else None),
                "rss_under_load_mib": r1(d["rss_l"] / 1024 if d.get("rss_l") else None),
                "vmhwm_mib": r1(d["hwm"] / 1024 if d.get("hwm") else None),
                "rps_during_load": r1(d.get("rps")),
            }
            log(f"footprint {name}: started {c['started_s_median']} s (min {c['started_s_min']}), "
                f"RSS warm {c['rss_after_warmup_mib']} MiB, under load {c['rss_under_load_mib']} MiB")
        j17 = out["configs"].get("jdk17", {})
        out["target"] = "started <= 0.8 s; RSS <= 96 MiB after warm-up, <= 128 MiB under load"
        out["met_jdk17"] = bool(j17) and j17["started_s_median"] <= 0.8 and (j17["rss_after_warmup_mib"] or 1e9) <= 96 \
            and (j17["rss_under_load_mib"] or 1e9) <= 128
        return out

    def aot_training(self, jdk, root, path, aot):
        """Training run with -XX:AOTCacheOutput (JEP 514 one-step workflow), exercised with real requests."""
        if os.path.exists(aot):
            os.remove(aot)
        t0 = time.monotonic()
        p, port, mport, _ = self.start_sidecar("aot-training", jdk, root, extra=[f"-XX:AOTCacheOutput={aot}"])
        for pth in (path, "/claims", "/claims/gpu-claim", "/claims/gpu-claim/gpu/drivers/gpu.example.com",
                    "/claims/nope/x"):
            http_get(port, pth)
        for pth in ("/q/health/ready", "/q/health/live", "/q/metrics"):
            http_get(mport, pth)
        run_wrk(self, port, path, 3)
        self.procs.stop(p, grace=120.0)  # the JVM writes the cache at exit
        took = time.monotonic() - t0
        if not os.path.isfile(aot):
            return None, f"training run wrote no AOT cache; log {p.logpath}: {tail(p.logpath, 5)}"
        size = os.path.getsize(aot)
        log(f"AOT cache: {size / 1048576:.1f} MiB from a {took:.1f}s training run")
        return [f"-XX:AOTCache={aot}"], (f"-XX:AOTCacheOutput training run ({took:.1f} s incl. 3 s of wrk load), "
                                          f"cache {size / 1048576:.1f} MiB; plain `-jar quarkus-run.jar` as packaged")

    # -- part 4: scale --------------------------------------------------------------------

    def part_scale(self):
        a = self.args
        claims, reqs = (100, 10) if self.smoke else (a.scale_claims, 10)
        idle_s = 3 if self.smoke else a.idle_seconds
        root = os.path.join(self.work, "tree-scale")
        t0 = time.monotonic()
        make_tree(root, [f"claim-{i:04d}" for i in range(claims)], [f"req-{j}" for j in range(reqs)])
        gen_s = time.monotonic() - t0
        files = claims * reqs
        base_root = os.path.join(self.work, "tree-throughput")
        if not os.path.isdir(base_root):
            make_tree(base_root, ["gpu-claim"], ["gpu"])
        res = {"files": files, "claims": claims, "requests_per_claim": reqs, "tree_written_s": round(gen_s, 2)}
        # first with the pod-sized heap; if the sidecar does not get up with it, again with the host's memory
        attempts = [("pod-sized heap", self.jvm_opts)]
        if any(o.startswith("-XX:MaxRAM=") for o in self.jvm_opts):
            attempts.append(("heap sized for a 1 GiB pod (-XX:MaxRAM=1g)",
                             [o for o in self.jvm_opts if not o.startswith("-XX:MaxRAM=")] + ["-XX:MaxRAM=1g"]))
        p = None
        for label, opts in attempts:
            q, _, _, base = self.start_sidecar("scale-baseline", self.jdk17, base_root, opts=opts)
            self.procs.stop(q)
            try:
                p, port, mport, big = self.start_sidecar("scale", self.jdk17, root, opts=opts,
                                                         timeout=a.scale_timeout)
                res["heap"] = label
                break
            except RuntimeError as e:
                logpath = os.path.join(self.work, f"{self.seq:02d}-scale.log")
                text = open(logpath, errors="replace").read()
                res.setdefault("failed_attempts", []).append({
                    "heap": label, "options": opts,
                    "error": str(e).splitlines()[0][:200],
                    "out_of_memory": "OutOfMemoryError" in text,
                    "files_decoded_in_log": len(re.findall(r": generation \S+ \(", text)),
                })
                log(f"scale: not started with {label}: {str(e).splitlines()[0][:120]}; OOM in log: "
                    f"{'OutOfMemoryError' in text}")
        if p is None:
            raise RuntimeError(f"the sidecar did not start on {files} files: {res['failed_attempts']}")
        rss_started = rss_kib(p.pid)
        st, _, b = http_get(port, "/claims", timeout=30)
        listed = len(json.loads(b).get("claims", [])) if st == 200 else None
        st2, _, _ = http_get(port, f"/claims/claim-{claims // 2:04d}/req-3")
        idle = self.idle_cpu(p.pid, idle_s)
        rss_idle = rss_kib(p.pid)
        scan_log = scan_from_log(p.logpath)
        self.procs.stop(p)
        poll = a.poll_interval_ms / 1000.0
        res.update({
            "started_s_one_file_tree": round(base, 3), "started_s_big_tree": round(big, 3),
            # the store's own log is the better figure: one start minus another is at the mercy of the load
            "scan_s": scan_log if scan_log is not None else round(big - base, 3),
            "scan_s_start_difference": round(big - base, 3), "scan_s_from_log": scan_log,
            "quarkus_started_in_s": quarkus_started_in(p.logpath),
            "claims_listed": listed, "sample_get_status": st2,
            "rss_after_start_mib": r1(rss_started / 1024 if rss_started else None),
            "rss_idle_mib": r1(rss_idle / 1024 if rss_idle else None),
            "idle_cpu": idle,
            "refresh_cycle_cpu_ms": round(idle["cpu_s"] / idle["seconds"] * poll * 1000, 3),
            "refresh_cycle_note": f"idle CPU seconds per second x poll interval {a.poll_interval_ms} ms (the default)",
        })
        log(f"scale: {files} files, scan {res['scan_s']} s (store log {scan_log} s), RSS {res['rss_idle_mib']} MiB, "
            f"idle CPU {idle['pct_of_one_core']} % ({res['heap']})")
        res["target"] = "scan <= 2 s"
        res["met"] = res["scan_s"] <= 2.0 and listed == claims and res["heap"] == "pod-sized heap"
        return res

    # -- driver ---------------------------------------------------------------------------

    def machine(self):
        def out(cmd):
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
                return (r.stdout + r.stderr).strip()
            except Exception as e:  # noqa
                return f"n/a ({e})"
        cpu = "n/a"
        try:
            cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
        except Exception:  # noqa
            pass
        mem = next((l.split(":", 1)[1].strip() for l in open("/proc/meminfo") if l.startswith("MemTotal")), "n/a")
        jar_commit = out(["git", "-C", self.args.repo, "rev-parse", "--short", "HEAD"])
        return {
            "nproc": os.cpu_count(), "cpu": cpu, "mem_total": mem, "kernel": platform.release(),
            "os": out(["sh", "-c", ". /etc/os-release; echo $PRETTY_NAME"]),
            "jdk17": out([os.path.join(self.jdk17, "bin/java"), "-version"]).splitlines()[:3],
            "jdk25": out([os.path.join(self.jdk25, "bin/java"), "-version"]).splitlines()[:3],
            "nginx": out(["nginx", "-v"]), "wrk": out(["wrk", "--version"]).splitlines()[0],
            "python": platform.python_version(), "loadavg_start": open("/proc/loadavg").read().split()[:3],
            "jar": self.jar, "jar_mtime": datetime.datetime.utcfromtimestamp(os.path.getmtime(self.jar)).strftime(
                "%Y-%m-%dT%H:%M:%SZ") if os.path.exists(self.jar) else None,
            "repo_commit": jar_commit,
        }

    def run(self):
        t_start = time.monotonic()
        self.results["started_utc"] = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
        self.results["machine"] = self.machine()
        self.results["stub"] = bool(self.args.stub)
        parts = [("throughput", self.part_throughput), ("propagation", self.part_propagation),
                 ("footprint", self.part_footprint), ("scale", self.part_scale),
                 ("image", lambda: image_part.part_image(self, sys.modules[__name__]))]
        only = set(self.args.only.split(",")) if self.args.only else None
        failed = []
        for name, fn in parts:
            if only and name not in only:
                continue
            t0 = time.monotonic()
            log(f"== part {name}")
            res, first_error = None, None
            for attempt in (1, 2):  # a sidecar stopped from outside (a shared machine) costs one retry
                try:
                    res = fn()
                    break
                except Exception as e:  # a part that fails is reported, the others still run
                    err = f"{type(e).__name__}: {e}"
                    if attempt == 1:
                        first_error = err
                        log(f"part {name} failed, once more: {err[:300]}")
                    else:
                        res = {"error": err}
                        failed.append(name)
                        log(f"part {name} FAILED: {err[:500]}")
                finally:
                    self.procs.stop_all()
            if first_error:
                res["first_attempt_error"] = first_error[:1000]
            res["part_seconds"] = round(time.monotonic() - t0, 1)
            res["loadavg_1m_end"] = float(open("/proc/loadavg").read().split()[0])
            self.results["parts"][name] = res
        self.results["machine"]["loadavg_end"] = open("/proc/loadavg").read().split()[:3]
        self.results["total_seconds"] = round(time.monotonic() - t_start, 1)
        self.write_results()
        return 1 if failed else 0

    def write_results(self):
        stamp = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H-%M-%SZ")
        suffix = "-smoke" if self.smoke else ""
        if self.args.stub:
            suffix += "-stub"
        os.makedirs(self.args.results, exist_ok=True)
        base = os.path.join(self.args.results, stamp + suffix)
        with open(base + ".json", "w") as f:
            json.dump(self.results, f, indent=2)
        md = render_md(self.results)
        with open(base + ".md", "w") as f:
            f.write(md)
        print()
        print(md)
        log(f"results: {base}.json and {base}.md")


def _q(s):
    from urllib.parse import quote
    return quote(s, safe="")


def tail(path, n=20):
    try:
        return "".join(open(path, errors="replace").readlines()[-n:])
    except OSError:
        return ""


def quarkus_started_in(path):
    """Quarkus' own "started in N s" figure (measured from JVM start), if logged."""
    try:
        for line in open(path, errors="replace"):
            m = re.search(r"started in ([\d.]+)s", line)
            if m:
                return float(m.group(1))
    except OSError:
        pass
    return None


def scan_from_log(path):
    """Seconds from the store's "Metadata root ... found" line to its last per-file "generation" line
    of the initial scan (the store logs each file it decodes), if the sidecar logs them."""
    ts = lambda l: datetime.datetime.strptime(l[:23], "%Y-%m-%d %H:%M:%S,%f")
    t0 = t1 = None
    try:
        for line in open(path, errors="replace"):
            if t0 is None and "Metadata root" in line and "found" in line:
                t0 = ts(line)
            elif t0 is not None and re.search(r": generation \S+ \(", line):
                t1 = ts(line)
            elif t0 is not None and "started in" in line:
                break
    except (OSError, ValueError):
        return None
    return round((t1 - t0).total_seconds(), 3) if t0 and t1 else None


def yes(met):
    return "met" if met else "**missed**"


def render_md(R):
    m = R["machine"]
    L = [f"# dra-metadata-sidecar benchmark, {R['mode']} run, {R['started_utc']}", ""]
    if R.get("stub"):
        L += ["**Harness self-test against the Python stub, not the sidecar: these figures mean nothing.**", ""]
    L += ["## Machine", "",
          f"- nproc {m['nproc']}, {m['cpu']}, {m['mem_total']} RAM, kernel {m['kernel']}, {m['os']}",
          f"- JDK 17: {' / '.join(m['jdk17'][:2])}", f"- JDK 25: {' / '.join(m['jdk25'][:2])}",
          f"- {m['nginx']}; {m['wrk']}; Python {m['python']}",
          f"- load average at start {' '.join(m['loadavg_start'])}, at end {' '.join(m.get('loadavg_end', []))}",
          f"- jar {m['jar']} (built {m['jar_mtime']}, repo at {m['repo_commit']}); total {R['total_seconds']} s", ""]
    P = R["parts"]
    L += ["## Summary", "", "| figure | value | target |", "|---|---|---|"]
    t = P.get("throughput", {})
    if "sidecar" in t:
        s, n = t["sidecar"], t["nginx"]
        L += [f"| throughput sidecar / nginx (req/s) | {s['rps']:.0f} / {n['rps']:.0f} = **{t['ratio_rps']}** | >= 1.0 ({yes(t['met'])}) |",
              f"| latency p50 sidecar / nginx | {s['p50_ms']} ms / {n['p50_ms']} ms | |",
              f"| latency p99 sidecar / nginx | {s['p99_ms']} ms / {n['p99_ms']} ms | |"]
        if t.get("sidecar_c2"):
            v = t["sidecar_c2"]
            L += [f"| same, sidecar without `{' '.join(v['without'])}` (C2) / nginx | {v['rps']:.0f} / {n['rps']:.0f} = **{v['ratio_rps']}**; p50 {v['p50_ms']} ms, p99 {v['p99_ms']} ms | (diagnostic) |"]
    pr = P.get("propagation", {})
    if "poll_method" in pr:
        pm, lp = pr["poll_method"], pr["longpoll_method"]
        L += [f"| change propagation p50 / p99 (polling GET) | {pm['p50_ms']} / {pm['p99_ms']} ms (n={pm['n']}, missed {pm['missed_5s']}) | p99 <= 100 ms ({yes(pm['p99_ms'] is not None and pm['p99_ms'] <= 100)}) |"]
        if "p50_ms" in lp:
            L += [f"| change propagation p50 / p99 (long poll) | {lp['p50_ms']} / {lp['p99_ms']} ms (n={lp['n']}, missed {lp['missed']}) | |"]
        else:
            L += [f"| change propagation (long poll) | skipped: {lp['skipped']} | |"]
        ic = pr["idle_cpu"]
        L += [f"| idle CPU, 1 file | {ic['pct_of_one_core']} % of one core ({ic['cpu_s']} s CPU in {ic['seconds']} s) | <= 0.5 % ({yes(ic['pct_of_one_core'] <= 0.5)}) |"]
    fp = P.get("footprint", {})
    for name, c in fp.get("configs", {}).items():
        if "started_s_median" in c:
            L += [f"| {name}: start to started UP (median of {len(c['starts_s'])}) | {c['started_s_median']} s (min {c['started_s_min']}) | <= 0.8 s ({yes(c['started_s_median'] <= 0.8)}) |",
                  f"| {name}: RSS after warm-up / under load | {c['rss_after_warmup_mib']} / {c['rss_under_load_mib']} MiB | <= 96 / <= 128 MiB ({yes((c['rss_after_warmup_mib'] or 1e9) <= 96 and (c['rss_under_load_mib'] or 1e9) <= 128)}) |"]
        else:
            L += [f"| {name} | skipped: {c.get('skipped')} | |"]
    im = P.get("image", {})
    if "image" in im:
        i, j = im["image"], im.get("jar", {})
        L += [f"| image: process start to started UP (median of {len(i['starts_s'])}; min) / jar outside | {i['started_s_median']} s ({i['started_s_min']} s) / {j.get('started_s_median')} s ({j.get('started_s_min')} s); Quarkus' own \"started in\" {i['quarkus_started_in_s']} / {j.get('quarkus_started_in_s')} | image <= 0.5 s ({yes(i['started_s_median'] <= 0.5)}) |",
              f"| image: cgroup rss after warm-up / worst local load ({i['flood']['long_polls']} long polls + wrk) | {i['rss_after_warmup_mib']} / {i['rss_worst_mib']} MiB | <= 64 / <= 96 MiB ({yes(i['rss_after_warmup_mib'] <= 64 and i['rss_worst_mib'] <= 96)}) |",
              f"| jar outside (JDK 25, same options, own AOT cache): RssAnon after warm-up / worst local load | {j.get('rss_after_warmup_mib')} / {j.get('rss_worst_mib')} MiB | |",
              f"| image / jar outside: idle CPU (% of one core) | {i['idle_cpu_pct_of_one_core']} / {j.get('idle_cpu_pct_of_one_core')} | |",
              f"| image / jar outside: throughput (req/s) | {i['rps']:.0f} / {j.get('rps') or 0:.0f} = {im.get('ratios_image_over_jar', {}).get('rps')} | |",
              f"| image: flood of {i['flood']['long_polls']} long polls | {i['flood']['refused_503']} refused 503, {i['flood']['closed_by_server']} closed; alive after: {i['alive_after_flood']}; podman stop {i['stop']} | |"]
    elif "skipped" in im:
        L += [f"| image | skipped: {im['skipped']} | |"]
    sc = P.get("scale", {})
    if "scan_s" in sc:
        for f in sc.get("failed_attempts", []):
            L += [f"| scale: {sc['files']} files with {f['heap']} | **did not start**: {f['error']}; OutOfMemoryError {f['out_of_memory']}; {f['files_decoded_in_log']} files decoded | |"]
        L += [f"| scale: initial scan of {sc['files']} files, {sc['heap']} (store log; start-time difference) | {sc.get('scan_s_from_log')} s; {sc.get('scan_s_start_difference')} s | <= 2 s ({yes(sc['met'])}) |",
              f"| scale: RSS after start / idle | {sc['rss_after_start_mib']} / {sc['rss_idle_mib']} MiB | |",
              f"| scale: idle CPU / one refresh cycle | {sc['idle_cpu']['pct_of_one_core']} % of one core / {sc['refresh_cycle_cpu_ms']} ms CPU | |"]
    L += [""]
    for name, res in P.items():
        if "error" in res:
            L += [f"- part **{name}** FAILED: `{res['error'][:500]}`"]
    L += ["## Details", ""]
    if "sidecar" in t:
        L += [f"- throughput: `wrk {t['wrk']}` on `GET {t['path']}` ({t['body_bytes']} bytes, `{t['content_type']}`; "
              f"nginx serves the identical bytes: {t['nginx_body_identical']}, content type `{t['nginx_content_type']}`); "
              f"{t['warmup_s']} s warm-up, {t['rounds']} alternating rounds; per-round ratios {t['ratio_rps_per_round']}; "
              f"non-2xx sidecar {t['sidecar']['non2xx']} nginx {t['nginx']['non2xx']}; sidecar RSS under this load {t['sidecar']['rss_under_load_mib']} MiB"]
    if "mode" in pr:
        L += [f"- propagation: {pr['mode']}; {pr['write']}; {pr['changes']} changes per method"]
    if fp.get("jvm_options"):
        L += [f"- footprint JVM options `{' '.join(fp['jvm_options'])}` from {fp['jvm_options_source']}"]
        if fp.get("aot"):
            L += [f"- temurin25-aot: {fp['aot']}"]
        for name, c in fp.get("configs", {}).items():
            if c.get("quarkus_started_in_s"):
                L += [f"- {name}: starts {c['starts_s']} s to started UP; Quarkus' own \"started in\" {c['quarkus_started_in_s']} s; VmHWM {c.get('vmhwm_mib')} MiB"]
    for n in R.get("notes", []):
        L += [f"- {n}"]
    L += ["", "Raw figures: the .json file of the same name.", ""]
    return "\n".join(L)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--smoke", action="store_true", help="a few seconds per part, figures only (<= 60 s)")
    ap.add_argument("--jar", default=os.path.join(repo, "target/quarkus-app/quarkus-run.jar"))
    ap.add_argument("--repo", default=repo)
    ap.add_argument("--work", default=os.path.join(here, "work"))
    ap.add_argument("--results", default=os.path.join(here, "results"))
    ap.add_argument("--only", help="comma-separated parts: throughput,propagation,footprint,scale,image")
    ap.add_argument("--jdk17", default="/usr/lib/jvm/java-17-openjdk-amd64")
    ap.add_argument("--jdk25", default="/usr/lib/jvm/temurin-25-jdk-amd64")
    ap.add_argument("--wrk-threads", type=int, default=1)
    ap.add_argument("--wrk-conns", type=int, default=32)
    ap.add_argument("--wrk-seconds", type=int, default=10)
    ap.add_argument("--warmup-seconds", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--changes", type=int, default=200)
    ap.add_argument("--idle-seconds", type=int, default=20)
    ap.add_argument("--start-reps", type=int, default=3)
    ap.add_argument("--scale-claims", type=int, default=1000)
    ap.add_argument("--scale-timeout", type=float, default=45.0,
                    help="seconds the sidecar gets to start on the big tree before it counts as failed")
    ap.add_argument("--poll-interval-ms", type=float, default=50.0)
    ap.add_argument("--max-ram", default="160m",
                    help="-XX:MaxRAM: the memory the JVM sizes itself for (the pod's limit); '' for the host's")
    ap.add_argument("--no-c2-variant", action="store_true",
                    help="do not add a C2 sidecar to the throughput rounds when the shipped options stop at C1")
    ap.add_argument("--no-namespace", action="store_true", help="propagation on a plain file")
    ap.add_argument("--stub", help=argparse.SUPPRESS)  # harness self-test: a Python stand-in for the sidecar
    args = ap.parse_args()
    if args.stub:
        args.stub = os.path.abspath(args.stub)
    if not args.stub and not os.path.isfile(args.jar):
        print(f"no runner jar at {args.jar}: build it first (./mvnw -B -q package -DskipTests)", file=sys.stderr)
        return 2
    if os.path.isdir(args.work):
        shutil.rmtree(args.work)
    os.makedirs(args.work)
    bench = Bench(args)

    def on_signal(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    try:
        return bench.run()
    finally:
        bench.procs.stop_all()


if __name__ == "__main__":
    sys.exit(main())
