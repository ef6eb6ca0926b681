"""The benchmark suite of dra-metadata-sidecar, started by bench/run.sh (see bench/README.md).

Standard library only. Every server it starts listens on 127.0.0.1 only and every request goes to
127.0.0.1. Every process it starts is put in its own session, its pid written to <work>/pids, and
killed (whole process group) when the run ends, however it ends.

Layout: `parts/` holds one module per measured part (registered in parts/__init__.py); `runner` runs
them and writes the results; `report` renders the Markdown; the other modules are what parts share.
"""
