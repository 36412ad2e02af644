#!/usr/bin/env python3
"""Checks of scripts/bench and scripts/bench-chart that need no timing: which
row a ratio is taken against, which refusals are legitimate, the summary
statistics (units per second among them), what a smoke run tells the
programs, the report's columns, other contenders (--contender, and Tokio's
program where scripts/setup --bench puts it) raced by fake programs, a
chart drawn from results that the runtimes built today cannot produce yet
(multi-thread rows, a student's row), and the server race's choice of
servers and its columns (scripts/bench-server), without redis-benchmark.

Usage: bench/check_harness.py        (meson test runs it)
"""
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.dont_write_bytecode = True  # the scripts are read, not cached in the source tree


def load(name):
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), str(ROOT / "scripts" / name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


bench = load("bench")
chart = load("bench-chart")
server = load("bench-server")


class PreviousChapter(unittest.TestCase):
    def test_a_solution_is_compared_with_the_newest_earlier_solution(self):
        ran = ["solutions-01", "solutions-02", "solutions-04", "asio"]
        self.assertEqual(bench.previous_of("solutions-04", ran), "solutions-02")
        self.assertIsNone(bench.previous_of("solutions-01", ran))

    def test_a_student_runtime_is_compared_with_its_reference(self):
        self.assertEqual(bench.previous_of("chapters-03", ["solutions-02", "solutions-03"]), "solutions-03")
        self.assertEqual(bench.previous_of("chapters-03", ["solutions-02", "chapters-03"]), "solutions-02")

    def test_asio_has_no_previous_chapter(self):
        self.assertIsNone(bench.previous_of("asio", ["solutions-01", "asio"]))


class Refusals(unittest.TestCase):
    def test_what_a_chapter_may_refuse(self):
        self.assertTrue(bench.refusal_expected("solutions-03", "yield_many", "multi_thread"))
        self.assertTrue(bench.refusal_expected("solutions-02", "ping_pong", "current_thread"))
        self.assertTrue(bench.refusal_expected("chapters-01", "ping_pong_upstream", "current_thread"))
        self.assertTrue(bench.refusal_expected("solutions-08", "echo_1", "current_thread"))
        self.assertTrue(bench.refusal_expected("chapters-03", "echo_100", "multi_thread"))
        self.assertTrue(bench.refusal_expected("solutions-09", "timers", "current_thread"))
        self.assertTrue(bench.refusal_expected("chapters-09", "timeout_ready", "multi_thread"))
        self.assertTrue(bench.refusal_expected("solutions-10", "spawn_blocking", "current_thread"))
        self.assertTrue(bench.refusal_expected("chapters-10", "spawn_blocking", "multi_thread"))

    def test_what_it_may_not(self):
        self.assertFalse(bench.refusal_expected("solutions-04", "yield_many", "multi_thread"))
        self.assertFalse(bench.refusal_expected("solutions-03", "ping_pong", "current_thread"))
        self.assertFalse(bench.refusal_expected("solutions-01", "chained_spawn", "current_thread"))
        self.assertFalse(bench.refusal_expected("asio", "ping_pong", "multi_thread"))
        self.assertFalse(bench.refusal_expected("solutions-09", "echo_10", "multi_thread"))
        self.assertFalse(bench.refusal_expected("chapters-10", "echo_1", "current_thread"))
        self.assertFalse(bench.refusal_expected("asio", "echo_100", "current_thread"))
        self.assertFalse(bench.refusal_expected("solutions-10", "timers", "multi_thread"))
        self.assertFalse(bench.refusal_expected("chapters-10", "timeout_ready", "current_thread"))
        self.assertFalse(bench.refusal_expected("asio", "timers", "current_thread"))
        self.assertFalse(bench.refusal_expected("solutions-11", "spawn_blocking", "multi_thread"))
        self.assertFalse(bench.refusal_expected("chapters-11", "spawn_blocking", "current_thread"))
        self.assertFalse(bench.refusal_expected("asio", "spawn_blocking", "multi_thread"))

    def test_every_echo_timer_and_blocking_row_is_a_workload(self):
        for workload in ("echo_1", "echo_10", "echo_100", "timers", "timeout_ready", "spawn_blocking"):
            self.assertIn(workload, bench.WORKLOADS)


class Summary(unittest.TestCase):
    def test_medians_spreads_and_ratios(self):
        runtimes = ["solutions-01", "solutions-02", "asio"]
        results = {("chained_spawn", "current_thread"): {
            "solutions-01": {"status": "ok", "rounds": [80.0, 100.0, 90.0]},
            "solutions-02": {"status": "ok", "rounds": [45.0, 40.0, 60.0]},
            "asio": {"status": "ok", "rounds": [200.0, 180.0, 400.0]},
        }}
        bench.summarise(SimpleNamespace(), runtimes, results)
        row = results[("chained_spawn", "current_thread")]
        self.assertEqual((row["solutions-01"]["median"], row["solutions-01"]["low"], row["solutions-01"]["high"]),
                         (90.0, 80.0, 100.0))
        self.assertAlmostEqual(row["solutions-02"]["ratio_to_asio"], 45.0 / 200.0)
        self.assertAlmostEqual(row["solutions-02"]["ratio_to_previous"], 45.0 / 90.0)
        self.assertNotIn("ratio_to_previous", row["solutions-01"])
        self.assertNotIn("ratio_to_asio", row["asio"])
        # Units per second: the median, turned over (90 ns per spawn: 11.1M a second).
        self.assertAlmostEqual(row["solutions-01"]["units_per_second"], 1e9 / 90.0)
        self.assertAlmostEqual(row["asio"]["units_per_second"], 1e9 / 200.0)

    def test_a_runtime_that_cannot_run_gets_no_figures_and_is_no_ones_previous(self):
        runtimes = ["solutions-02", "solutions-03"]
        results = {("ping_pong", "current_thread"): {
            "solutions-02": {"status": "cannot_run", "rounds": [], "reason": "needs chapter 03"},
            "solutions-03": {"status": "ok", "rounds": [300.0]},
        }}
        bench.summarise(SimpleNamespace(), runtimes, results)
        row = results[("ping_pong", "current_thread")]
        self.assertNotIn("median", row["solutions-02"])
        self.assertNotIn("ratio_to_previous", row["solutions-03"])


class ProgramArguments(unittest.TestCase):
    def options(self, smoke):
        return SimpleNamespace(workers=2, smoke=smoke)

    def test_a_timed_run_uses_the_full_shapes(self):
        self.assertEqual(bench.program_arguments(self.options(False), "echo_10", "multi_thread"),
                         ["--workload", "echo_10", "--flavour", "multi_thread", "--workers", "2"])

    def test_a_smoke_run_asks_for_the_smaller_shapes(self):
        self.assertEqual(bench.program_arguments(self.options(True), "echo_100", "current_thread")[-1], "--smoke")

    def test_smoke_implies_quick(self):
        args = bench.parse(["--smoke"])
        self.assertTrue(args.smoke and args.quick and args.no_build)
        self.assertEqual((args.rounds, args.iterations, args.warmup), (1, 1, 0))


class Report(unittest.TestCase):
    def test_units_per_second_beside_the_time(self):
        runtimes = ["solutions-09", "asio"]
        results = {("echo_10", "multi_thread"): {
            "solutions-09": {"status": "ok", "unit": "round trip", "units": 20000, "rounds": [8000.0, 8200.0]},
            "asio": {"status": "ok", "unit": "round trip", "units": 20000, "rounds": [10000.0]},
        }}
        bench.summarise(SimpleNamespace(), runtimes, results)
        args = SimpleNamespace(workers=2, rounds=2, allocations=False, instructions=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bench.print_report(args, runtimes, results)
        text = out.getvalue()
        self.assertIn("ns per round trip", text)
        self.assertIn("round trips/s", text)
        self.assertIn("123k", text)  # 8,100 ns per round trip
        self.assertIn("100k", text)  # Asio: 10,000 ns
        self.assertIn("0.81", text)  # the ratio to Asio

    def test_a_cell_timed_in_cpu_time_says_so(self):
        runtimes = ["solutions-10", "asio"]
        results = {
            ("timers", "current_thread"): {
                "solutions-10": {"status": "ok", "unit": "sleep", "units": 100000, "clock": "cpu",
                                 "rounds": [1300.0]},
                "asio": {"status": "ok", "unit": "sleep", "units": 100000, "clock": "cpu", "rounds": [3000.0]},
            },
            ("timeout_ready", "current_thread"): {
                "solutions-10": {"status": "ok", "unit": "timeout", "units": 100000, "clock": "wall",
                                 "rounds": [140.0]},
                "asio": {"status": "ok", "unit": "timeout", "units": 100000, "clock": "wall", "rounds": [850.0]},
            },
        }
        bench.summarise(SimpleNamespace(), runtimes, results)
        args = SimpleNamespace(workers=2, rounds=1, allocations=False, instructions=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bench.print_report(args, runtimes, results)
        text = out.getvalue()
        self.assertIn("timers (current_thread): CPU ns per sleep", text)
        self.assertIn("timeout_ready (current_thread): ns per timeout", text)
        document = {"runtimes": runtimes, "cells": [{"workload": w, "flavour": f, "workers": 1, "results": r}
                              for (w, f), r in results.items()]}
        svg = chart.draw(document)
        self.assertIn("CPU ns per sleep", svg)
        self.assertIn(">ns per timeout", svg)

    def test_rates(self):
        self.assertEqual(bench.rate(950.0), "950")
        self.assertEqual(bench.rate(12345.0), "12.3k")
        self.assertEqual(bench.rate(3.4e6), "3.4M")
        self.assertEqual(bench.rate(None), "-")


FAKE_CONTENDER = """#!/usr/bin/env python3
# A contender for the harness's tests: {ns_per_unit} ns per unit, and
# exit status 3 (cannot run) for {refuses}.
import json, sys
args = sys.argv[1:]
value = lambda option, default: args[args.index(option) + 1] if option in args else default
workload, flavour = value("--workload", ""), value("--flavour", "current_thread")
if workload in {refuses!r}:
    print("fake cannot run " + workload + ": not here", file=sys.stderr)
    sys.exit(3)
units = 1000
print("starting up")  # only the last line is the report
print(json.dumps({{"runtime": "fake", "workload": workload, "flavour": flavour, "workers": 1, "unit": "yield",
                  "units": units, "clock": "wall", "ns": [{ns_per_unit} * units] * int(value("--iterations", "5")),
                  "allocations": 7 if "--count-allocations" in args else None}}))
"""


class Contenders(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.root = Path(self.scratch.name)
        self.build_dir = self.root / "build"
        (self.build_dir / "bench").mkdir(parents=True)
        (self.build_dir / "build.ninja").write_text("# no benchmark programs\n")

    def tearDown(self):
        self.scratch.cleanup()

    def program(self, name, ns_per_unit, refuses=()):
        path = self.root / name
        path.write_text(FAKE_CONTENDER.format(ns_per_unit=ns_per_unit, refuses=list(refuses)))
        path.chmod(0o755)
        return path

    def run_bench(self, *argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = bench.main(["--build-dir", str(self.build_dir), "--no-build", *argv])
        return status, out.getvalue()

    def test_contenders_race_in_the_same_rounds(self):
        tokio = self.program("fake-tokio", 40)
        other = self.program("fake-other", 20, refuses=["ping_pong"])
        data = self.root / "out.json"
        status, text = self.run_bench("--contender", f"tokio={tokio}", "--contender", f"other={other}",
                                      "--workloads", "yield_many,ping_pong", "--flavours", "current_thread",
                                      "--rounds", "2", "--iterations", "3", "--allocations", "--json", str(data))
        self.assertEqual(status, 0, text)
        document = json.loads(data.read_text())
        self.assertEqual(document["runtimes"], ["other", "tokio"])
        yields, pings = (c["results"] for c in document["cells"])
        self.assertEqual(yields["tokio"]["rounds"], [40.0, 40.0])
        self.assertEqual(yields["other"]["median"], 20.0)
        self.assertAlmostEqual(yields["other"]["ratio_to_tokio"], 0.5)
        self.assertNotIn("ratio_to_tokio", yields["tokio"])
        self.assertAlmostEqual(yields["other"]["allocations_per_unit"], 0.007)
        self.assertEqual(pings["other"]["status"], "cannot_run")
        self.assertIn("not here", pings["other"]["reason"])
        self.assertIn("x Tokio", text)

    def test_tokio_built_by_setup_joins_by_name(self):
        built = bench.tokio_program(self.build_dir)
        built.parent.mkdir(parents=True)
        built.write_text(FAKE_CONTENDER.format(ns_per_unit=30, refuses=[]))
        built.chmod(0o755)
        status, text = self.run_bench("--runtimes", "tokio", "--workloads", "yield_many",
                                      "--flavours", "multi_thread", "--quick")
        self.assertEqual(status, 0, text)
        self.assertIn("tokio", text)

    def test_tokio_not_built_is_said_in_one_line(self):
        status, _ = self.run_bench("--runtimes", "tokio", "--quick")
        self.assertEqual(status, 2)

    def test_bad_contenders_are_refused(self):
        good = self.program("fake", 10)
        for text in ("tokio", f"={good}", "tokio=", f"solutions-11={good}", f"a b={good}",
                     f"tokio={self.root / 'missing'}"):
            with self.assertRaises(bench.BenchError, msg=text):
                bench.parse_contender(text)
        self.assertEqual(bench.parse_contender(f"tokio={good}"), ("tokio", good.resolve()))
        status, _ = self.run_bench("--contender", f"x={good}", "--contender", f"x={good}", "--quick")
        self.assertEqual(status, 2)

    def test_a_contender_may_refuse_asio_may_not(self):
        self.assertTrue(bench.refusal_expected("tokio", "echo_1", "current_thread"))
        self.assertFalse(bench.refusal_expected("asio", "echo_1", "current_thread"))


class ServerRace(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.build_dir = Path(self.scratch.name) / "build"
        self.which = server.shutil_which
        server.shutil_which = lambda program: f"/usr/bin/{program}"  # as if redis-tools were installed

    def tearDown(self):
        server.shutil_which = self.which
        self.scratch.cleanup()

    def args(self, *argv):
        return server.parse(["--build-dir", str(self.build_dir), *argv])

    def test_tokio_joins_where_setup_built_it_or_where_told(self):
        self.assertEqual(server.choose(self.args()), ["rt", "redis"])
        built = server.tokio_program(self.args())
        self.assertEqual(built, self.build_dir / "bench" / "tokio" / "release" / "tokio-redis")
        built.parent.mkdir(parents=True)
        built.write_text("")
        self.assertEqual(server.choose(self.args()), ["rt", "tokio", "redis"])
        elsewhere = Path(self.scratch.name) / "tokio-redis"
        self.assertEqual(server.tokio_program(self.args("--tokio", str(elsewhere))), elsewhere)
        self.assertEqual(server.Server("tokio", self.args("--tokio", str(elsewhere))).command()[0], str(elsewhere))

    def test_tokio_asked_for_but_not_built_is_refused(self):
        with self.assertRaisesRegex(server.BenchError, "no Tokio server"):
            server.choose(self.args("--runtimes", "rt,tokio"))

    def test_the_report_compares_rt_with_each_rival(self):
        servers = ["rt", "asio", "tokio", "redis"]
        rps = {"rt": 120.0, "asio": 100.0, "tokio": 80.0, "redis": 60.0}
        args = self.args("--pipelines", "1")
        results = {s: {1: {t: [{"rps": rps[s], "p50": 0.5, "p99": 1.0}] for t in server.TESTS}} for s in servers}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            clean = server.report(args, servers, results, {s: [0] for s in servers})
        self.assertTrue(clean)
        lines = out.getvalue().splitlines()
        header = next(line for line in lines if line.strip().startswith("test"))
        first = next(line for line in lines if line.strip().startswith("PING_INLINE"))
        self.assertIn("tokio / redis", header)
        self.assertTrue(header.split("redis")[-1].split() == ["rt", "/", "asio", "rt", "/", "tokio"], header)
        self.assertEqual(first.split()[-2:], ["1.20", "1.50"])  # rt / asio, rt / tokio

    def test_a_rival_that_does_not_exit_0_is_reported(self):
        args = self.args("--pipelines", "1")
        results = {s: {1: {t: [{"rps": 1.0, "p50": 0.5, "p99": 1.0}] for t in server.TESTS}} for s in ["rt", "tokio"]}
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            clean = server.report(args, ["rt", "tokio"], results, {"rt": [0], "tokio": [None]})
        self.assertFalse(clean)
        self.assertIn("tokio-redis did not exit 0", err.getvalue())


def cell(workload, flavour, figures):
    results = {}
    for runtime, median in figures.items():
        if median is None:
            results[runtime] = {"status": "cannot_run", "rounds": [], "reason": "no"}
        else:
            results[runtime] = {"status": "ok", "unit": "task", "units": 1000, "rounds": [median],
                                "median": median, "low": median * 0.9, "high": median * 1.2}
    return {"workload": workload, "flavour": flavour, "workers": 2, "results": results}


class Chart(unittest.TestCase):
    def document(self):
        runtimes = ["solutions-03", "solutions-04", "chapters-04", "solutions-05", "asio"]
        return {
            "date": "2026-01-01 00:00 UTC", "command": "scripts/bench", "runtimes": runtimes,
            "machine": {"cpu": "test", "cores": 2, "load_average_before": [0.1]},
            "settings": {"rounds": 3, "iterations": 5},
            "cells": [
                cell("spawn_many_local", "current_thread",
                     {"solutions-03": 140, "solutions-04": 150, "chapters-04": 160, "solutions-05": 130,
                      "asio": 190}),
                cell("spawn_many_local", "multi_thread",
                     {"solutions-03": None, "solutions-04": 400, "chapters-04": 420, "solutions-05": 300,
                      "asio": 600}),
            ],
        }

    def test_every_row_is_drawn(self):
        svg = chart.draw(self.document())
        root = ET.fromstring(svg)  # well-formed
        ns = "{http://www.w3.org/2000/svg}"
        colours = {flavour: colour for flavour, (_, colour, _) in chart.FLAVOURS.items()}
        # A solid line through the solutions, per flavour (solutions-03 cannot
        # run multi-thread: that line starts at 04).
        lines = [p for p in root.iter(ns + "polyline")]
        self.assertEqual(sorted(p.get("stroke") for p in lines), sorted(colours.values()))
        # Asio: one dashed line per flavour.
        dashed = [l for l in root.iter(ns + "line") if l.get("stroke-dasharray") and l.get("stroke") in colours.values()]
        self.assertEqual(len(dashed), 2)
        # The student's runtime is hollow: one circle and one square.
        hollow = [e for e in list(root.iter(ns + "circle")) + list(root.iter(ns + "rect"))
                  if e.get("fill") == "white" and e.get("stroke") in colours.values()]
        self.assertEqual(len(hollow), 2)
        self.assertIn("yours 04", svg)

    def test_bad_input_is_refused(self):
        with self.assertRaises(chart.ChartError):
            chart.draw({"cells": []})
        with self.assertRaises(chart.ChartError):
            chart.draw({"cells": [{"workload": "x", "flavour": "sideways", "results": {}}]})

    def test_log_axis(self):
        low, high, ticks = chart.log_range([120, 3400])
        self.assertEqual((low, high), (10, 10000))
        self.assertEqual(ticks[:4], [10, 20, 50, 100])
        self.assertEqual(ticks[-1], 10000)


if __name__ == "__main__":
    sys.exit(0 if unittest.main(argv=[sys.argv[0], "-v"], exit=False).result.wasSuccessful() else 1)
