"""Two n-item list fields scored by the field ladder: the bulk path against one ladder
call per pair (the path before it), and how the time grows with n.

    python benchmarks/bench_lists.py                      # n = 1000, 2000, 4000 (cap raised)
    python benchmarks/bench_lists.py --sizes 500 1000 --before-max 1000
    python benchmarks/bench_lists.py --kinds numbers --without-numpy  # the fallbacks
    python benchmarks/bench_lists.py --kinds amounts --phases  # where the time grows

Three list kinds, generated deterministically:
- `strings`: distinct product names; the actual list shuffled, a fifth of its items
  upper-cased with a trailing mark (a fuzzy match), a tenth replaced by other names;
- `numbers`: quantities 1..n/4 (about four copies of each: ties everywhere), a
  quarter of them off by one;
- `objects`: line items `{sku, qty, unit_price}`, shuffled, some prices changed;
- `amounts`: money amounts 1.00..10,000.00, shuffled, a fifth of them moved by up to
  5% (half of those stay within the 1% tolerance): distinct values whose tolerance
  windows overlap, so ties chain across the whole list as with `numbers`.

"before" is `LadderConfig(bulk_lists=False)`: each pair scored by its own ladder
call, then the same pairing (`pairing.pair_items`). Sizes above
`bizbench_max_list_items` (2000) run with the cap raised. Both paths are checked to
give the same entry. The growth column is time(n) / time(previous n); the pairs
grow by (n / previous n)^2. The run fails (exit 1) when a list of 2,000 items takes
0.5 s or more, or the time grows more than 1.1 times the pairs' growth.

`--phases` times each list again with a clock on each stage and prints where the
time goes and how each stage grows: the credited pairs found (`pairs`, the count
the growth rule is about), the candidates' scoring, the search for the best pairing,
the rest of the pairing (costs, prices, the lowest-index walk) and the rest of the
entry. The clocks add a little to every call, so these runs are not the ones judged.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import string
import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

from pytest_bizbench.scoring import FieldLadder, LadderConfig
from pytest_bizbench.scoring import ladder as ladder_module
from pytest_bizbench.scoring import pairing as pairing_module
from pytest_bizbench.scoring import pairs as pairs_module

LIMIT_2000 = 0.5  # seconds for two lists of 2,000 items
GROWTH_SLACK = 1.1  # time may grow up to 1.1 times the pairs' growth

Lists = tuple[list[Any], list[Any]]


def _name(rng: random.Random) -> str:
    word = "".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 10)))
    return f"{word} {rng.choice(['bolt', 'nut', 'pipe', 'valve', 'gear'])} {rng.randint(1, 999)}"


def strings(n: int, rng: random.Random) -> Lists:
    expected = [_name(rng) for _ in range(n)]
    actual = []
    for item in expected:
        roll = rng.random()
        actual.append(item.upper() + "." if roll < 0.2 else _name(rng) if roll < 0.3 else item)
    rng.shuffle(actual)
    return expected, actual


def numbers(n: int, rng: random.Random) -> Lists:
    expected = [rng.randint(1, max(1, n // 4)) for _ in range(n)]
    return expected, [q + rng.choice([0, 0, 0, 1]) for q in expected]


def objects(n: int, rng: random.Random) -> Lists:
    expected = [
        {
            "sku": f"SKU-{k:05d}",
            "qty": rng.randint(1, 20),
            "unit_price": rng.randint(100, 9999) / 100,
        }
        for k in range(n)
    ]
    actual = [
        {**row, "unit_price": row["unit_price"] * (1.5 if rng.random() < 0.1 else 1.0)}
        for row in expected
    ]
    rng.shuffle(actual)
    return expected, actual


def amounts(n: int, rng: random.Random) -> Lists:
    expected = [round(rng.uniform(1, 10_000), 2) for _ in range(n)]
    actual = [round(x * rng.uniform(0.95, 1.05), 2) if rng.random() < 0.2 else x for x in expected]
    rng.shuffle(actual)
    return expected, actual


KINDS: dict[str, Callable[[int, random.Random], Lists]] = {
    "strings": strings,
    "numbers": numbers,
    "objects": objects,
    "amounts": amounts,
}


def timed(config: LadderConfig, lists: Lists, repeat: int = 1) -> tuple[float, dict[str, Any]]:
    """The median of `repeat` timings (a sub-second time moves by a fifth between
    runs, and the growth column divides two of them) and the entry scored."""
    ladder = FieldLadder(config)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        entry = ladder.score_field("items", *lists)
        times.append(time.perf_counter() - start)
    return statistics.median(times), entry


class Stages:
    """A clock on each stage of scoring a list field, for `--phases`: which stage
    grows faster than the pairs. Installed around one run, taken off after."""

    STAGES: ClassVar[dict[str, tuple[Any, str]]] = {
        "candidates": (pairs_module.PairScorer, "rows_of_copies"),
        "pairing": (ladder_module, "pair_items"),
        "search": (pairing_module._BestPairing, "__init__"),
    }

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.pairs = 0

    def run(self, config: LadderConfig, lists: Lists) -> dict[str, float]:
        """Seconds per stage of one scoring, and `pairs` the credited pairs."""
        self.seconds = dict.fromkeys(self.STAGES, 0.0)
        originals = {name: getattr(*place) for name, place in self.STAGES.items()}
        for name, (owner, attribute) in self.STAGES.items():
            setattr(owner, attribute, self._clocked(name, originals[name]))
        try:
            start = time.perf_counter()
            FieldLadder(config).score_field("items", *lists)
            total = time.perf_counter() - start
        finally:
            for name, (owner, attribute) in self.STAGES.items():
                setattr(owner, attribute, originals[name])
        found = self.seconds
        return {
            "pairs": self.pairs,
            "candidates": found["candidates"],
            "search": found["search"],
            "rest of pairing": found["pairing"] - found["search"],
            "rest": total - found["candidates"] - found["pairing"],
        }

    def _clocked(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def clocked(*args: Any) -> Any:
            if name == "pairing":
                self.pairs = sum(len(row) for row in args[0])
            start = time.perf_counter()
            try:
                return function(*args)
            finally:
                self.seconds[name] += time.perf_counter() - start

        return clocked


def phases(kinds: list[str], sizes: list[int], repeat: int) -> None:
    """Print the median of `repeat` runs of each stage and its growth from the
    previous size (pairs: the credited pairs' growth)."""
    stages = Stages()
    print("\nstages, median seconds (growth from the previous n):")
    for kind in kinds:
        previous: dict[str, float] | None = None
        for n in sizes:
            lists = KINDS[kind](n, random.Random(n))
            config = LadderConfig(max_list_items=max(n, 2000))
            runs = [stages.run(config, lists) for _ in range(repeat)]
            median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
            cells = []
            for key, value in median.items():
                text = f"{value:.0f}" if key == "pairs" else f"{value:.3f}"
                if previous and previous[key]:
                    text += f" ({value / previous[key]:.1f}x)"
                cells.append(f"{key} {text}")
            print(f"{kind:8} {n:<6} " + ", ".join(cells))
            previous = median


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--before-max", type=int, default=1000, help="largest n timed before")
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS))
    parser.add_argument("--repeat", type=int, default=3, help="timings per size (median)")
    parser.add_argument(
        "--without-numpy", action="store_true", help="as if the fast extra were not installed"
    )
    parser.add_argument("--phases", action="store_true", help="time each stage too")
    args = parser.parse_args(argv)
    if args.without_numpy:
        pairs_module.numpy_module = lambda: None  # what the tests do to run without numpy
    numpy = pairs_module.numpy_module() is not None
    slow: list[str] = []
    print(f"numpy: {'yes' if numpy else 'no (pure-Python fallbacks)'}")
    print("kind     n      after s  before s  speed-up  growth  pairs growth  score")
    for kind in args.kinds:
        previous: tuple[int, float] | None = None
        for n in args.sizes:
            lists = KINDS[kind](n, random.Random(n))
            cap = max(n, 2000)
            after, entry = timed(LadderConfig(max_list_items=cap), lists, args.repeat)
            before_text, ratio = "-", "-"
            if n <= args.before_max:
                before, reference = timed(LadderConfig(max_list_items=cap, bulk_lists=False), lists)
                if json.dumps(reference) != json.dumps(entry):
                    print(f"{kind} n={n}: the bulk path differs from one call per pair")
                    return 1
                before_text, ratio = f"{before:8.2f}", f"{before / after:7.1f}x"
            growth, pairs = "-", "-"
            if previous is not None:
                growth = f"{after / previous[1]:5.1f}x"
                pairs = f"{(n / previous[0]) ** 2:5.1f}x"
                if after / previous[1] > GROWTH_SLACK * (n / previous[0]) ** 2:
                    slow.append(f"{kind} grows {growth} from n={previous[0]} to n={n}")
            if n == 2000 and after >= LIMIT_2000:
                slow.append(f"{kind} n=2000 takes {after:.2f}s")
            print(
                f"{kind:8} {n:<6} {after:7.2f}  {before_text:>8}  {ratio:>8}  {growth:>6}"
                f"  {pairs:>12}  {entry['score']:.4f}"
            )
            previous = (n, after)
    if args.phases:
        phases(args.kinds, args.sizes, args.repeat)
    for line in slow:
        print(f"too slow: {line}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
