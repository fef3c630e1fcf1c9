"""Scale figures the parametrize comparison does not give (issue 7).

  xdist   a CPU-bound suite (a benchmark that spends --cpu-ms per document) run with
          -n 0 and -n 2: the speedup, and whether both reports agree outside "run";
          beside it the same burn as plain parametrized tests without the plugin,
          the speed-up xdist itself reaches on the machine, the two-core bound (CPU
          of all processes) and the CPU -n 2 adds to each document over -n 0
  big     one serial plugin run over a --big-docs suite: that it completes, its wall
          time per document and its peak memory

Usage: python benchmarks/bench_scale.py [--cpu-docs 2000] [--cpu-ms 4] [--runs 2]
       [--big-docs 100000] [--src DIR] [--before DIR]   (see benchmarks/README.md)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_vs_parametrize import child_env, measure  # noqa: E402
from generate import generate_suite  # noqa: E402

SMALL, BIG = 10, 20_000  # suite sizes for the fixed cost and the projection
PLAIN = "plain pytest"  # the row of the same burn without the plugin

# The burn: a loop count fixed for every process of every run, calibrated once here
# (`burn_rounds`); a count calibrated in each process would differ between runs, and
# under -n 2 two workers calibrating at once on two cores would each burn less.
BURN = """
import hashlib

ROUNDS = {rounds}
"""


def burn_rounds(ms: float) -> int:
    """SHA-256 rounds that take about `ms` here: the fastest of five 50 ms trials."""
    best = 0
    for _ in range(5):
        start, rounds = time.perf_counter(), 0
        while time.perf_counter() - start < 0.05:
            hashlib.sha256(b"x" * 256).digest()
            rounds += 1
        best = max(best, rounds)
    return max(1, int(best * ms / 50))


# A benchmark whose cost is its own work, like a model-free but heavy scorer.
BURN_CONFTEST = """
from pytest_bizbench import BenchmarkPlugin, ScoredDocument

class Burn(BenchmarkPlugin):
    name = "burn"
    version = "1.0.0"
    description = "spends a fixed amount of CPU per document"
    target_labels = ["*"]

    def score(self, document):
        for _ in range(ROUNDS):
            hashlib.sha256(b"x" * 256).digest()
        total = document.ground_truth.get("total_amount") or 0
        return ScoredDocument(document, 1.0 if total >= 0 else 0.0, {})

def pytest_bizbench_add_benchmarks(config):
    return [Burn]
"""

# The same burn as plain parametrized tests, no plugin: what xdist itself gives here.
PLAIN_TEST = """
import pytest

@pytest.mark.parametrize("doc", range({n}))
def test_burn(doc):
    for _ in range(ROUNDS):
        hashlib.sha256(b"x" * 256).digest()
"""


def plain_cmd(root: Path, *extra: str) -> list[str]:
    return [
        *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:bizbench"),
        *(str(root.with_name(f"plain-{root.name}")), *extra),
    ]


def plugin_cmd(root: Path, report: str, *extra: str) -> list[str]:
    return [
        *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(root / "cases")),
        *("--bizbench-predictions", str(root / "predictions.jsonl")),
        *("--bizbench-report", str(root / report), *extra),
    ]


def without_run(path: Path) -> str:
    report = json.loads(path.read_text(encoding="utf-8"))
    report.pop("run")
    return json.dumps(report, sort_keys=True)


def per_doc(times: dict[tuple[int, str], float], n_docs: int, mode: str) -> float:
    """The cost of one more document: the slope between the 10-document run and this one."""
    return (times[n_docs, mode] - times[SMALL, mode]) / (n_docs - SMALL)


def at_20k(times: dict[tuple[int, str], float], n_docs: int, mode: str) -> float:
    """The time at 20k documents: the 10-document run's as the fixed cost, plus 20k
    times the cost per document between the two sizes."""
    return times[SMALL, mode] + BIG * per_doc(times, n_docs, mode)


def bench_xdist(
    n_docs: int, cpu_ms: float, runs: int, pycache: Path, srcs: dict[str, Path | None]
) -> None:
    """-n 0 and -n 2 per checkout in `srcs`, interleaved; a 10-document run of each
    gives the fixed cost (start-up, workers), so the speed-up is projected to 20k
    documents as fixed + n x per-document."""
    rounds = burn_rounds(cpu_ms)
    with tempfile.TemporaryDirectory(prefix="bizbench-xdist-") as tmp:
        roots = {n: Path(tmp) / str(n) for n in (n_docs, SMALL)}
        for n, root in roots.items():
            generate_suite(root, n)
            burn = BURN.format(rounds=rounds)
            (root / "conftest.py").write_text(burn + BURN_CONFTEST, encoding="utf-8")
            (root / "pytest.ini").write_text(
                "[pytest]\nbizbench_builtin_benchmarks = false\n", encoding="utf-8"
            )
            plain = root.with_name(f"plain-{n}")  # beside the suite: none of its conftest
            plain.mkdir()
            (plain / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
            (plain / "test_burn.py").write_text(burn + PLAIN_TEST.format(n=n), encoding="utf-8")
        walls: dict[tuple[str, int, str], list[float]] = {}
        cpus: dict[tuple[str, int, str], list[float]] = {}
        for name, src in {**srcs, PLAIN: None}.items():  # unmeasured: bytecode is cached
            root = roots[SMALL]
            env = child_env(root, pycache, src)
            measure(plain_cmd(root) if name == PLAIN else plugin_cmd(root, "warm.json"), root, env)
        for _ in range(runs):
            for name, src in {**srcs, PLAIN: None}.items():
                for n, root in roots.items():
                    env = child_env(root, pycache, src)
                    for mode in ("-n 0", "-n 2"):
                        report = f"r-{name}{mode.replace(' ', '')}.json"
                        cmd = (
                            plain_cmd(root, *mode.split())
                            if name == PLAIN
                            else plugin_cmd(root, report, *mode.split())
                        )
                        wall, _, _, cpu = measure(cmd, root, env)
                        walls.setdefault((name, n, mode), []).append(wall)
                        cpus.setdefault((name, n, mode), []).append(cpu)
        print(
            f"## xdist on a CPU-bound suite: {n_docs} documents x ~{cpu_ms} ms "
            f"({rounds} SHA-256 rounds), {runs} runs\n"
        )
        print(
            "| plugin | -n 0 s | -n 2 s | speed-up | fixed -n 0 / -n 2 s | projected 20k "
            "| CPU -n 0 / -n 2 s | two-core bound 20k | xdist CPU ms/doc | same |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for name in [*srcs, PLAIN]:
            t = {key[1:]: statistics.median(v) for key, v in walls.items() if key[0] == name}
            c = {key[1:]: statistics.median(v) for key, v in cpus.items() if key[0] == name}
            serial, parallel = t[n_docs, "-n 0"], t[n_docs, "-n 2"]
            projected = at_20k(t, n_docs, "-n 0") / at_20k(t, n_docs, "-n 2")
            # two cores busy all along: -n 2 takes at least half the CPU of all processes
            bound = at_20k(c, n_docs, "-n 0") / (at_20k(c, n_docs, "-n 2") / 2)
            # what -n 2 adds to one document's CPU, all processes: xdist's messages
            added = (per_doc(c, n_docs, "-n 2") - per_doc(c, n_docs, "-n 0")) * 1000
            root = roots[n_docs]
            same = name == PLAIN or without_run(root / f"r-{name}-n0.json") == without_run(
                root / f"r-{name}-n2.json"
            )
            print(
                f"| {name} | {serial:.2f} | {parallel:.2f} | {serial / parallel:.2f}x "
                f"| {t[SMALL, '-n 0']:.2f} / {t[SMALL, '-n 2']:.2f} | {projected:.2f}x "
                f"| {c[n_docs, '-n 0']:.2f} / {c[n_docs, '-n 2']:.2f} | {bound:.2f}x "
                f"| {added:.2f} | {same} |"
            )
        print(
            "\n(target: -n 2 >= 1.75x projected to 20k; xdist CPU: what -n 2 adds to a "
            "document's CPU over -n 0, the plugin's against plain pytest's)\n"
        )


def bench_big(n_docs: int, pycache: Path, srcs: dict[str, Path | None]) -> None:
    """One serial run per checkout in `srcs` over one `n_docs` suite."""
    with tempfile.TemporaryDirectory(prefix="bizbench-big-") as tmp:
        root = Path(tmp)
        generate_suite(root, n_docs)
        print(f"## {n_docs} documents, one serial plugin run each\n")
        for name, src in srcs.items():
            env = child_env(root, pycache, src)
            wall, rss, code, _ = measure(plugin_cmd(root, f"r-{name}.json"), root, env)
            report = json.loads((root / f"r-{name}.json").read_text(encoding="utf-8"))
            scored = report["completeness"]["scored"]
            print(
                f"- {name}: exit {code}, {scored} documents scored, wall {wall:.1f} s "
                f"({wall / n_docs * 1000:.2f} ms/doc), peak RSS {rss:.0f} MB "
                f"({rss * 1024 / n_docs:.1f} KB/doc; target < 1 GB)"
            )
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-docs", type=int, default=2000)
    parser.add_argument("--cpu-ms", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--big-docs", type=int, default=0, help="0 skips the big run")
    parser.add_argument("--src", type=Path, default=None)
    parser.add_argument("--before", type=Path, default=None, help="an older checkout, too")
    args = parser.parse_args()
    srcs = {"after": args.src}
    if args.before:
        srcs = {"before": args.before.resolve(), **srcs}
    print(f"# load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="bizbench-pyc-") as pycache:
        if args.cpu_docs:
            bench_xdist(args.cpu_docs, args.cpu_ms, args.runs, Path(pycache), srcs)
        if args.big_docs:
            bench_big(args.big_docs, Path(pycache), srcs)
    print(f"# load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
