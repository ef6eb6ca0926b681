"""The Markdown report of a run: the machine, a summary table and details, each part contributing its rows."""


def verdict(met):
    """How a target reads in the report: met, or a bold missed."""
    return "met" if met else "**missed**"


def render_markdown(results, parts):
    """The report of `results` (the run's JSON), with rows and lines from each of `parts` that has a result."""
    m = results["machine"]
    lines = [f"# dra-metadata-sidecar benchmark, {results['mode']} run, {results['started_utc']}", ""]
    if results.get("stub"):
        lines += ["**Harness self-test against the Python stub, not the sidecar: these figures mean nothing.**", ""]
    lines += ["## Machine", "",
              f"- nproc {m['nproc']}, {m['cpu']}, {m['mem_total']} RAM, kernel {m['kernel']}, {m['os']}",
              f"- JDK 17: {' / '.join(m['jdk17'][:2])}", f"- JDK 25: {' / '.join(m['jdk25'][:2])}",
              f"- {m['nginx']}; {m['wrk']}; Python {m['python']}",
              f"- load average at start {' '.join(m['loadavg_start'])}, at end {' '.join(m.get('loadavg_end', []))}",
              f"- jar {m['jar']} (built {m['jar_mtime']}, repo at {m['repo_commit']}); total {results['total_seconds']} s",
              ""]
    measured = results["parts"]
    lines += ["## Summary", "", "| figure | value | target |", "|---|---|---|"]
    for part in parts:
        lines += part.summary_rows(measured.get(part.NAME, {}))
    lines += [""]
    for name, res in measured.items():
        if "error" in res:
            lines += [f"- part **{name}** FAILED: `{res['error'][:500]}`"]
    lines += ["## Details", ""]
    for part in parts:
        lines += part.detail_lines(measured.get(part.NAME, {}))
    for note in results.get("notes", []):
        lines += [f"- {note}"]
    lines += ["", "Raw figures: the .json file of the same name.", ""]
    return "\n".join(lines)
