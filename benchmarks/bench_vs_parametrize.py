"""Time the plugin against a hand-written parametrize suite and a bare loop.

Generates a suite per size in a temporary directory, then runs each configuration as
a whole subprocess, interleaved A B C A B C ... so machine drift hits all alike:

  A   plugin        pytest CASES --bizbench-predictions P --bizbench-report R
  B   parametrize   pytest -p no:bizbench benchmarks/parametrize_suite
  C   bare loop     python benchmarks/bare_loop.py
  Aco / Bco         A and B with --collect-only
  An2               A with -n 2 (pytest-xdist), at the --xdist-docs sizes
  A0                A with the plugin imported from --before DIR (an older checkout)

Wall time is `perf_counter` around the child; peak RSS is the child's own `ru_maxrss`
from `os.wait4` (RUSAGE_CHILDREN would be a max over every child so far). One
unmeasured warm-up round first fills the page cache and the bytecode caches.

Usage: python benchmarks/bench_vs_parametrize.py --docs 2000 [--docs 20000] [--runs 5]
       [--xdist-docs 2000] [--src DIR] [--before DIR]   (see benchmarks/README.md)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import generate_suite  # noqa: E402

LABELS = {
    "A": "A plugin",
    "B": "B parametrize",
    "C": "C bare loop",
    "Aco": "A collect-only",
    "Bco": "B collect-only",
    "An2": "A plugin -n 2",
    "A0": "A0 plugin before",
}


@dataclass
class Samples:
    """Every measured run of one configuration."""

    walls: list[float] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    exit_codes: set[int] = field(default_factory=set)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def rss(self) -> float:
        return statistics.median(self.rss_mb)


def measure(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, int, float]:
    """(wall seconds, peak RSS MB, exit code, CPU seconds) of one child process; the
    CPU time (user + system) includes the children it waited for, xdist's workers.

    Any non-zero exit is an error (exit 1 is tolerated under --collect-only, for
    measuring commits from before collect-only runs stopped judging the gate).
    """
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        tolerated = {0, 1} if "--collect-only" in cmd else {0}
        if proc.returncode not in tolerated:
            out.seek(0)
            tail = out.read().decode(errors="replace")[-3000:]
            raise RuntimeError(f"exit {proc.returncode}: {' '.join(cmd)}\n{tail}")
    cpu = usage.ru_utime + usage.ru_stime
    return wall, usage.ru_maxrss / 1024, proc.returncode, cpu  # ru_maxrss is in KiB on Linux


def commands(root: Path, xdist: bool, before: bool) -> dict[str, tuple[list[str], Path]]:
    """The command line and working directory of each configuration."""
    py = sys.executable
    plugin = [
        *(py, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(root / "cases")),
        *("--bizbench-predictions", str(root / "predictions.jsonl")),
        *("--bizbench-report", str(root / "r.json")),
    ]
    suite = HERE / "parametrize_suite"
    param = [py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:bizbench", str(suite)]
    cmds = {
        "A": (plugin, root),
        "B": (param, root),
        "C": ([py, str(HERE / "bare_loop.py"), str(root), str(root / "c.json")], root),
        # own report path: a collect-only run writes a report too (and fails the gate)
        "Aco": ([*plugin[:-1], str(root / "r-co.json"), "--collect-only", "-q"], root),
        "Bco": ([*param, "--collect-only", "-q"], root),
    }
    if xdist:
        cmds["An2"] = ([*plugin, "-n", "2"], root)
    if before:
        cmds["A0"] = ([*plugin[:-1], str(root / "r0.json")], root)
    return cmds


def check_same_result(root: Path) -> str:
    """All three runs must agree on the accuracy, or the timings compare different work."""
    plugin = json.loads((root / "r.json").read_text(encoding="utf-8"))
    accuracy = {
        "A": plugin["benchmarks"]["field-accuracy"]["models"]["default"]["metrics"]["accuracy"],
        "B": json.loads((root / "b.json").read_text(encoding="utf-8"))["metrics"]["accuracy"],
        "C": json.loads((root / "c.json").read_text(encoding="utf-8"))["metrics"]["accuracy"],
    }
    if (root / "r0.json").exists():
        before = json.loads((root / "r0.json").read_text(encoding="utf-8"))
        accuracy["A0"] = before["benchmarks"]["field-accuracy"]["models"]["default"]["metrics"][
            "accuracy"
        ]
    if max(accuracy.values()) - min(accuracy.values()) > 1e-9:
        raise RuntimeError(f"runs disagree on the accuracy: {accuracy}")
    return f"{accuracy['A']:.6f}"


def child_env(root: Path, pycache: Path, src: Path | None) -> dict[str, str]:
    """The children's environment: no PYTEST_* leaking in, and bytecode caching on.

    Bytecode (and pytest's rewritten-assert pyc) goes to a private prefix, so runs are
    warm like a developer's machine even where PYTHONDONTWRITEBYTECODE is set, and no
    __pycache__ lands in the repository; without it every run recompiles pytest.
    `src` (a checkout's root) goes first on PYTHONPATH, so a fixed commit is measured
    while the editable install's working tree is being edited.
    """
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("PYTEST_") and key != "PYTHONDONTWRITEBYTECODE"
    }
    env |= {
        "PYTHONPYCACHEPREFIX": str(pycache),
        "BIZBENCH_BENCH_ROOT": str(root),
        "BIZBENCH_BENCH_REPORT": str(root / "b.json"),
    }
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(src), env.get("PYTHONPATH")]))
    return env


def bench_size(
    n_docs: int, runs: int, xdist: bool, pycache: Path, src: Path | None, *, before: Path | None
) -> dict[str, Samples]:
    """Generate a suite of `n_docs`, run every configuration `runs` times, interleaved."""
    with tempfile.TemporaryDirectory(prefix=f"bizbench-{n_docs}-") as tmp:
        root = Path(tmp)
        generate_suite(root, n_docs, seed=0)
        env = child_env(root, pycache, src)
        envs = {"A0": child_env(root, pycache, before)} if before else {}
        cmds = commands(root, xdist, before is not None)
        probe = [sys.executable, "-c", "import pytest_bizbench as p; print(p.__file__)"]
        loaded = subprocess.run(
            probe, cwd=root, env=env, capture_output=True, text=True, check=True
        )
        print(f"  [{n_docs} docs] children import {loaded.stdout.strip()}", file=sys.stderr)
        results = {key: Samples() for key in cmds}
        for run in range(runs + 1):  # round 0 is the warm-up
            for key, (cmd, cwd) in cmds.items():
                wall, rss, code, _ = measure(cmd, cwd, envs.get(key, env))
                if run:
                    results[key].walls.append(wall)
                    results[key].rss_mb.append(rss)
                    results[key].exit_codes.add(code)
            print(f"  [{n_docs} docs] round {run}/{runs} done", file=sys.stderr, flush=True)
        accuracy = check_same_result(root)
    print(f"\n## {n_docs} documents, {runs} runs, accuracy {accuracy} in A, B and C alike\n")
    return results


def report(n_docs: int, results: dict[str, Samples]) -> None:
    """Print the table and the ratios of one size."""
    print("| config | median s | min–max s | peak RSS MB | ms/doc | exit |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, samples in results.items():
        lo, hi = min(samples.walls), max(samples.walls)
        per_doc = samples.wall / n_docs * 1000
        codes = ",".join(map(str, sorted(samples.exit_codes)))
        print(
            f"| {LABELS[key]} | {samples.wall:.3f} | {lo:.3f}–{hi:.3f} "
            f"| {samples.rss:.0f} | {per_doc:.3f} | {codes} |"
        )
    a, b, c = results["A"].wall, results["B"].wall, results["C"].wall
    print()
    print(f"- A/B (plugin / parametrize): {a / b:.3f}  (target ≤ 1.0, stretch 0.8, floor 1.25)")
    print(f"- A/C (plugin / bare loop): {a / c:.2f}")
    print(f"- per document: A {a / n_docs * 1000:.3f} ms, B {b / n_docs * 1000:.3f} ms")
    print(f"- plugin overhead (A − C)/n: {(a - c) / n_docs * 1000:.3f} ms/doc (target ≤ 0.2)")
    print(f"- parametrize overhead (B − C)/n: {(b - c) / n_docs * 1000:.3f} ms/doc")
    aco, bco = results["Aco"].wall, results["Bco"].wall
    print(
        f"- collect-only A/B: {aco / bco:.3f}  (A {aco / n_docs * 1e6:.0f} µs/case, "
        f"B {bco / n_docs * 1e6:.0f} µs/case, including startup)"
    )
    rss_ratio = results["A"].rss / results["B"].rss
    print(f"- peak RSS A/B: {rss_ratio:.2f}  (target ≤ 1.2 at 10k)")
    if "A0" in results:
        a0 = results["A0"]
        print(f"- before: A0/B {a0.wall / b:.3f}, after: A/B {a / b:.3f}; A/A0 {a / a0.wall:.3f}")
        for key in ("A0", "A"):
            extra = (results[key].rss - results["B"].rss) * 1024 / n_docs
            print(f"- peak RSS {key} − B: {extra:+.2f} KB/doc (target ≤ +1)")
    if "An2" in results:
        n2 = results["An2"].wall
        print(
            f"- -n 2 / serial A: {n2 / a:.2f}  (speedup {a / n2:.2f}×; cheap items: not expected)"
        )


def main() -> None:
    """Parse the sizes, run them, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, action="append", help="suite size (repeatable)")
    parser.add_argument("--runs", type=int, default=5, help="measured rounds per size")
    parser.add_argument(
        "--xdist-docs",
        type=int,
        action="append",
        help="sizes at which to time -n 2 as well (default: 2000 only; 0: never)",
    )
    parser.add_argument(
        "--before",
        type=Path,
        help="also time the plugin from this older checkout (config A0), interleaved",
    )
    parser.add_argument(
        "--src",
        type=Path,
        help="import pytest_bizbench from this checkout (e.g. `git worktree add`) in the runs",
    )
    args = parser.parse_args()
    src = args.src.resolve() if args.src else None
    before = args.before.resolve() if args.before else None
    sizes = args.docs or [2000]
    xdist_sizes = set(args.xdist_docs or [2000])
    cores = os.cpu_count()
    print(
        f"# bizbench: plugin vs parametrize vs bare loop — python {platform.python_version()}, "
        f"pytest {pytest.__version__}, {cores} cores, {time.strftime('%Y-%m-%d')}"
    )
    print(f"# command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"# pytest_bizbench from: {src or 'the installed package'}; before: {before}")
    print(f"# load average at start: {os.getloadavg()[0]:.2f} (other work skews the figures)")
    with tempfile.TemporaryDirectory(prefix="bizbench-pycache-") as pycache:
        for n_docs in sizes:
            xdist = n_docs in xdist_sizes
            results = bench_size(n_docs, args.runs, xdist, Path(pycache), src, before=before)
            report(n_docs, results)
    print(f"\n# load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
