"""Idle CPU beside a baseline measured in the same run: a JVM with the same options that only sleeps, idle in the
same windows as the sidecar, so that what the sidecar adds to a JVM at rest can be judged on any machine.

CPU time and wake-ups come from each thread's /proc/<pid>/task/<tid>/schedstat (nanoseconds on the CPU, and the
number of times it was scheduled in), not from clock ticks: 100 ticks a second resolve only 0.017 % of a core
over a minute."""
import os
import re
import statistics
import subprocess
import time

SLEEPER = "public class Sleep { public static void main(String[] a) throws Exception { Thread.sleep(Long.MAX_VALUE); } }\n"


def sleeper_classes(jdk, work):
    """A directory with Sleep.class (a main that sleeps forever) compiled for Java 17; readable by every user."""
    out = os.path.join(work, "sleeper")
    if not os.path.isfile(os.path.join(out, "Sleep.class")):
        os.makedirs(out, exist_ok=True)
        src = os.path.join(out, "Sleep.java")
        with open(src, "w") as f:
            f.write(SLEEPER)
        subprocess.run([os.path.join(jdk, "bin/javac"), "--release", "17", "-d", out, src], check=True)
        subprocess.run(["chmod", "-R", "a+rX", out], check=True)
    return out


def _threads(pid):
    """{tid: (name, ns on the CPU, times scheduled in)} of every thread of `pid` now."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            ns, _, slices = open(f"/proc/{pid}/task/{tid}/schedstat").read().split()
        except OSError:
            continue  # ended meanwhile
        out[tid] = (name, int(ns), int(slices))
    return out


def _per_minute(before, after, seconds):
    """{thread name (numbers folded to #): [CPU ms/min, wakes/min]} between two _threads() snapshots."""
    rows = {}
    for tid, (name, ns, slices) in after.items():
        _, ns0, slices0 = before.get(tid, (name, 0, 0))
        row = rows.setdefault(re.sub(r"\d+", "#", name), [0.0, 0.0])
        row[0] += (ns - ns0) / 1e6 * 60 / seconds
        row[1] += (slices - slices0) * 60 / seconds
    return rows


def side_by_side(pids, seconds, windows):
    """Idle CPU of each of `pids` ({label: pid}), measured in the same `windows` windows of `seconds` each.
    Per label: % of one core per window, their median, and the median per thread of CPU ms/min and wakes/min
    (threads that used under 0.05 ms/min left out)."""
    per_window = {label: [] for label in pids}
    threads = {label: [] for label in pids}
    for _ in range(windows):
        before = {label: _threads(pid) for label, pid in pids.items()}
        t0 = time.monotonic()
        time.sleep(seconds)
        after = {label: _threads(pid) for label, pid in pids.items()}
        took = time.monotonic() - t0
        for label in pids:
            rows = _per_minute(before[label], after[label], took)
            per_window[label].append(round(sum(r[0] for r in rows.values()) / 600, 4))  # ms/min -> % of a core
            threads[label].append(rows)
    out = {}
    for label in pids:
        names = {n for rows in threads[label] for n in rows}
        med = {n: [round(statistics.median(rows.get(n, [0, 0])[i] for rows in threads[label]), 1) for i in (0, 1)]
               for n in names}
        out[label] = {"pct_of_one_core": statistics.median(per_window[label]), "windows_pct": per_window[label],
                      "window_s": seconds,
                      "threads_ms_and_wakes_per_min": dict(sorted(((n, v) for n, v in med.items() if v[0] >= 0.05),
                                                                  key=lambda kv: -kv[1][0]))}
    return out
