#!/usr/bin/env python3
"""scripts/next's tests, with a simulated student on the course's own
chapters 01 and 02.

    check_next.py SOURCE_ROOT

Copies what scripts/next reads (scripts/, meson.build, chapters/, solutions/,
book/hints/) to a scratch folder made a git repository, as a student's clone
is; there a student finishes chapter 01 in their own words, and the checks
look at what scripts/next 2 makes of it: their text in chapter 02, chapter
02's stubs still there, a conflict named with exit 1, --dry-run writing
nothing, an edited chapter 02 refused, --force backing it up, --reference
putting it back as shipped, and a chapter 01 with stubs left refused.
"""
import hashlib
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

failures = []

MY_YIELD = """bool YieldNow::poll(Context& cx) {
  // My answer: the first poll asks to be queued again, behind the others;
  // the second one finishes.
  if (!yielded_) {
    yielded_ = true;
    cx.waker().wake_by_ref();
    return false;
  }
  return true;
}
"""


def check(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")
    print(("ok   " if condition else "FAIL ") + name)


def digest(top):
    """One hash of every file's path and content under top."""
    h = hashlib.sha1()
    for path in sorted(p for p in top.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(top)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def stubs(top):
    return sorted(re.findall(r'throw Todo\("(\d+ of chapter \d\d \([\w: -]+?), in ', "".join(
        p.read_text() for p in sorted(top.rglob("*")) if p.is_file())))


def copy_course(source, root):
    for name in ("scripts", "chapters", "solutions"):
        shutil.copytree(source / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(source / "meson.build", root / "meson.build")
    shutil.copytree(source / "book" / "hints", root / "book" / "hints")
    git = ["git", "-C", str(root), "-c", "user.name=student", "-c", "user.email=s@example.com"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "the course"], check=True)


def finish_chapter_01(root, own_note):
    """The student's chapter 01: every exercise done, yield_now in their own
    words with their comment; with own_note, a note of theirs on a line of
    task.hpp that chapter 02 rewrites (a conflict)."""
    mine, reference = root / "chapters/01-executor", root / "solutions/01-executor"
    for path in sorted(mine.rglob("*")):
        if path.is_file() and "throw Todo(" in path.read_text():
            shutil.copy(reference / path.relative_to(mine), path)
    yield_now = mine / "rt/task/yield_now.cpp"
    text, count = re.subn(r"bool YieldNow::poll\(Context& cx\) \{.*?\n\}\n", MY_YIELD,
                          yield_now.read_text(), flags=re.S)
    assert count == 1, "yield_now's solution moved: update check_next.py"
    yield_now.write_text(text)
    (mine / "rt/my_trace.hpp").write_text("// My own helper, included nowhere yet.\n#pragma once\n")
    if own_note:
        task = mine / "rt/task/task.hpp"
        line = "class Promise : public PromiseBase {\n"
        assert line in task.read_text(), "Promise's head moved: update check_next.py"
        task.write_text(task.read_text().replace(line, "class Promise : public PromiseBase {  // My note.\n", 1))


def next_(root, *arguments):
    return subprocess.run([sys.executable, str(root / "scripts/next"), *arguments],
                          capture_output=True, text=True)


def main():
    source = pathlib.Path(sys.argv[1]).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        root = pathlib.Path(scratch) / "course"
        copy_course(source, root)
        chapter = root / "chapters/02-wakers"
        shipped = digest(chapter)
        shipped_stubs = stubs(chapter)
        check("chapter 02's stubs are found (the check below compares them)",
              len(shipped_stubs) >= 3, shipped_stubs)

        ran = next_(root, "2")
        check("a chapter 01 with stubs left is refused", ran.returncode == 1 and
              "has exercises not done" in ran.stderr and digest(chapter) == shipped, ran.stderr)

        finish_chapter_01(root, own_note=False)
        ran = next_(root, "2", "--dry-run")
        check("--dry-run lists the files and writes nothing",
              ran.returncode == 0 and "rt/task/yield_now.cpp" in ran.stdout and
              digest(chapter) == shipped, ran.stdout + ran.stderr)

        ran = next_(root, "2")
        merged = (chapter / "rt/task/yield_now.cpp").read_text()
        check("a clean merge exits 0", ran.returncode == 0, ran.stdout + ran.stderr)
        check("the student's answer and comment are in chapter 02", MY_YIELD in merged, merged)
        check("the reference answer is not", "behind the others\n  return false;" not in merged
              and "if (yielded_) return true;" not in merged, merged)
        check("the student's own file is copied", (chapter / "rt/my_trace.hpp").is_file())
        check("chapter 02's stubs are all still there", stubs(chapter) == shipped_stubs,
              f"{stubs(chapter)} != {shipped_stubs}")
        check("chapter 02's new files are kept", (chapter / "rt/task/state.cpp").is_file())

        after_merge = digest(chapter)
        ran = next_(root, "2")
        check("a chapter 02 no longer as shipped is refused", ran.returncode == 1 and
              "rt/task/yield_now.cpp (changed)" in ran.stderr and digest(chapter) == after_merge,
              ran.stderr)

        (chapter / "rt/task/state.cpp").write_text((chapter / "rt/task/state.cpp").read_text() +
                                                   "// started on chapter 02\n")
        ran = next_(root, "2", "--reference", "--force")
        backups = list((root / "build/next-backup").glob("02-wakers-*/rt/task/state.cpp"))
        check("--reference --force puts chapter 02 back as shipped", ran.returncode == 0 and
              digest(chapter) == shipped, ran.stdout + ran.stderr)
        check("... after backing up the student's chapter 02 files", len(backups) == 1 and
              backups[0].read_text().endswith("// started on chapter 02\n"))

        finish_chapter_01(root, own_note=True)
        ran = next_(root, "2")
        task = (chapter / "rt/task/task.hpp").read_text()
        check("a conflict exits 1 and names its file", ran.returncode == 1 and
              "chapters/02-wakers/rt/task/task.hpp" in ran.stdout,
              ran.stdout + ran.stderr)
        check("... with both sides marked in the file", "<<<<<<< chapter 02 starter" in task and
              ">>>>>>> your chapter 01" in task and "// My note." in task, task)
        check("... and the clean files merged all the same",
              MY_YIELD in (chapter / "rt/task/yield_now.cpp").read_text())
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
