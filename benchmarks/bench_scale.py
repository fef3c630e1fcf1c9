"""Scale figures the parametrize comparison does not give (SPEC §11, issue 7).

  xdist   a CPU-bound suite (a benchmark that spends --cpu-ms per document) run with
          -n 0 and -n 2: the speedup, and whether both reports agree outside "run"
  big     one serial plugin run over a --big-docs suite: that it completes, its wall
          time per document and its peak memory

Usage: python benchmarks/bench_scale.py [--cpu-docs 2000] [--cpu-ms 4] [--runs 2]
       [--big-docs 100000] [--src DIR]   (see benchmarks/README.md)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_vs_parametrize import child_env, measure  # noqa: E402
from generate import generate_suite  # noqa: E402

# A benchmark whose cost is its own work, like a model-free but heavy scorer; the
# loop count is calibrated once per process so every document costs about the same.
BURN_CONFTEST = """
import hashlib
import time

from pytest_bizbench import BenchmarkPlugin, ScoredDocument

def _rounds_for(ms):
    start, rounds = time.perf_counter(), 0
    while time.perf_counter() - start < 0.05:
        hashlib.sha256(b"x" * 256).digest()
        rounds += 1
    return max(1, int(rounds * ms / 50))

ROUNDS = _rounds_for({ms})

class Burn(BenchmarkPlugin):
    name = "burn"
    version = "1.0.0"
    description = "spends a fixed amount of CPU per document"
    target_labels = ["*"]

    def score(self, document):
        for _ in range(ROUNDS):
            hashlib.sha256(b"x" * 256).digest()
        total = document.ground_truth.get("total_amount") or 0
        return ScoredDocument(document, 1.0 if total >= 0 else 0.0, {{}})

def pytest_bizbench_add_benchmarks(config):
    return [Burn]
"""


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


def bench_xdist(n_docs: int, cpu_ms: float, runs: int, pycache: Path, src: Path | None) -> None:
    with tempfile.TemporaryDirectory(prefix="bizbench-xdist-") as tmp:
        root = Path(tmp)
        generate_suite(root, n_docs)
        (root / "conftest.py").write_text(BURN_CONFTEST.format(ms=cpu_ms), encoding="utf-8")
        (root / "pytest.ini").write_text(
            "[pytest]\nbizbench_builtin_benchmarks = false\n", encoding="utf-8"
        )
        env = child_env(root, pycache, src)
        walls: dict[str, list[float]] = {"-n 0": [], "-n 2": []}
        for _ in range(runs):
            for mode, report in (("-n 0", "r0.json"), ("-n 2", "r2.json")):
                wall, _, _ = measure(plugin_cmd(root, report, *mode.split()), root, env)
                walls[mode].append(wall)
        serial, parallel = (statistics.median(v) for v in walls.values())
        same = without_run(root / "r0.json") == without_run(root / "r2.json")
        print(f"## xdist on a CPU-bound suite: {n_docs} documents x ~{cpu_ms} ms, {runs} runs\n")
        print("| mode | median s | ms/doc |\n|---|---:|---:|")
        for mode, values in walls.items():
            median = statistics.median(values)
            print(f"| {mode} | {median:.2f} | {median / n_docs * 1000:.2f} |")
        print(f"\n- speedup -n 2 over -n 0: {serial / parallel:.2f}x (target >= 1.6x)")
        print(f'- reports equal outside "run": {same}\n')


def bench_big(n_docs: int, pycache: Path, src: Path | None) -> None:
    with tempfile.TemporaryDirectory(prefix="bizbench-big-") as tmp:
        root = Path(tmp)
        generate_suite(root, n_docs)
        wall, rss, code = measure(plugin_cmd(root, "r.json"), root, child_env(root, pycache, src))
        report = json.loads((root / "r.json").read_text(encoding="utf-8"))
        scored = report["completeness"]["scored"]
        print(f"## {n_docs} documents, one serial plugin run\n")
        print(
            f"- exit {code}, {scored} documents scored, wall {wall:.1f} s "
            f"({wall / n_docs * 1000:.2f} ms/doc), peak RSS {rss:.0f} MB "
            f"({rss * 1024 / n_docs:.1f} KB/doc)\n"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-docs", type=int, default=2000)
    parser.add_argument("--cpu-ms", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--big-docs", type=int, default=0, help="0 skips the big run")
    parser.add_argument("--src", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bizbench-pyc-") as pycache:
        if args.cpu_docs:
            bench_xdist(args.cpu_docs, args.cpu_ms, args.runs, Path(pycache), args.src)
        if args.big_docs:
            bench_big(args.big_docs, Path(pycache), args.src)


if __name__ == "__main__":
    main()
