#!/usr/bin/env python3
"""The built book in a real browser: headless Chromium, driven over the
DevTools protocol on a pipe (--remote-debugging-pipe), with the standard
library alone.

It builds the book with scripts/book into a temporary directory and checks
what a reader relies on: no script error on any page; search finds a term,
its count says what it lists, and its index holds no line of a hint or a
solution (what every page's <details> blocks hold); every page's solutions
wait at its end, behind the one "I have tried" block; an anchor, and a
search result, lands below the sticky top bar; Copy leaves out a console's
"$ " prompts and output; the dark theme applies when the system prefers
it, and the toggle switches it; the arrow keys go to the next and previous
page; at 420 px nothing is wider than the screen, every table scrolls
inside its own box, the sidebar is folded and opens on request, each
diagram is drawn at no less than 60% of its size and each chart at 90%
(in a box that scrolls). It writes screenshots of every page at 1280 and
420 px, and of the index in the dark theme, for review.

Usage: browser_test.py SOURCE_ROOT SCREENSHOT_DIR
Without Chromium it skips (exit 77, meson's "skipped"), unless
BOOK_BROWSER_REQUIRED=1 is set, as CI does: then it fails.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77


class BrowserError(Exception):
    pass


class Chromium:
    """One headless Chromium, one tab, commands over the DevTools pipe."""

    def __init__(self, binary, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def as_fds_3_and_4():                 # the pipe protocol reads fd 3, writes fd 4
            high_r, high_w = os.dup(to_chrome_r) + 100, os.dup(from_chrome_w) + 100
            os.dup2(to_chrome_r, high_r)
            os.dup2(from_chrome_w, high_w)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)
        flags = ["--headless=new", "--remote-debugging-pipe", "--no-first-run",
                 "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                 "--hide-scrollbars", "--allow-file-access-from-files", f"--user-data-dir={profile}"]
        if os.geteuid() == 0:
            flags.append("--no-sandbox")      # Chromium refuses to run as root with its sandbox
        self.process = subprocess.Popen([binary, *flags, "about:blank"], preexec_fn=as_fds_3_and_4,
                                        close_fds=False, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer, self.next_id, self.events, self.session = b"", 0, [], None
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime"):
            self.send(f"{domain}.enable")

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except BrowserError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise BrowserError("Chromium closed the pipe: " +
                                   self.process.stderr.read().decode(errors="replace")[-2000:])
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session is not False and (session or self.session):
            message["sessionId"] = session or self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self.read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, name, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == name:
                    return self.events.pop(i)
            self.events.append(self.read_message(deadline))

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def load(self, action):
        """Runs `action` (which starts a navigation) and waits for the load."""
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        action()
        self.wait_event("Page.loadEventFired")

    def goto(self, url):
        self.load(lambda: self.send("Page.navigate", {"url": url}))

    def until(self, expression, what, timeout=10):
        """Polls the page until `expression` is true (the page's own scripts
        run asynchronously; there is no event to wait on)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.05)
        raise BrowserError(f"timed out waiting for {what}")

    def viewport(self, width, height, mobile=False):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))

    def key(self, key, code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                  "windowsVirtualKeyCode": {"ArrowRight": 39, "ArrowLeft": 37}.get(key, 0)})


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if path := shutil.which(name):
            return path
    return None


def check(condition, message, failures):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def search(browser, query):
    """Types `query` into the search box and waits for its answer."""
    browser.evaluate("document.getElementById('search').hidden && document.getElementById('search-toggle').click()")
    browser.evaluate(f"var i = document.getElementById('search-input'); i.value = {json.dumps(query)};"
                     "i.dispatchEvent(new Event('input'))")
    browser.until("document.querySelectorAll('#search-results a').length > 0 ||"
                  " /Nothing found/.test(document.getElementById('search-status').textContent)",
                  f"search results for {query}")


# The lines of the page's folded blocks (hints and solutions) that are not
# also somewhere outside them, whitespace left out: what the index must not hold.
FOLDED_LINES = """(function () {
  var squash = function (t) { return t.replace(/\\s+/g, ""); };
  var main = document.querySelector("main").cloneNode(true);
  var folded = Array.from(main.querySelectorAll("details")).filter(d => !d.parentElement.closest("details"));
  var lines = [];
  folded.forEach(function (d) {
    d.textContent.split("\\n").forEach(function (line) {
      if (line.trim().length >= 30) lines.push(squash(line));
    });
    d.remove();
  });
  var outside = squash(main.textContent);
  return lines.filter(line => outside.indexOf(line) < 0);
})()"""


def check_search_index(browser, url, pages, failures):
    """No line that only a hint or a solution holds is in the search index's
    sections of its page (a later chapter may show an earlier one's solution
    in its walkthrough); 'yielded_', the issue's example, previews no solution."""
    browser.goto(url("index.html"))
    search(browser, "parker")
    index = browser.evaluate("window.BOOK_SEARCH.map(e => [e.u.split('#')[0], e.x.replace(/\\s+/g, '')])")
    checked, leaked = 0, []
    for name in pages:
        browser.goto(url(name))
        lines = browser.evaluate(FOLDED_LINES)
        checked += len(lines)
        texts = [x for page, x in index if page == name]
        leaked += [f"{name}: {line[:60]}" for line in lines if any(line in x for x in texts)]
    check(checked > 100 and not leaked,
          f"the search index holds none of the {checked} lines of the pages' hints and solutions "
          f"{leaked[:3] or ''}", failures)
    browser.goto(url("01-executor.html"))
    search(browser, "yielded_")
    hits = browser.evaluate("Array.from(document.querySelectorAll('#search-results li'),"
                            " li => [li.querySelector('a').href, li.textContent])")
    check(not any("#the-solutions" in href or "yielded_ = true" in text.replace(" ", "").replace("=true", " = true")
                  for href, text in hits),
          f"searching 'yielded_' previews no solution ({len(hits)} hits)", failures)


def check_solutions_gated(browser, url, pages, failures):
    """Every solution is inside the one gate, and the gate is the page's end."""
    for name in pages:
        browser.goto(url(name))
        state = browser.evaluate("""(function () {
          var all = document.querySelectorAll("main details.solution").length;
          var gate = document.querySelectorAll("main details.solutions-gate");
          if (!gate.length) return [all, 0, 0, true, ""];
          var g = gate[gate.length - 1];
          var inside = g.querySelectorAll("details.solution").length;
          var heading = document.getElementById("the-solutions");
          var last = Array.from(document.querySelectorAll("main h2")).pop();
          return [all, gate.length, inside, heading === last && !g.open,
                  g.querySelector("summary").textContent];
        })()""")
        total, gates, inside, at_end, label = state
        if total == 0 and gates == 0:
            continue
        check(gates == 1 and inside == total and at_end and label.startswith("I have tried: show the solution"),
              f"{name}: its {total} solutions wait, folded, at its end behind \"{label}\"", failures)


def check_anchors(browser, url, width, failures):
    """Every heading of a chapter, reached by its anchor, and a search
    result on another page, show below the sticky top bar."""
    page = "04-threads.html"
    browser.goto(url(page))
    ids = browser.evaluate("Array.from(document.querySelectorAll('main h2[id], main h3[id]'), h => h.id)")
    hidden = []
    for id_ in ids:
        browser.evaluate(f"location.hash = {json.dumps('#' + id_)}")
        browser.until(f"location.hash === {json.dumps('#' + id_)}", "the anchor")
        place = browser.evaluate(f"""[document.getElementById({json.dumps(id_)}).getBoundingClientRect().top,
            document.querySelector('.topbar').getBoundingClientRect().bottom]""")
        if place[0] < place[1] - 0.5:
            hidden.append(f"{id_} ({place[0]:.0f} < {place[1]:.0f})")
    check(ids and not hidden, f"at {width} px every one of {len(ids)} anchors of {page} lands below the top bar "
          f"{hidden[:3] or ''}", failures)
    browser.goto(url("index.html"))
    search(browser, "parker")
    target = browser.evaluate("Array.from(document.querySelectorAll('#search-results a'), a => a.href)"
                              ".find(h => h.indexOf('#') > 0 && h.indexOf('index.html') < 0)")
    browser.load(lambda: browser.evaluate(f"document.querySelector('#search-results a[href$=\"{target.split('/')[-1]}\"]').click()"))
    place = browser.evaluate("""[document.getElementById(decodeURIComponent(location.hash.slice(1))).getBoundingClientRect().top,
        document.querySelector('.topbar').getBoundingClientRect().bottom]""")
    check(place[0] >= place[1] - 0.5, f"at {width} px a search result ({target.split('/')[-1]}) lands below the "
          f"top bar ({place[0]:.0f} px, the bar ends at {place[1]:.0f})", failures)


def check_copy(browser, url, pages, failures):
    """Copy on a console block gives the commands alone: no "$ ", no output."""
    for name in pages:
        browser.goto(url(name))
        found = browser.evaluate("Array.from(document.querySelectorAll('main pre'))"
                                 ".findIndex(p => /^\\$ /m.test(p.innerText) && /^[^$\\s]/m.test(p.innerText))")
        if found >= 0:
            break
    else:
        check(False, "a console block with prompts and output to copy", failures)
        return
    shown = browser.evaluate(f"document.querySelectorAll('main pre')[{found}].innerText")
    browser.evaluate("""window.__copied = null;
      Object.defineProperty(navigator, 'clipboard', {configurable: true,
        value: {writeText: function (t) { window.__copied = t; return Promise.resolve(); }}});
      document.execCommand = function () { window.__copied = document.activeElement.value; return true; };""")
    browser.evaluate(f"document.querySelectorAll('main .copy-button')[{found}].click()")
    browser.until("window.__copied !== null", "the copied text")
    copied = browser.evaluate("window.__copied").split("\n")
    commands = [line[2:] for line in shown.splitlines() if line.startswith("$ ")]
    output = [line for line in shown.splitlines() if line.strip() and not line.startswith("$ ")]
    check(copied == commands[:len(copied)] and len(copied) == len(commands) and
          not any(line in copied for line in output),
          f"Copy on {name} gives its {len(commands)} commands without prompts or output: {copied}", failures)


def check_search_count(browser, url, failures):
    """The count says what the list shows, and the rest can be shown."""
    browser.goto(url("index.html"))
    search(browser, "the")
    status = browser.evaluate("document.getElementById('search-status').textContent")
    listed = browser.evaluate("document.querySelectorAll('#search-results li').length")
    numbers = [int(n) for n in status.replace(",", "").split() if n.isdigit()]
    total = numbers[0] if numbers else -1
    shown = numbers[1] if len(numbers) > 1 else total
    check(total > listed == shown and "shown" in status,
          f"search counts right: \"{status}\", {listed} listed", failures)
    if not browser.evaluate("!!document.getElementById('search-more')"):
        check(False, "a button shows the results past the first", failures)
        return
    browser.evaluate("document.getElementById('search-more').click()")
    listed = browser.evaluate("document.querySelectorAll('#search-results li').length")
    status = browser.evaluate("document.getElementById('search-status').textContent")
    check(listed == total and "all shown" in status, f"\"{status}\" after Show the other: {listed} listed", failures)


# At 420 px: each table inside a box that scrolls, its last column reached
# by scrolling that box; each chart (an image alone in a paragraph) at 90%
# of its size or more, in a box that scrolls.
NARROW_BOXES = """(function () {
  var main = document.querySelector("main").getBoundingClientRect();
  var bad = [];
  document.querySelectorAll("main table").forEach(function (table, i) {
    var wrap = table.parentElement;
    if (!wrap.classList.contains("table-wrap")) { bad.push("table " + i + " has no box"); return; }
    var box = wrap.getBoundingClientRect();
    if (box.right > main.right + 1) bad.push("table " + i + " box ends at " + box.right);
    if (wrap.scrollWidth > wrap.clientWidth) {
      if (getComputedStyle(wrap).overflowX !== "auto") bad.push("table " + i + " does not scroll");
      wrap.scrollLeft = wrap.scrollWidth;
      var cells = table.rows[0].cells, last = cells[cells.length - 1].getBoundingClientRect();
      if (last.right > wrap.getBoundingClientRect().right + 1) bad.push("table " + i + " last column out of reach");
      wrap.scrollLeft = 0;
    }
  });
  document.querySelectorAll("main p.chart img").forEach(function (img) {
    var shown = img.getBoundingClientRect().width / img.naturalWidth;
    if (!(shown >= 0.9)) bad.push(img.getAttribute("src") + " at " + Math.round(100 * shown) + "%");
    var box = img.closest("p.chart");
    if (box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX !== "auto")
      bad.push(img.getAttribute("src") + " does not scroll");
  });
  return [document.querySelectorAll("main table").length, document.querySelectorAll("main p.chart img").length, bad];
})()"""


def main():
    source, shots = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    binary = find_chromium()
    if binary is None:
        message = ("Chromium is not installed, so the book was not tested in a browser "
                   "(apt-get install chromium; CI installs it and runs this test)")
        if os.environ.get("BOOK_BROWSER_REQUIRED") == "1":
            print(f"FAIL: {message}")
            return 1
        print(f"SKIP: {message}")
        return SKIP
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "book"
        built = subprocess.run([str(source / "scripts/book"), "--out", str(out)], capture_output=True, text=True)
        if built.returncode != 0:
            print(built.stderr)
            return 1
        shots.mkdir(parents=True, exist_ok=True)
        pages = sorted(p.name for p in out.glob("*.html") if p.name not in ("index.html", "print.html"))
        browser = Chromium(binary, Path(tmp) / "profile")
        try:
            url = lambda name: (out / name).as_uri()  # noqa: E731
            errors = lambda: [e for e in browser.events if e.get("method") == "Runtime.exceptionThrown"]  # noqa: E731

            # Wide: every page loads without a script error, and is photographed.
            browser.viewport(1280, 900)
            for name in ["index.html"] + pages:
                browser.goto(url(name))
                browser.screenshot(shots / f"{name[:-5]}-1280.png")
            check(not errors(), f"no script error on {len(pages) + 1} pages", failures)
            browser.goto(url("01-executor.html"))
            buttons = browser.evaluate("[document.querySelectorAll('main pre').length,"
                                       " document.querySelectorAll('main .copy-button').length]")
            check(buttons[0] > 0 and buttons[0] == buttons[1],
                  f"every code block has a copy button ({buttons[1]} of {buttons[0]})", failures)

            # Search finds a term, in the chapter that explains it.
            search(browser, "parker")
            hits = browser.evaluate("Array.from(document.querySelectorAll('#search-results a'), a => a.href)")
            check(any("01-executor.html" in h for h in hits), f"search finds 'parker' in chapter 01 ({len(hits)} hits)", failures)
            browser.evaluate("var i = document.getElementById('search-input'); i.value = 'zxqv-nowhere';"
                             "i.dispatchEvent(new Event('input'))")
            check(browser.evaluate("document.querySelectorAll('#search-results a').length") == 0 and
                  "Nothing found" in browser.evaluate("document.getElementById('search-status').textContent"),
                  "search says when nothing is found", failures)
            check_search_count(browser, url, failures)
            check_search_index(browser, url, pages, failures)
            check_solutions_gated(browser, url, pages, failures)
            check_anchors(browser, url, 1280, failures)
            check_copy(browser, url, pages, failures)

            # The arrow keys turn the pages.
            browser.goto(url("index.html"))
            next_page = browser.evaluate("document.querySelector('.pager a[rel=next]').href")
            browser.load(lambda: browser.key("ArrowRight", "ArrowRight"))
            check(browser.evaluate("location.href") == next_page, "ArrowRight opens the next page", failures)
            browser.load(lambda: browser.key("ArrowLeft", "ArrowLeft"))
            check(browser.evaluate("location.href").endswith("introduction.html"),
                  "ArrowLeft opens the previous page", failures)

            # Dark mode follows the system, and the toggle overrides it.
            browser.send("Emulation.setEmulatedMedia",
                         {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            browser.goto(url("01-executor.html"))
            background = browser.evaluate("getComputedStyle(document.body).backgroundColor")
            rgb = [int(c) for c in background[background.index("(") + 1:-1].split(",")[:3]]
            check(browser.evaluate("document.documentElement.classList.contains('dark')") and sum(rgb) < 200,
                  f"a system that prefers dark gets the dark theme (background {background})", failures)
            browser.screenshot(shots / "01-executor-dark-1280.png")
            browser.evaluate("document.getElementById('theme-toggle').click()")
            check(browser.evaluate("document.documentElement.classList.contains('light')"),
                  "the theme toggle switches to light", failures)
            browser.goto(url("02-wakers.html"))
            check(browser.evaluate("document.documentElement.classList.contains('light')"),
                  "the choice is remembered on the next page", failures)
            browser.evaluate("localStorage.clear()")
            browser.send("Emulation.setEmulatedMedia", {"features": []})

            # Narrow: nothing overflows, the sidebar folds, diagrams stay legible.
            browser.viewport(420, 860, mobile=True)
            tables = charts = 0
            for name in ["index.html"] + pages:
                browser.goto(url(name))
                width = browser.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                check(width[0] <= width[1], f"{name} at 420 px: {width[0]} px wide", failures)
                boxed = browser.evaluate(NARROW_BOXES)
                tables, charts = tables + boxed[0], charts + boxed[1]
                check(not boxed[2], f"{name} at 420 px: {boxed[0]} tables scroll inside their box, "
                      f"{boxed[1]} charts legible {boxed[2] or ''}", failures)
                small = browser.evaluate(
                    "Array.from(document.querySelectorAll('figure.diagram img'))"
                    ".filter(i => i.naturalWidth && i.getBoundingClientRect().width / i.naturalWidth < 0.6)"
                    ".map(i => i.getAttribute('src'))")
                check(not small, f"{name} at 420 px: every diagram at 60% of its size or more {small or ''}", failures)
                browser.screenshot(shots / f"{name[:-5]}-420.png")
            check(tables > 10 and charts >= 2, f"at 420 px {tables} tables and {charts} charts were looked at", failures)
            check_anchors(browser, url, 420, failures)
            browser.goto(url("01-executor.html"))
            hidden = browser.evaluate("getComputedStyle(document.getElementById('sidebar')).display")
            browser.evaluate("document.getElementById('sidebar-toggle').click()")
            shown = browser.evaluate("getComputedStyle(document.getElementById('sidebar')).display")
            check(hidden == "none" and shown != "none", "at 420 px the sidebar is folded and opens on request", failures)
            browser.screenshot(shots / "01-executor-sidebar-420.png")
            check(not errors(), "no script error at any step", failures)
        except BrowserError as error:
            failures.append(str(error))
            print(f"FAIL  {error}")
        finally:
            browser.close()
    print(f"screenshots in {shots}")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
