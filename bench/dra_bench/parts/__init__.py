"""The parts of a run, in the order they run and appear in the report.

A part is a module of this package with:
  NAME                     its name (for --only and as its key in the results JSON);
  run(ctx) -> dict         measures, given a RunContext; raises to report the part as failed;
  summary_rows(result)     Markdown table rows (list of str) for the report's summary; [] when it has none;
  detail_lines(result)     Markdown list items for the report's details; [] when it has none;
  add_arguments(parser)    optional: the part's own command-line options.
`result` may be {"error": ...} when the part failed. Adding a part: one module, plus its name below.
"""
import importlib

PART_NAMES = ("throughput", "propagation", "footprint", "scale", "image", "pod_start", "soak", "node_mode", "full_node")

PARTS = [importlib.import_module(f"{__name__}.{name}") for name in PART_NAMES]
