"""What the report says about the machine, the JDKs, the tools and the jar measured."""
import datetime
import os
import platform
import subprocess


def load_average():
    """The 1, 5 and 15 minute load averages, as strings."""
    return open("/proc/loadavg").read().split()[:3]


def describe(args, jar):
    def output(cmd):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
            return (r.stdout + r.stderr).strip()
        except Exception as e:  # noqa: a tool that is missing is reported, not fatal
            return f"n/a ({e})"
    cpu = "n/a"
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except Exception:  # noqa
        pass
    mem = next((l.split(":", 1)[1].strip() for l in open("/proc/meminfo") if l.startswith("MemTotal")), "n/a")
    return {
        "nproc": os.cpu_count(), "cpu": cpu, "mem_total": mem, "kernel": platform.release(),
        "os": output(["sh", "-c", ". /etc/os-release; echo $PRETTY_NAME"]),
        "jdk17": output([os.path.join(args.jdk17, "bin/java"), "-version"]).splitlines()[:3],
        "jdk25": output([os.path.join(args.jdk25, "bin/java"), "-version"]).splitlines()[:3],
        "nginx": output(["nginx", "-v"]), "wrk": output(["wrk", "--version"]).splitlines()[0],
        "python": platform.python_version(), "loadavg_start": load_average(),
        "jar": jar, "jar_mtime": datetime.datetime.utcfromtimestamp(os.path.getmtime(jar)).strftime(
            "%Y-%m-%dT%H:%M:%SZ") if os.path.exists(jar) else None,
        "repo_commit": output(["git", "-C", args.repo, "rev-parse", "--short", "HEAD"]),
    }
