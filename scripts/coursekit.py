"""What the course's scripts (hint, status, experiment, next, snapshot) share:
the list of chapters, the hint ladders in book/hints/, the stubs left in
chapters/, the record of what scripts/snapshot generated there, and the
grader's record of every chapter's last grade.

The chapter list is read from the one place it is written, meson.build; the
exercises of a chapter are the sections of its hint file, book/hints/NN-slug.md
(a course check keeps those in step with the exercises in src/).
"""
import hashlib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class UsageError(Exception):
    """Bad input: the message says what was wrong and what would be right."""


def course_chapters(root=ROOT):
    text = (root / "meson.build").read_text()
    block = re.search(r"course_chapters = \[(.*?)\]", text, re.S)
    if not block:
        raise UsageError(f"{root / 'meson.build'} has no course_chapters list")
    return re.findall(r"'(\d\d-[a-z0-9-]+)'", block.group(1))


def resolve_chapter(spec, root=ROOT):
    """'1', '01', '01-executor' or 'executor' -> '01-executor'."""
    chapters = course_chapters(root)
    spec = spec.strip()
    for slug in chapters:
        number, _, name = slug.partition("-")
        if spec in (slug, name) or (spec.isdigit() and int(spec) == int(number)):
            return slug
    written = ", ".join(f"{int(s[:2])} ({s})" for s in chapters)
    raise UsageError(f"no chapter '{spec}': the chapters written so far are {written}")


SECTION = re.compile(r"^#{3,4}\s+(?:Exercise\s+\d+:\s*)?`?([\w-]+)`?\s*$", re.M)
GOAL = re.compile(r"\*\*Goal:\*\*\s*(.*?)(?:\n\s*\n|\Z)", re.S)
RUNG = re.compile(r"<details>\s*<summary>(.*?)</summary>(.*?)</details>", re.S)


def ladders(slug, root=ROOT):
    """The hint ladders of a chapter, in order: a list of dicts with the
    exercise's name, its goal, and its rungs as (title, text) pairs."""
    path = root / "book" / "hints" / f"{slug}.md"
    if not path.is_file():
        raise UsageError(f"chapter {slug} has no hints yet ({path.relative_to(root)} is missing)")
    text = re.sub(r"<!--.*?-->", "", path.read_text(), flags=re.S)
    sections = SECTION.split(text)[1:]
    result = []
    for name, body in zip(sections[0::2], sections[1::2]):
        goal = GOAL.search(body)
        rungs = [(title.strip(), re.sub(r"\n{3,}", "\n\n", rung.strip()))
                 for title, rung in RUNG.findall(body)]
        result.append({"name": name, "goal": " ".join(goal[1].split()) if goal else "",
                       "rungs": rungs})
    return result


# A stub as scripts/snapshot writes it: throw Todo("6 of chapter 01 (block_on, in FILE)").
STUB = re.compile(r'throw\s+Todo\("\d+ of chapter (\d\d) \(([\w-]+)')


def stubs_left(slug, root=ROOT):
    """How many stubs of each exercise are still in chapters/NN-slug: a
    dict from exercise name to count (absent: none left)."""
    counts = {}
    workspace = root / "chapters" / slug
    for path in sorted(workspace.rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h", ".cc") or not path.is_file():
            continue
        for number, name in STUB.findall(path.read_text(errors="replace")):
            if number == slug[:2]:
                counts[name] = counts.get(name, 0) + 1
    return counts


# Where scripts/snapshot records, for every file it generated in chapters/,
# the git object id of its content: what a starter was when shipped.
SNAPSHOT_MANIFEST = ".snapshot-manifest"


def blob_id(data):
    """git's object id of a file's content, so that git can give it back."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def snapshot_manifest(chapters):
    """{path under chapters/: blob id} as scripts/snapshot last recorded it
    ({} when there is no record)."""
    recorded = {}
    path = chapters / SNAPSHOT_MANIFEST
    if path.is_file():
        for line in path.read_text().splitlines():
            blob, _, name = line.partition("  ")
            recorded[name] = blob
    return recorded


def grade_record(path):
    """build/grades.json, the grader's record of every chapter's last grade:
    {chapter: (score, max, when, note)}."""
    if not path.is_file():
        return {}
    try:
        chapters = json.loads(path.read_text())["chapters"]
        record = {}
        for slug, grade in chapters.items():
            notes = []
            if grade.get("sanitizer", "none") != "none":
                notes.append(f"{grade['sanitizer']} sanitizer")
            if grade.get("repeat", 1) != 1:
                notes.append(f"each test {grade['repeat']} times")
            record[slug] = (grade["score"], grade["max_score"], grade.get("graded_at", ""),
                            ", ".join(notes))
        return record
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise UsageError(f"{path} is not the grader's record of grades ({error})")
