"""Runs the selected parts one after another and writes the results."""
import datetime
import json
import os
import time
import traceback

from . import machine
from .context import RunContext, log
from .report import render_markdown


class Run:
    """One run: each part in turn, retried once when it fails (a shared machine may stop a process), every
    process it started killed when it ends; a part that fails twice is reported and the others still run."""

    def __init__(self, args, parts):
        self.args = args
        self.parts = parts
        self.ctx = RunContext(args)
        self.results = {"mode": "smoke" if args.smoke else "full", "parts": {}, "notes": self.ctx.notes}

    def run(self):
        """Exit status: 0 when every part ran, 1 when one failed."""
        t_start = time.monotonic()
        self.results["started_utc"] = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
        self.results["machine"] = machine.describe(self.args, self.ctx.sidecars.jar)
        self.results["stub"] = bool(self.args.stub)
        only = set(self.args.only.split(",")) if self.args.only else None
        failed = []
        for part in self.parts:
            if only and part.NAME not in only:
                continue
            res = self.run_part(part)
            if "error" in res:
                failed.append(part.NAME)
            self.results["parts"][part.NAME] = res
        self.results["machine"]["loadavg_end"] = machine.load_average()
        self.results["total_seconds"] = round(time.monotonic() - t_start, 1)
        self.write_results()
        return 1 if failed else 0

    def run_part(self, part):
        t0 = time.monotonic()
        log(f"== part {part.NAME}")
        res, first_error = None, None
        for attempt in (1, 2):
            try:
                res = part.run(self.ctx)
                break
            except Exception as e:  # a part that fails is reported, the others still run
                err = f"{type(e).__name__}: {e} ({_where(e)})"
                if attempt == 1:
                    first_error = err
                    log(f"part {part.NAME} failed, once more: {err[:300]}")
                else:
                    res = {"error": err}
                    log(f"part {part.NAME} FAILED: {err[:500]}")
            finally:
                self.ctx.procs.stop_all()
        if first_error:
            res["first_attempt_error"] = first_error[:1000]
        res["part_seconds"] = round(time.monotonic() - t0, 1)
        res["loadavg_1m_end"] = float(machine.load_average()[0])
        return res

    def write_results(self):
        """<results>/<UTC time>[-smoke][-stub].json and .md; prints the Markdown."""
        stamp = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H-%M-%SZ")
        suffix = "-smoke" if self.args.smoke else ""
        if self.args.stub:
            suffix += "-stub"
        os.makedirs(self.args.results, exist_ok=True)
        base = os.path.join(self.args.results, stamp + suffix)
        with open(base + ".json", "w") as f:
            json.dump(self.results, f, indent=2)
        md = render_markdown(self.results, self.parts)
        with open(base + ".md", "w") as f:
            f.write(md)
        print()
        print(md)
        log(f"results: {base}.json and {base}.md")

    def stop_everything(self):
        self.ctx.procs.stop_all()


def _where(error):
    """Where in the suite an error was raised: the two innermost frames of dra_bench, the helper and its caller (a
    bare "timed out" says little)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "dra_bench" in f.filename][-2:]
    frames = frames or traceback.extract_tb(error.__traceback__)[-1:]
    return " <- ".join(f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}" for f in reversed(frames))
