#!/usr/bin/env python3
"""The README's CI figures are the ones CI measured.

`.ci/run` ends by printing its steps' wall and CPU seconds as one JSON
document ("ci: timings {...}"); copied into .ci/timings.json, it is the one
source of the table between the README's `<!-- ci-timings -->` markers.
This check fails when the two differ; --write rewrites the table from the
record.

Usage: check_readme_timings.py SOURCE_ROOT [--write]
       check_readme_timings.py SOURCE_ROOT --from-log CI_LOG
                 (take the record from a CI log, then write the table)
"""
import json
import re
import sys
from pathlib import Path

START, END = "<!-- ci-timings -->", "<!-- /ci-timings -->"


def minutes(seconds):
    return f"{seconds / 60:.1f} min"


def table(record):
    """The README's lines for a record: a sentence and a table of steps."""
    total = f", {minutes(record['wall_s'])} in all" if "wall_s" in record else ""
    lines = [f"CI measured these on a fresh clone of commit {record['commit']} "
             f"({record['date']}, {record['cores']} cores){total} "
             "(`.ci/timings.json`, as `.ci/run` printed it):", "",
             "| CI step | wall | CPU-seconds |", "| --- | --- | --- |"]
    for step in record["steps"]:
        cpu = "-" if step.get("cpu_s") is None else f"{step['cpu_s']:,}"
        lines.append(f"| {step['step']} | {minutes(step['wall_s'])} | {cpu} |")
    return "\n".join(lines)


def record_from_log(log):
    text = Path(log).read_text(errors="replace")
    at = text.rfind("ci: timings ")
    if at < 0:
        raise SystemExit(f"check_readme_timings: {log} has no 'ci: timings' record")
    return json.JSONDecoder().raw_decode(text[at + len("ci: timings "):])[0]


def main():
    root = Path(sys.argv[1]).resolve()
    readme, source = root / "README.md", root / ".ci" / "timings.json"
    if sys.argv[2:3] == ["--from-log"]:
        record = record_from_log(sys.argv[3])
        if not all(step["passed"] for step in record["steps"]):
            raise SystemExit("check_readme_timings: that CI run failed a step; its figures are not quoted")
        source.write_text(json.dumps(record, indent=1) + "\n")
    record = json.loads(source.read_text())
    text = readme.read_text()
    block = re.search(re.escape(START) + r"\n(.*?)\n" + re.escape(END), text, re.S)
    if not block:
        print(f"check_readme_timings: README.md has no {START} ... {END} block", file=sys.stderr)
        return 1
    wanted = table(record)
    if block[1] == wanted:
        print(f"check_readme_timings: the README quotes CI's run of {record['commit']}")
        return 0
    if "--write" in sys.argv or "--from-log" in sys.argv:
        readme.write_text(text[:block.start(1)] + wanted + text[block.end(1):])
        print("check_readme_timings: README.md rewritten from .ci/timings.json")
        return 0
    print("check_readme_timings: README.md's CI figures differ from .ci/timings.json; run\n"
          "  tests/course/check_readme_timings.py . --write\nThe README should say:\n" + wanted,
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
