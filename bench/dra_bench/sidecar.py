"""The sidecar under test: the JVM options it ships with, how it is started, and what its log says."""
import datetime
import http.client
import os
import platform
import re
import sys
import time

from .http_client import HOST, free_port
from .processes import tail

FALLBACK_JVM_OPTIONS = ["-XX:+UseSerialGC", "-Xss512k", "-XX:ReservedCodeCacheSize=32m", "-XX:MaxRAMPercentage=75"]
"""Used only when src/main/docker has no JVM options; the results then say so."""

# options of the image that point at files of the image or that the bench sets itself
# (and the JDK 25 AOT cache's -XX:[+-]AOT... switches, which JDK 17 does not know)
_DROPPED_OPTIONS = ("-XX:AOTCache=", "-XX:AOTCacheOutput=", "-XX:AOTConfiguration=", "-XX:AOTMode=", "-Xshare:",
                    "-XX:SharedArchiveFile=", "-XX:MaxRAM=", "-XX:-AOT", "-XX:+AOT")


def image_java(repo):
    """The Java feature release the image's build stage names (src/main/docker/Dockerfile.jvm); 0 without one."""
    try:
        dockerfile = open(os.path.join(repo, "src/main/docker/Dockerfile.jvm")).read()
        m = re.search(r"^FROM \S*temurin:(\d+)", dockerfile, re.M)
        return int(m.group(1)) if m else 0
    except OSError:
        return 0


def java_feature(jdk):
    """The feature release of the JDK at `jdk`, from its `release` file; 0 when it cannot be read."""
    try:
        m = re.search(r'^JAVA_VERSION="(\d+)', open(os.path.join(jdk, "release")).read(), re.M)
        return int(m.group(1)) if m else 0
    except OSError:
        return 0


def shipped_jvm_options(repo, max_ram):
    """(options, where they came from): src/main/docker/jvm-options (a java @argfile), else JAVA_OPTS* in a
    Dockerfile there, else FALLBACK_JVM_OPTIONS. Options naming files of the image (AOT cache, CDS archive)
    are dropped: the footprint part makes its own cache. With `max_ram`, -XX:MaxRAM sizes the heap as under
    the pod's memory limit."""
    opts, source = None, None
    f = os.path.join(repo, "src/main/docker/jvm-options")
    if os.path.isfile(f):
        opts = []
        for line in open(f):
            line = line.split("#", 1)[0].strip()
            if line:
                opts += line.split()
        source = "src/main/docker/jvm-options"
        # the image's copy of JNA's native library is the build's of this machine's architecture (./mvnw package
        # puts both there; the image has the one it was built for)
        jna_arch = {"x86_64": "x86-64", "aarch64": "aarch64"}.get(platform.machine(), platform.machine())
        native = os.path.join(repo, "target/jna-native/com/sun/jna", f"linux-{jna_arch}")
        opts = [o.replace("/deployments/native", native) for o in opts]
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
        opts, source = list(FALLBACK_JVM_OPTIONS), "the bench's fallback (no JVM options found in src/main/docker/)"
    dropped = [o for o in opts if o.startswith(_DROPPED_OPTIONS)]
    opts = [o for o in opts if not o.startswith(_DROPPED_OPTIONS)]
    if dropped:
        source += f" without {' '.join(dropped)}"
    if max_ram:
        opts.append(f"-XX:MaxRAM={max_ram}")
        source += f", plus -XX:MaxRAM={max_ram} to size the heap as under the pod's memory limit"
    return opts, source


def watch_mode(management_port):
    """The store's dra_watch_mode{mode=...} that is 1, from the management port's metrics; None if none is."""
    try:
        c = http.client.HTTPConnection(HOST, management_port, timeout=5)
        c.request("GET", "/q/metrics")
        r = c.getresponse()
        text = r.read().decode(errors="replace") if r.status == 200 else ""
        c.close()
    except OSError:
        return None
    m = re.search(r'^dra_watch_mode\{mode="([a-z]+)"\} 1\.0$', text, re.M)
    return m.group(1) if m else None


class SidecarLauncher:
    """Starts sidecars (or, for the harness self-test, the Python stub) on free ports of 127.0.0.1, one numbered
    log and @argfile per start in the work directory."""

    def __init__(self, args, work, procs):
        self.args = args
        self.work = work
        self.procs = procs
        self.jar = os.path.abspath(args.jar)
        self.jvm_opts, self.jvm_opts_source = shipped_jvm_options(args.repo, args.max_ram)
        self.image_java = image_java(args.repo)
        self.starts = 0

    def last_log(self, name):
        """The log path of the latest start, had it been named `name`."""
        return os.path.join(self.work, f"{self.starts:02d}-{name}.log")

    def java_command(self, jdk, root, http_port, mgmt_port, extra=(), opts=None):
        """The options go into a java @argfile (as the image does it) so that the command line reads
        `java @bench/work/NN.args`: a process hunt for "quarkus-run.jar" by someone else on a shared
        machine does not hit the sidecar under test."""
        # A JVM older than the image's ignores the options of the image's Java it does not know.
        older = [] if java_feature(jdk) >= self.image_java else ["-XX:+IgnoreUnrecognizedVMOptions"]
        args = [*older, *(self.jvm_opts if opts is None else opts), *extra,
                f"-Dquarkus.http.host={HOST}", f"-Dquarkus.http.port={http_port}",
                f"-Dquarkus.management.host={HOST}", f"-Dquarkus.management.port={mgmt_port}",
                f"-Ddra.metadata.root={root}", "-jar", self.jar]
        argfile = os.path.join(self.work, f"{self.starts:02d}.args")
        with open(argfile, "w") as f:
            f.write("\n".join(args) + "\n")
        return [os.path.join(jdk, "bin/java"), "@" + argfile]

    def start(self, name, jdk, root, extra=(), wrap=None, cwd=None, opts=None, timeout=60.0):
        """Starts a sidecar on `root` and waits for /q/health/started UP; returns (process, API port,
        management port, seconds from start to UP). `wrap` is a command prefix (e.g. unshare), `opts` replaces
        the shipped JVM options, `extra` adds to them. Raises RuntimeError (with the log's tail) when it exits
        or is not UP within `timeout` seconds; it is stopped then."""
        self.starts += 1
        http_port, mgmt_port = free_port(), free_port()
        if self.args.stub:  # harness self-test without the real sidecar
            cmd = [sys.executable, self.args.stub, "--root", root, "--http-port", str(http_port),
                   "--mgmt-port", str(mgmt_port)]
        else:
            cmd = self.java_command(jdk, root, http_port, mgmt_port, extra, opts)
        if wrap:
            cmd = wrap + cmd
        env = dict(os.environ, DRA_METADATA_ROOT=root)
        t0 = time.monotonic()
        p = self.procs.start(cmd, self.last_log(name), env=env, cwd=cwd or self.work)
        try:
            started = _wait_started(p, mgmt_port, t0, timeout)
        except RuntimeError:
            self.procs.stop(p)
            raise
        return p, http_port, mgmt_port, started


def _wait_started(p, mgmt_port, t0, timeout):
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


def quarkus_started_in(log_path):
    """Quarkus' own "started in N s" figure (measured from JVM start), if logged."""
    try:
        for line in open(log_path, errors="replace"):
            m = re.search(r"started in ([\d.]+)s", line)
            if m:
                return float(m.group(1))
    except OSError:
        pass
    return None


def initial_scan_seconds(log_path):
    """Seconds of the store's initial scan: the figure of its summary line ("Read N new metadata files in X ms")
    when it logs one (a scan of many files), else from its "Metadata root ... found" line to its last per-file
    "generation" line."""
    def timestamp(line):
        return datetime.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f")
    t0 = t1 = None
    try:
        for line in open(log_path, errors="replace"):
            summary = re.search(r"Read \d+ new metadata files in (\d+) ms", line)
            if summary:
                return round(int(summary.group(1)) / 1000, 3)
            if t0 is None and "Metadata root" in line and "found" in line:
                t0 = timestamp(line)
            elif t0 is not None and re.search(r": generation \S+ \(", line):
                t1 = timestamp(line)
            elif t0 is not None and "started in" in line:
                break
    except (OSError, ValueError):
        return None
    return round((t1 - t0).total_seconds(), 3) if t0 and t1 else None
