#!/usr/bin/env python3
"""Entry point of the benchmark suite: bench/run.sh runs this file; the suite is the dra_bench package."""
import sys

from dra_bench.cli import main

if __name__ == "__main__":
    sys.exit(main())
