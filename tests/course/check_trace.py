#!/usr/bin/env python3
"""Tests of scripts/trace, the runtime trace's timeline, on traces made up here.

    check_trace.py TRACE_SCRIPT

Each test writes a small trace in the Chrome trace-event format that
chapter 12's runtime writes, draws it, and reads the SVG back as XML: the
lanes and their totals, the window options, the axis, the bins that keep
a trace of 200,000 polls small, events the script does not know, and bad
input (one error line, exit status 2, no traceback).
"""
import json
import re
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

SCRIPT = Path(sys.argv.pop(1)).resolve() if len(sys.argv) > 1 else \
    Path(__file__).resolve().parents[2] / "scripts" / "trace"
SVG = "{http://www.w3.org/2000/svg}"


def name(tid, text):
    return {"name": "thread_name", "ph": "M", "pid": 1, "tid": tid, "args": {"name": text}}


def poll(tid, ts, dur, task=1):
    return {"name": "poll", "cat": "task", "ph": "X", "ts": ts, "dur": dur, "pid": 1, "tid": tid,
            "args": {"task": task}}


def park(tid, ts, dur):
    return {"name": "park", "cat": "worker", "ph": "X", "ts": ts, "dur": dur, "pid": 1, "tid": tid}


def steal(tid, ts, victim, tasks):
    return {"name": "steal", "cat": "worker", "ph": "i", "s": "t", "ts": ts, "pid": 1, "tid": tid,
            "args": {"from": victim, "tasks": tasks}}


def trace(events, flavour="multi_thread", workers=2):
    return {"displayTimeUnit": "ns",
            "otherData": {"runtime": "solutions-12", "flavour": flavour, "workers": workers},
            "traceEvents": events}


def expected_totals(events, tid, w0, w1):
    """What a lane's totals line must say, worked out from the events."""
    mine = [e for e in events if e.get("tid") == tid and e.get("ph") != "M"]
    spans = [e for e in mine if e["ph"] == "X" and e["name"] == "poll" and e["ts"] <= w1
             and e["ts"] + e["dur"] >= w0]
    busy = sum(min(e["ts"] + e["dur"], w1) - max(e["ts"], w0) for e in spans)
    steals = sum(1 for e in mine if e["name"] == "steal" and w0 <= e["ts"] <= w1)
    parks = sum(1 for e in mine if e["name"] == "park" and e["ts"] <= w1 and e["ts"] + e["dur"] >= w0)

    def words(n, word):
        return f"{n:,} {word}" + ("" if n == 1 else "s")
    return (f"{words(len(spans), 'poll')} · busy {100 * busy / (w1 - w0):.1f}% · "
            f"{words(steals, 'steal')} · {words(parks, 'park')}")


def extent(events):
    """The whole trace, which the timeline shows when given no window."""
    timed = [e for e in events if "ts" in e]
    return min(e["ts"] for e in timed), max(e["ts"] + e.get("dur", 0) for e in timed)


def text_of(element):
    return "".join(element.itertext())


class Drawn:
    """An SVG that scripts/trace wrote, read back as XML."""

    def __init__(self, path):
        self.size = path.stat().st_size
        self.root = ET.parse(path).getroot()

    def lanes(self):
        """lane name -> its totals line."""
        out = {}
        for group in self.root.iter(SVG + "g"):
            if group.get("class") == "worker":
                spans = list(group.find(SVG + "text").iter(SVG + "tspan"))
                out[spans[0].text] = spans[1].text
        return out

    def lane(self, label):
        return next(g for g in self.root.iter(SVG + "g") if g.get("data-lane") == label)

    def texts(self, css):
        return [text_of(t) for t in self.root.iter(SVG + "text") if t.get("class") == css]

    def tooltips(self, element=None):
        return [t.text for t in (element if element is not None else self.root).iter(SVG + "title")]

    def rects(self, element, css):
        return [r for r in element.iter(SVG + "rect") if r.get("class") == css]


class TraceScript(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = Path(self.tmp.name)

    def write(self, document, file="trace.json"):
        path = self.dir / file
        path.write_text(document if isinstance(document, str) else json.dumps(document))
        return path

    def run_script(self, path, *options):
        out = self.dir / "timeline.svg"
        out.unlink(missing_ok=True)
        result = subprocess.run([sys.executable, str(SCRIPT), str(path), "-o", str(out), *options],
                                capture_output=True, text=True)
        return result, out

    def draw(self, document, *options):
        result, out = self.run_script(self.write(document), *options)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        return Drawn(out)

    def refused(self, document, message, *options):
        """Bad input: exit status 2, one line naming the problem, nothing written."""
        path = document if isinstance(document, Path) else self.write(document)
        result, out = self.run_script(path, *options)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertTrue(result.stderr.startswith("scripts/trace: "), result.stderr)
        self.assertIn(message, result.stderr)
        self.assertFalse(out.exists())

    # Two workers, named by metadata: every kind of event the runtime writes.
    EVENTS = [name(0, "alpha"), name(1, "beta"),
              poll(0, 0, 10, 1), poll(0, 20, 10, 2), poll(0, 40, 20, 3),
              park(1, 0, 45), steal(1, 47, 0, 2), poll(1, 50, 5, 4), park(1, 60, 40)]

    def test_lanes_are_named_by_metadata_and_totalled(self):
        drawn = self.draw(trace(self.EVENTS))
        self.assertEqual(drawn.lanes(), {"alpha": expected_totals(self.EVENTS, 0, 0, 100),
                                         "beta": expected_totals(self.EVENTS, 1, 0, 100)})
        self.assertEqual(drawn.lanes()["alpha"], "3 polls · busy 40.0% · 0 steals · 0 parks")
        self.assertEqual(drawn.lanes()["beta"], "1 poll · busy 5.0% · 1 steal · 2 parks")

    def test_the_title_line_names_runtime_and_flavour(self):
        drawn = self.draw(trace(self.EVENTS))
        self.assertIn("solutions-12", drawn.texts("title")[0])
        self.assertIn("multi_thread", drawn.texts("title")[0])
        self.assertIn("2 workers", drawn.texts("detail")[0])
        self.assertIn("in all: 4 polls", drawn.texts("detail")[0])
        titled = self.draw(trace(self.EVENTS), "--title", "Ping-pong <on> two workers")
        self.assertEqual(titled.texts("title"), ["Ping-pong <on> two workers"])
        self.assertIn("solutions-12, multi_thread", titled.texts("detail")[0])

    def test_a_steal_names_its_victim_in_a_tooltip(self):
        drawn = self.draw(trace(self.EVENTS))
        beta = drawn.lane("beta")
        marks = [p for p in beta.iter(SVG + "path") if p.get("class") == "s"]
        self.assertEqual(len(marks), 1)
        self.assertIn("from alpha (2 tasks)", marks[0].find(SVG + "title").text)
        self.assertEqual([p for p in drawn.lane("alpha").iter(SVG + "path")], [])

    def test_polls_are_bars_and_parks_a_band(self):
        drawn = self.draw(trace(self.EVENTS))
        alpha_bars = drawn.rects(drawn.lane("alpha"), "p")
        self.assertGreaterEqual(len(alpha_bars), 3)
        self.assertEqual(drawn.rects(drawn.lane("alpha"), "k"), [])
        bands = drawn.rects(drawn.lane("beta"), "k")
        self.assertGreaterEqual(len(bands), 2)
        covered = sum(float(r.get("width")) for r in bands)
        plot = sum(float(r.get("width")) for r in drawn.lane("beta").iter(SVG + "rect")
                   if r.get("class") is None)
        self.assertAlmostEqual(covered / plot, 0.85, delta=0.01)  # parked 85 of 100 µs

    def test_a_current_thread_trace_has_one_lane(self):
        events = [name(0, "worker 0"), poll(0, 5, 1), poll(0, 7, 1), poll(0, 9, 1)]
        drawn = self.draw(trace(events, "current_thread", 1))
        self.assertEqual(list(drawn.lanes()), ["worker 0"])
        self.assertIn("current_thread", drawn.texts("title")[0])
        self.assertIn("1 worker;", drawn.texts("detail")[0])

    def test_an_idle_worker_has_a_lane_too(self):
        drawn = self.draw(trace([poll(0, 0, 10)], workers=3))
        self.assertEqual(drawn.lanes(), {"worker 0": "1 poll · busy 100.0% · 0 steals · 0 parks",
                                         "worker 1": "0 polls · busy 0.0% · 0 steals · 0 parks",
                                         "worker 2": "0 polls · busy 0.0% · 0 steals · 0 parks"})

    def test_the_window_counts_and_draws_only_what_it_shows(self):
        drawn = self.draw(trace(self.EVENTS), "--from", "0.02", "--to", "0.06")
        self.assertEqual(drawn.lanes(), {"alpha": expected_totals(self.EVENTS, 0, 20, 60),
                                         "beta": expected_totals(self.EVENTS, 1, 20, 60)})
        self.assertEqual(drawn.lanes()["alpha"], "2 polls · busy 75.0% · 0 steals · 0 parks")
        values = [float(t.split()[0]) for t in drawn.texts("tick")]
        self.assertTrue(values and min(values) >= 20 and max(values) <= 60, values)
        only_start = self.draw(trace(self.EVENTS), "--from", "0.05")
        self.assertEqual(only_start.lanes()["alpha"], "1 poll · busy 20.0% · 0 steals · 0 parks")

    def test_times_are_from_the_first_event(self):
        shifted = [dict(e, ts=e["ts"] + 5000) if "ts" in e else e for e in self.EVENTS]
        drawn = self.draw(trace(shifted), "--from", "0.02", "--to", "0.06")
        self.assertEqual(drawn.lanes()["alpha"], "2 polls · busy 75.0% · 0 steals · 0 parks")

    def test_an_empty_window_is_refused(self):
        self.refused(trace(self.EVENTS), "--from must be before --to", "--from", "0.05", "--to", "0.01")

    def test_ticks_are_round_in_the_unit_of_the_step(self):
        for length, unit in ((80, "µs"), (7_000, "ms"), (3_000_000, "s")):
            drawn = self.draw(trace([poll(0, 0, length / 2), poll(1, length / 2, length / 2)]))
            labels = drawn.texts("tick")
            self.assertGreaterEqual(len(labels), 3, labels)
            self.assertTrue(all(label.endswith(" " + unit) for label in labels), (unit, labels))
            values = [float(label.split()[0]) for label in labels]
            steps = {round(b - a, 9) for a, b in zip(values, values[1:])}
            self.assertEqual(len(steps), 1, labels)
            step = steps.pop()
            mantissa = step / 10 ** int(f"{step:e}".split("e")[1])
            self.assertIn(round(mantissa, 6), (1.0, 2.0, 5.0), labels)
            self.assertTrue(all(abs(v / step - round(v / step)) < 1e-6 for v in values), labels)

    def test_two_hundred_thousand_polls_stay_small(self):
        sizes = {}
        for count in (20_000, 200_000):
            events = [name(0, "worker 0"), name(1, "worker 1")]
            for i in range(count):
                tid = i % 2
                ts = (i // 2) * 1.5 + (0.4 if tid else 0)  # 0.3 to 1.1 µs polls, 1.5 µs apart
                events.append(poll(tid, ts, 0.3 + (i % 9) / 10, i))
                if i % 5000 == 4999:
                    events.append(steal(tid, ts + 1.2, 1 - tid, 3))
            drawn = self.draw(trace(events))
            sizes[count] = drawn.size
            half = count // 2
            w0, w1 = extent(events)
            for label, line in drawn.lanes().items():
                self.assertTrue(line.startswith(f"{half:,} polls · busy "), line)
                self.assertEqual(line, expected_totals(events, int(label[-1]), w0, w1))
            bars = sum(len(drawn.rects(drawn.lane(label), "p")) for label in drawn.lanes())
            self.assertLessEqual(bars, 2 * 960, "more bars than pixels")
        self.assertLess(sizes[200_000], 400_000, sizes)
        self.assertLess(sizes[200_000], 2 * sizes[20_000], sizes)

    def test_a_bar_is_as_tall_as_its_pixel_is_busy(self):
        # Worker 0 is busy half of every pixel (0.5 µs polls every µs), worker 1 all of it.
        events = [poll(0, i, 0.5, i) for i in range(2000)] + [poll(1, 0, 2000, 9)]
        drawn = self.draw(trace(events))
        heights = lambda label: {float(r.get("height")) for r in drawn.rects(drawn.lane(label), "p")}
        self.assertEqual(len(drawn.rects(drawn.lane("worker 1"), "p")), 1)
        full = heights("worker 1").pop()
        self.assertTrue(all(abs(h - full / 2) <= full * 0.05 + 1e-9 for h in heights("worker 0")),
                        heights("worker 0"))
        self.assertIn("task 9", drawn.tooltips(drawn.lane("worker 1"))[0])

    def test_unknown_events_are_drawn_or_ignored_never_fatal(self):
        events = self.EVENTS + [
            {"name": "shutdown", "cat": "worker", "ph": "X", "ts": 90, "dur": 10, "pid": 1, "tid": 0},
            {"name": "wake", "ph": "i", "s": "t", "ts": 33, "pid": 1, "tid": 1, "args": {"task": 4}},
            {"name": "drain", "ph": "B", "ts": 70, "pid": 1, "tid": 1},
            {"name": "drain", "ph": "E", "ts": 75, "pid": 1, "tid": 1},
            {"name": "queue depth", "ph": "C", "ts": 50, "pid": 1, "tid": 0, "args": {"depth": 3}},
            {"name": "poll", "ph": "X", "ts": "soon", "dur": 1, "pid": 1, "tid": 0},
            {"name": "poll", "ph": "X", "ts": 3, "pid": 1, "tid": 0},
            {"name": "steal", "ph": "i", "ts": 50, "pid": 1, "tid": 0},
            {"name": "thread_name", "ph": "M", "pid": 1, "tid": 7},
            {"ph": "X", "ts": 1, "dur": 1}, "not an event", 42, None, [1, 2],
        ]
        drawn = self.draw(trace(events))
        self.assertEqual(list(drawn.lanes()), ["alpha", "beta"])
        self.assertEqual(drawn.lanes()["alpha"], "3 polls · busy 40.0% · 1 steal · 0 parks")
        legend = " ".join(drawn.texts("legend"))
        self.assertIn("shutdown", legend)
        self.assertIn("drain", legend)
        self.assertIn("wake", legend)
        self.assertIn("not drawn", drawn.texts("note")[0])
        self.assertTrue(any("shutdown" in t for t in drawn.tooltips(drawn.lane("alpha"))))
        self.assertTrue(any("drain" in t for t in drawn.tooltips(drawn.lane("beta"))))
        self.assertTrue(any(t.startswith("wake at") for t in drawn.tooltips(drawn.lane("beta"))))

    def test_the_array_form_of_the_format_is_read(self):
        drawn = self.draw(self.EVENTS)
        self.assertEqual(list(drawn.lanes()), ["alpha", "beta"])

    def test_text_is_readable_and_the_drawing_scales(self):
        for width in ("960", "480"):
            drawn = self.draw(trace(self.EVENTS), "--width", width)
            root = drawn.root
            self.assertEqual(root.get("width"), width)
            self.assertEqual(root.get("viewBox"), f"0 0 {width} {root.get('height')}")
            style = root.find(SVG + "style").text
            sizes = [float(s) for s in re.findall(r"font-size:\s*([\d.]+)px", style)]
            sizes += [float(e.get("font-size")) for e in root.iter() if e.get("font-size")]
            self.assertTrue(sizes and min(sizes) >= 11, sizes)
            texts = list(root.iter(SVG + "text"))
            self.assertTrue(all(t.get("class") in ("title", "detail", "lane", "tick", "note", "legend")
                                for t in texts), [t.get("class") for t in texts])
            self.assertTrue(re.search(r"\.(title|detail|lane|tick|note|legend)\{", style))

    def test_bad_input_is_one_line_and_status_2(self):
        self.refused("{\"traceEvents\": [", "is not JSON")
        self.refused("", "is empty")
        self.refused("  \n", "is empty")
        self.refused({"cells": []}, "not a trace")
        self.refused(42, "not a trace")
        self.refused("\"a string\"", "not a trace")
        self.refused({"traceEvents": {}}, "not a trace")
        self.refused({"traceEvents": []}, "no events to draw")
        self.refused(trace([name(0, "worker 0"), name(1, "worker 1")]), "no events to draw")
        self.refused(trace(["junk", {"ph": "X"}]), "no events to draw")
        self.refused(self.dir / "missing.json", "cannot read")
        binary = self.dir / "binary.json"
        binary.write_bytes(b"\xff\xfe\x00garbage")
        self.refused(binary, "is not JSON")
        self.refused(trace(self.EVENTS), "--width", "--width", "50")


if __name__ == "__main__":
    unittest.main(verbosity=2)
