"""What every part gets: the options, the work directory, the child processes and the sidecar launcher."""
import os
import time

from .processes import ChildProcesses
from .sidecar import SidecarLauncher


def log(msg):
    """A progress line on stdout, time-stamped: `[bench HH:MM:SS] msg`."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


class RunContext:
    """One run's shared state. `smoke` parts use their short settings; `notes` end up in the report."""

    def __init__(self, args):
        self.args = args
        self.smoke = args.smoke
        self.work = os.path.abspath(args.work)
        self.procs = ChildProcesses(os.path.join(self.work, "pids"))
        self.sidecars = SidecarLauncher(args, self.work, self.procs)
        self.wrk_threads, self.wrk_conns = args.wrk_threads, args.wrk_conns
        self.jdk17, self.jdk25 = args.jdk17, args.jdk25
        self.notes = []

    @property
    def jvm_opts(self):
        """The shipped JVM options every sidecar starts with unless a part says otherwise."""
        return self.sidecars.jvm_opts
