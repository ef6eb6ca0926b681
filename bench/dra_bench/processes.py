"""Child processes of the run, and what /proc says about them."""
import os
import signal
import subprocess
import time

CLOCK_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


class ChildProcesses:
    """Starts every child in its own session (process group) and records its pid in `pidfile`, so that
    bench/run.sh can kill what is left however the run ends; stop() and stop_all() kill whole groups."""

    def __init__(self, pidfile):
        self.pidfile = pidfile
        self.live = []

    def start(self, cmd, logpath, env=None, cwd=None):
        """Starts `cmd` with stdout and stderr appended to `logpath`; the Popen gets a `logpath` attribute."""
        logf = open(logpath, "ab")
        p = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             env=env, cwd=cwd, start_new_session=True)
        logf.close()
        p.logpath = logpath
        self.track(p)
        return p

    def track(self, p):
        """Counts `p` (started elsewhere, in its own session) among the live children."""
        self.live.append(p)
        with open(self.pidfile, "a") as f:
            f.write(f"{p.pid}\n")

    def forget(self, p):
        """`p` has ended by itself: no longer a live child."""
        if p in self.live:
            self.live.remove(p)

    def stop(self, p, grace=10.0):
        """SIGTERM to the group, SIGKILL after `grace` seconds, then SIGKILL to what is left of the group."""
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
        self.forget(p)

    def stop_all(self):
        for p in list(self.live):
            self.stop(p, grace=3.0)


def rss_kib(pid):
    """VmRSS of `pid` in KiB, or None when the process is gone."""
    return _status_field(pid, "VmRSS")


def peak_rss_kib(pid):
    """VmHWM (the highest RSS so far) of `pid` in KiB, or None when the process is gone."""
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
    """utime + stime of all threads of `pid`, in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # fields 14 and 15 of proc(5), counted after the command name


def idle_cpu(pid, seconds):
    """CPU that `pid` uses over `seconds` without requests (after one second to settle), as % of one core;
    `resolution_pct` is what one clock tick amounts to over that time."""
    time.sleep(1.0)
    t0, c0 = time.monotonic(), cpu_ticks(pid)
    time.sleep(seconds)
    t1, c1 = time.monotonic(), cpu_ticks(pid)
    cpu_s = (c1 - c0) / CLOCK_TICKS_PER_SECOND
    return {"seconds": round(t1 - t0, 2), "cpu_s": cpu_s, "pct_of_one_core": round(100.0 * cpu_s / (t1 - t0), 3),
            "resolution_pct": round(100.0 / CLOCK_TICKS_PER_SECOND / (t1 - t0), 3)}


def tail(path, n=20):
    """The last `n` lines of a log file, or "" when it cannot be read."""
    try:
        return "".join(open(path, errors="replace").readlines()[-n:])
    except OSError:
        return ""
