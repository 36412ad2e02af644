#!/usr/bin/env python3
"""The hint ladders (book/hints/NN-slug.md) are in step with the exercises
in src/: every exercise has a ladder and every ladder an exercise, each
ladder has a goal and at least two rungs ending with the rule, and no rung
quotes a line of the exercise's solution.

Every stub message a book page quotes ("TODO: exercise 6 of chapter 01
(block_on, in FILE) is not done yet") is one a starter in chapters/ throws,
so the page, the hints, `scripts/status` and the grader number an exercise
alike.

Usage: check_ladders.py SOURCE_ROOT
"""
import re
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.dont_write_bytecode = True
import coursekit  # noqa: E402

MARKER = re.compile(r"^\s*(?://|#)@\s*(\w+)\s*(.*?)\s*$")


def exercises_in_src(chapters):
    """{slug: {exercise: [solution lines]}} from the //@ exercise markers.
    A marker names its chapter by number ('exercise 2 state') or by slug
    name ('exercise wakers state')."""
    found = {slug: {} for slug in chapters}
    for path in sorted((ROOT / "src").rglob("*")):
        if not path.is_file():
            continue
        current, lines = None, []
        for line in path.read_text(errors="replace").splitlines():
            m = MARKER.match(line)
            if m and m[1] == "exercise":
                chapter, _, name = m[2].partition(" ")
                slug = next((s for s in chapters if chapter in (s, s[3:]) or
                             (chapter.isdigit() and int(chapter) == int(s[:2]))), None)
                if slug is None:
                    raise SystemExit(f"{path}: an exercise of an unknown chapter: {line.strip()}")
                current = found[slug].setdefault(name.strip(), [])
            elif m and current is not None:
                current = None                      # //@ starter or //@ end
            elif current is not None:
                current.append(line)
    return found


def quoted_stubs_not_thrown():
    """Book pages that quote a stub's message the starters do not throw."""
    thrown = set()
    for path in (ROOT / "chapters").rglob("*"):
        if path.suffix in (".hpp", ".cpp") and path.is_file():
            thrown.update(re.findall(r'throw Todo\("([^"]+)"\)', path.read_text(errors="replace")))
    problems = []
    for page in sorted((ROOT / "book" / "src").glob("*.md")):
        quoted = re.findall(r"TODO: exercise (.+?) is not done yet", page.read_text())
        quoted += re.findall(r'throw Todo\("([^"]+)"\)', page.read_text())
        for text in quoted:
            if text not in thrown:
                problems.append(f"book/src/{page.name}: quotes a stub no starter throws: {text}")
    return problems


def main():
    chapters = coursekit.course_chapters(ROOT)
    problems = []
    for slug, exercises in exercises_in_src(chapters).items():
        try:
            ladders = coursekit.ladders(slug, ROOT)
        except coursekit.UsageError as error:
            problems.append(str(error))
            continue
        names = [ladder["name"] for ladder in ladders]
        text = (ROOT / "book" / "hints" / f"{slug}.md").read_text()
        numbers = [int(n) for n in re.findall(r"^#{3,4}\s+Exercise\s+(\d+):", text, re.M)]
        if numbers != list(range(1, len(ladders) + 1)):
            problems.append(f"book/hints/{slug}.md: the sections must be '#### Exercise N: `name`', "
                            f"numbered 1 to {len(ladders)} in order (found {numbers})")
        for name in exercises:
            if name not in names:
                problems.append(f"book/hints/{slug}.md: no ladder for exercise '{name}'")
        for ladder in ladders:
            name, rungs = ladder["name"], ladder["rungs"]
            where = f"book/hints/{slug}.md, {name}"
            if name not in exercises:
                problems.append(f"{where}: no such exercise in src/ (renamed?)")
                continue
            if not ladder["goal"]:
                problems.append(f"{where}: no **Goal:** line")
            if len(rungs) < 2:
                problems.append(f"{where}: a ladder needs at least two rungs")
            elif "rule" not in rungs[-1][0].lower():
                problems.append(f"{where}: the last rung should be the rule ('Hint N: the rule')")
            # A line of the solution, stripped of comments, in a rung: the code.
            code = {c for c in (re.sub(r"//.*", "", l).strip() for l in exercises[name])
                    if len(c) >= 12 and not c.startswith(("case ", "return ", "}"))}
            for title, text in rungs:
                for line in code:
                    if line in text:
                        problems.append(f"{where}, {title}: quotes the solution: {line}")
    problems += quoted_stubs_not_thrown()
    for problem in problems:
        print(f"check_ladders: {problem}", file=sys.stderr)
    if problems:
        return 1
    total = sum(len(v) for v in exercises_in_src(chapters).values())
    print(f"check_ladders: {total} exercises in {len(chapters)} chapters, each with its ladder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
