#!/usr/bin/env python3
"""Tests of scripts/book beyond "the book builds": its checks fail when
they should (an exercise's solution shown unfolded, or folded but not as a
solution, a listing without its caption), print.html has unique ids, the
search index covers every page and holds no line of a hint or a solution,
holds code as it is written and every section whole,
every solution waits at the end of its chapter behind "I have tried", and
the mdBook preprocessor mode speaks mdBook's protocol and moves the
solutions too.

Each test builds a copy of book/ in a temporary directory, changed the way
a mistake would change it.

Usage: check_book.py SOURCE_ROOT
"""
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from html.parser import HTMLParser
from pathlib import Path

SOURCE = Path(sys.argv.pop(1)).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
BOOK = SOURCE / "scripts" / "book"


class Ids(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.ids = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.ids += [v for k, v in attrs if k == "id" and v]


class Folds(HTMLParser):
    """A page's text, split into what its <details> blocks hold (by line)
    and what is outside them; its h2 headings, in order."""
    def __init__(self, text):
        super().__init__()
        self.depth, self.inside, self.outside, self.h2 = 0, [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "details":
            self.depth += 1
        if tag == "h2":
            self.h2.append(dict(attrs).get("id"))

    def handle_endtag(self, tag):
        if tag == "details":
            self.depth -= 1

    def handle_data(self, data):
        (self.inside if self.depth else self.outside).append(data)

    def folded_lines(self):
        """The folded lines that are nowhere outside the folds, whitespace left out."""
        outside = squash(" ".join(self.outside))
        lines = {squash(line) for line in "".join(self.inside).split("\n") if len(line.strip()) >= 30}
        return {line for line in lines if line not in outside}


def squash(text):
    return re.sub(r"\s+", "", text)


def search_index(out):
    return json.loads(re.match(r"window\.BOOK_SEARCH = (.*);\s*$", (out / "searchindex.js").read_text(), re.S)[1])


class BookCopy(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.book = Path(self.tmp.name) / "book"
        shutil.copytree(SOURCE / "book", self.book, ignore=shutil.ignore_patterns("book"))
        self.page = self.book / "src" / "01-executor.md"

    def build(self, *args):
        return subprocess.run([str(BOOK), str(self.book), *args], capture_output=True, text=True)

    def edit(self, old, new):
        text = self.page.read_text()
        self.assertIn(old, text)
        self.page.write_text(text.replace(old, new, 1))

    def test_the_copy_builds(self):
        result = self.build("--check")
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_an_exercise_solution_shown_unfolded_fails(self):
        self.edit("{{#include listings/01-executor/nested_await.starter.hpp}}",
                  "{{#include listings/01-executor/nested_await.hpp}}")
        result = self.build("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("shows the solution of an exercise (nested_await) unfolded", result.stderr)

    def test_a_solution_folded_as_a_solution_is_fine_and_goes_to_the_end(self):
        self.edit("## Goals", '<details class="solution">\n<summary>folded</summary>\n\n'
                  '<p class="listing-caption"><code>rt/task/task.hpp</code></p>\n\n'
                  "```cpp\n{{#include listings/01-executor/nested_await.hpp}}\n```\n\n</details>\n\n## Goals")
        result = self.build("--check")
        self.assertEqual(result.returncode, 0, result.stderr)
        out = Path(self.tmp.name) / "out"
        self.assertEqual(self.build("--out", str(out)).returncode, 0)
        page = (out / "01-executor.html").read_text()
        gate = page[page.index('<details class="solutions-gate"'):]
        self.assertEqual(page.count('<details class="solution"'), gate.count('<details class="solution"'))
        self.assertIn("<summary>folded</summary>", gate)
        self.assertIn("<summary>I have tried: show the solutions</summary>", gate)

    def test_a_solution_in_a_fold_that_is_not_a_solution_fails(self):
        # A hint's fold would show it before the deliberate step, and search would not know.
        self.edit("## Goals", "<details>\n<summary>Hint 9: folded</summary>\n\n"
                  '<p class="listing-caption"><code>rt/task/task.hpp</code></p>\n\n'
                  "```cpp\n{{#include listings/01-executor/nested_await.hpp}}\n```\n\n</details>\n\n## Goals")
        result = self.build("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("shows the solution of an exercise (nested_await) unfolded", result.stderr)
        self.assertIn('<details class="solution">', result.stderr)

    def test_every_chapter_keeps_its_solutions_at_its_end_behind_one_gate(self):
        out = Path(self.tmp.name) / "out"
        self.assertEqual(self.build("--out", str(out)).returncode, 0)
        gated = 0
        for source in sorted((self.book / "src").glob("[0-9][0-9]-*.md")):
            solutions = len(re.findall(r'^<details class="solution">', source.read_text(), re.M))
            page = (out / (source.stem + ".html")).read_text()
            if not solutions:
                self.assertNotIn("solutions-gate", page)
                continue
            gated += 1
            self.assertEqual(page.count('<details class="solutions-gate"'), 1, source.name)
            head, gate = page.split('<details class="solutions-gate"')
            self.assertEqual(gate.count('<details class="solution"'), solutions, source.name)
            self.assertNotIn('<details class="solution"', head, source.name)
            self.assertEqual(Folds(page).h2[-1], "the-solutions", source.name)  # the chapter's last section
            self.assertIn(f"I have tried: show the solution{'s' if solutions > 1 else ''}</summary>", gate)
            self.assertIn('href="#the-solutions"', head, "where the solutions were, a line says where they went")
        self.assertGreaterEqual(gated, 11)

    def test_the_search_index_holds_no_hint_and_no_solution(self):
        out = Path(self.tmp.name) / "out"
        self.assertEqual(self.build("--out", str(out)).returncode, 0)
        index = search_index(out)
        checked = 0
        for page in sorted(out.glob("[0-9][0-9]-*.html")):
            folded = Folds(page.read_text()).folded_lines()
            checked += len(folded)
            texts = [squash(e["x"]) for e in index if e["u"].split("#")[0] == page.name]
            leaked = [line for line in folded if any(line in text for text in texts)]
            self.assertEqual(leaked, [], f"{page.name}: the search index holds folded lines")
        self.assertGreater(checked, 500)
        # The issue's example: exercise 4's solution, `yielded_ = true;`, is nowhere in the index.
        self.assertFalse(any("yielded_=true" in squash(e["x"]) for e in index))

    def test_the_search_index_holds_code_as_written_and_sections_whole(self):
        out = Path(self.tmp.name) / "out"
        self.assertEqual(self.build("--out", str(out)).returncode, 0)
        index = search_index(out)
        # Highlighted code: its tokens joined as in the source, not spaced apart.
        for code in ("std::exchange", "fetch_or(shutdown_bit", "root.poll(cx)"):
            self.assertTrue(any(code in e["x"] for e in index), f"{code} is not in the search index")
        # No section cut short: some are longer than a preview, and whole.
        self.assertGreater(max(len(e["x"]) for e in index), 4000)

    def test_a_listing_without_its_caption_fails(self):
        self.edit('<p class="listing-caption">Listing 1.1: <code>rt/task/task.hpp</code></p>\n', "")
        result = self.build("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("promise.hpp has no caption", result.stderr)

    def test_a_caption_naming_another_file_fails(self):
        self.edit('Listing 1.1: <code>rt/task/task.hpp</code>', 'Listing 1.1: <code>rt/task/poll.hpp</code>')
        result = self.build("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("does not name its file, <code>rt/task/task.hpp</code>", result.stderr)

    def test_a_starter_caption_without_its_exercise_fails(self):
        text = self.page.read_text()
        self.page.write_text(re.sub(r"(Listing 1\.2: <code>rt/task/task.hpp</code>)[^<]*<code>nested_await</code>\): the starter",
                                    r"\1", text, count=1))
        result = self.build("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("does not give the exercise's number", result.stderr)

    def test_print_ids_are_unique_and_every_page_is_searchable(self):
        out = Path(self.tmp.name) / "out"
        result = self.build("--out", str(out))
        self.assertEqual(result.returncode, 0, result.stderr)
        ids = Ids((out / "print.html").read_text()).ids
        self.assertGreater(len(ids), 100)
        self.assertEqual(len(ids), len(set(ids)), "an id appears twice in print.html")
        index = search_index(out)
        pages = {entry["u"].split("#")[0] for entry in index}
        built = {p.name for p in out.glob("*.html")} - {"index.html", "print.html"}
        self.assertEqual(pages, built)
        self.assertTrue(any("parker" in entry["x"] for entry in index if entry["u"].startswith("01-executor")))
        self.assertTrue((out / "diagrams" / "02-task-states.svg").read_text().lstrip().startswith(("<?xml", "<svg")))

    def test_details_hold_markdown(self):
        out = Path(self.tmp.name) / "out"
        self.assertEqual(self.build("--out", str(out)).returncode, 0)
        page = (out / "01-executor.html").read_text()
        hint = re.search(r"<details>\s*<summary>Hint 1: a nudge</summary>(.*?)</details>", page, re.S)
        self.assertIsNotNone(hint)
        self.assertIn("<code>await_suspend</code>", hint[1])   # Markdown inside was rendered

    def test_the_mdbook_preprocessor_protocol(self):
        supports = subprocess.run([str(BOOK), "--mdbook-preprocessor", "supports", "html"])
        self.assertEqual(supports.returncode, 0)
        book_json = {"sections": [{"Chapter": {"name": "x", "content": "text"}}], "__non_exhaustive": None}
        context = {"root": str(self.book), "config": {"book": {"src": "src"}}, "renderer": "html",
                   "mdbook_version": "0.4.40"}
        result = subprocess.run([str(BOOK), "--mdbook-preprocessor"], input=json.dumps([context, book_json]),
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout), book_json)
        self.assertTrue((self.book / "src" / "diagrams" / "01-run-queue-parker.svg").is_file())

    def test_the_mdbook_preprocessor_moves_the_solutions_too(self):
        page = ("# One\n\n## Exercises\n\n### Solutions\n\nRead these last.\n\n"
                '<details class="solution">\n<summary>Solution: exercise 1</summary>\n\n'
                "```cpp\nint answer() { return 42; }\n```\n\n</details>\n\n## Challenges\n\nMore.\n")
        chapter = {"name": "One", "content": page, "sub_items": [
            {"Chapter": {"name": "Inner", "content": page.replace("One", "Inner"), "sub_items": []}}]}
        context = {"root": str(self.book), "config": {"book": {"src": "src"}}, "renderer": "html",
                   "mdbook_version": "0.4.40"}
        result = subprocess.run([str(BOOK), "--mdbook-preprocessor"],
                                input=json.dumps([context, {"sections": [{"Chapter": chapter}]}]),
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        sections = json.loads(result.stdout)["sections"]
        for moved in (sections[0]["Chapter"]["content"], sections[0]["Chapter"]["sub_items"][0]["Chapter"]["content"]):
            self.assertLess(moved.index("## Challenges"), moved.index("## The solutions"))
            self.assertLess(moved.index("## The solutions"), moved.index("Read these last."))
            self.assertLess(moved.index("I have tried: show the solution<"), moved.index("return 42"))
            self.assertLess(moved.index("### Solutions"), moved.index('href="#the-solutions"'))
            self.assertLess(moved.index('href="#the-solutions"'), moved.index("## Challenges"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
