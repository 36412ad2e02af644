#!/usr/bin/env python3
"""Tests of scripts/book beyond "the book builds": its checks fail when
they should (an exercise's solution shown unfolded, a listing without its
caption), print.html has unique ids, the search index covers every page,
and the mdBook preprocessor mode speaks mdBook's protocol.

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

    def test_a_folded_solution_is_fine(self):
        self.edit("## Goals", "<details>\n<summary>folded</summary>\n\n"
                  '<p class="listing-caption"><code>rt/task/task.hpp</code></p>\n\n'
                  "```cpp\n{{#include listings/01-executor/nested_await.hpp}}\n```\n\n</details>\n\n## Goals")
        result = self.build("--check")
        self.assertEqual(result.returncode, 0, result.stderr)

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
        index = json.loads(re.match(r"window\.BOOK_SEARCH = (.*);\s*$",
                                    (out / "searchindex.js").read_text(), re.S)[1])
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


if __name__ == "__main__":
    unittest.main(verbosity=2)
