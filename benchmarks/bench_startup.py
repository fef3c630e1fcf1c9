"""Start-up cost of the plugin: `pytest` against `pytest -p no:bizbench` in an empty
directory, each a whole subprocess, interleaved A B A B so drift hits both alike.

    python benchmarks/bench_startup.py --runs 30
    python benchmarks/bench_startup.py --python /path/to/other/venv/bin/python
    python benchmarks/bench_startup.py --python BEFORE/bin/python --python AFTER/bin/python
    python benchmarks/bench_startup.py --src /tmp/bizbench-COMMIT   # a checkout first on the path
    python benchmarks/bench_startup.py --src /tmp/BEFORE --src .    # two checkouts, one venv

Prints the median wall and CPU (user + system, from `os.wait4`) seconds of each and
the plugin's difference; the CPU figure is the steadier one on a busy machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _env(src: str | None, pycache: str) -> dict[str, str]:
    """The bytecode cache is per checkout: the same module path in two checkouts
    would otherwise share one cached file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPYCACHEPREFIX"] = pycache  # bytecode cached even under PYTHONDONTWRITEBYTECODE
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if src:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    return env


def _time(argv: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of `argv`."""
    start = time.perf_counter()
    child = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 5):  # 5: no tests collected, as expected here
        raise SystemExit(f"{' '.join(argv)} exited {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--python", action="append", help="interpreter to time (repeat: all interleaved)"
    )
    parser.add_argument(
        "--src",
        action="append",
        help="a checkout of the package, put first on the path (repeat: all interleaved)",
    )
    args = parser.parse_args()
    setups = [
        (python, os.path.abspath(src) if src else None)
        for python in args.python or [sys.executable]
        for src in args.src or [None]
    ]
    configs: dict[tuple[tuple[str, str | None], str], list[str]] = {}
    for setup in setups:
        base = [setup[0], "-m", "pytest", "-p", "no:cacheprovider"]
        configs[setup, "A plugin"] = base
        configs[setup, "B -p no:bizbench"] = [*base, "-p", "no:bizbench"]
    with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as pycache:
        envs = {
            setup: _env(setup[1], os.path.join(pycache, str(n))) for n, setup in enumerate(setups)
        }
        times: dict[tuple[tuple[str, str | None], str], list[tuple[float, float]]] = {
            key: [] for key in configs
        }
        for round_ in range(args.runs + 1):  # round 0 warms the bytecode cache
            for key, argv in configs.items():
                measured = _time(argv, empty, envs[key[0]])
                if round_:
                    times[key].append(measured)
    print(f"{args.runs} runs each, interleaved, in an empty directory")
    for setup in setups:
        medians = [
            (
                statistics.median(w for w, _ in times[setup, name]),
                statistics.median(c for _, c in times[setup, name]),
            )
            for name in ("A plugin", "B -p no:bizbench")
        ]
        python, src = setup
        print(f"python {python}" + (f", src {src}" if src else ""))
        print(f"  {'config':<18} {'wall ms':>9} {'cpu ms':>9}")
        for name, (wall, cpu) in zip(("A plugin", "B -p no:bizbench"), medians, strict=True):
            print(f"  {name:<18} {wall * 1000:>9.1f} {cpu * 1000:>9.1f}")
        (wall_a, cpu_a), (wall_b, cpu_b) = medians
        print(f"  {'A - B':<18} {(wall_a - wall_b) * 1000:>+9.1f} {(cpu_a - cpu_b) * 1000:>+9.1f}")


if __name__ == "__main__":
    main()
