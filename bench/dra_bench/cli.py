"""Command line of bench/run.sh (which passes --work) and the run's signal handling."""
import argparse
import os
import shutil
import signal
import sys

from . import __doc__ as PACKAGE_DOC
from .parts import PART_NAMES, PARTS
from .runner import Run


def parse_args(argv=None):
    bench_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    repo = os.path.dirname(bench_dir)
    ap = argparse.ArgumentParser(description=PACKAGE_DOC.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true", help="a few seconds per part, figures only (<= 60 s)")
    ap.add_argument("--jar", default=os.path.join(repo, "target/quarkus-app/quarkus-run.jar"))
    ap.add_argument("--repo", default=repo)
    ap.add_argument("--work", default=os.path.join(bench_dir, "work"))
    ap.add_argument("--results", default=os.path.join(bench_dir, "results"))
    ap.add_argument("--only", help="comma-separated parts: " + ",".join(PART_NAMES))
    ap.add_argument("--jdk17", default="/usr/lib/jvm/java-17-openjdk-amd64")
    ap.add_argument("--jdk25", default="/usr/lib/jvm/temurin-25-jdk-amd64")
    ap.add_argument("--wrk-threads", type=int, default=1)
    ap.add_argument("--wrk-conns", type=int, default=32)
    ap.add_argument("--idle-seconds", type=int, default=20, help="how long idle CPU is measured (propagation, scale)")
    ap.add_argument("--max-ram", default="160m",
                    help="-XX:MaxRAM: the memory the JVM sizes itself for (the pod's limit); '' for the host's")
    ap.add_argument("--stub", help=argparse.SUPPRESS)  # harness self-test: a Python stand-in for the sidecar
    for part in PARTS:
        if hasattr(part, "add_arguments"):
            part.add_arguments(ap.add_argument_group(f"part {part.NAME}"))
    args = ap.parse_args(argv)
    if args.stub:
        args.stub = os.path.abspath(args.stub)
    return args


def main(argv=None):
    args = parse_args(argv)
    if not args.stub and not os.path.isfile(args.jar):
        print(f"no runner jar at {args.jar}: build it first (./mvnw -B -q package -DskipTests)", file=sys.stderr)
        return 2
    if os.path.isdir(args.work):
        shutil.rmtree(args.work)
    os.makedirs(args.work)
    run = Run(args, PARTS)

    def on_signal(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    try:
        return run.run()
    finally:
        run.stop_everything()
