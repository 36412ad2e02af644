#!/usr/bin/env python3
"""The built book in a real browser: headless Chromium, driven over the
DevTools protocol on a pipe (--remote-debugging-pipe), with the standard
library alone.

It builds the book with scripts/book into a temporary directory and checks
what a reader relies on: no script error on any page; search finds a term;
the dark theme applies when the system prefers it, and the toggle switches
it; the arrow keys go to the next and previous page; at 420 px nothing is
wider than the screen, the sidebar is folded and opens on request, and each
diagram is drawn at no less than 60% of its size. It writes screenshots of
every page at 1280 and 420 px, and of the index in the dark theme, for
review.

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
            browser.evaluate("document.getElementById('search-toggle').click()")
            browser.evaluate("var i = document.getElementById('search-input'); i.value = 'parker';"
                             "i.dispatchEvent(new Event('input'))")
            browser.until("document.querySelectorAll('#search-results a').length > 0 ||"
                          " /Nothing found/.test(document.getElementById('search-status').textContent)",
                          "search results")
            hits = browser.evaluate("Array.from(document.querySelectorAll('#search-results a'), a => a.href)")
            check(any("01-executor.html" in h for h in hits), f"search finds 'parker' in chapter 01 ({len(hits)} hits)", failures)
            browser.evaluate("var i = document.getElementById('search-input'); i.value = 'zxqv-nowhere';"
                             "i.dispatchEvent(new Event('input'))")
            check(browser.evaluate("document.querySelectorAll('#search-results a').length") == 0 and
                  "Nothing found" in browser.evaluate("document.getElementById('search-status').textContent"),
                  "search says when nothing is found", failures)

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
            for name in ["index.html"] + pages:
                browser.goto(url(name))
                width = browser.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                check(width[0] <= width[1], f"{name} at 420 px: {width[0]} px wide", failures)
                small = browser.evaluate(
                    "Array.from(document.querySelectorAll('figure.diagram img'))"
                    ".filter(i => i.naturalWidth && i.getBoundingClientRect().width / i.naturalWidth < 0.6)"
                    ".map(i => i.getAttribute('src'))")
                check(not small, f"{name} at 420 px: every diagram at 60% of its size or more {small or ''}", failures)
                browser.screenshot(shots / f"{name[:-5]}-420.png")
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
