"""Several samples of one case: the unbiased pass@k estimator and the samples' spread.

pass@k is the chance that at least one of k samples drawn without replacement from
n generated ones is correct, given c of the n are: 1 - C(n-c, k) / C(n, k) (Chen et
al., 2021). It is computed as an exact fraction of integers and rounded once, at the
end, so the value does not depend on the order of float operations.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


def pass_at_k(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k): the chance one of k samples out of n is correct.

    `n` samples, `c` of them correct, `k` drawn. Raises ValueError for k > n (the
    estimator is undefined: there are not k samples to draw), k < 1, or c outside
    0..n.
    """
    for name, value in (("n", n), ("c", c), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"pass_at_k: {name} must be an integer, got {value!r}")
    if k < 1:
        raise ValueError(f"pass_at_k: k must be at least 1, got {k}")
    if k > n:
        raise ValueError(f"pass_at_k: k={k} > n={n}")
    if not 0 <= c <= n:
        raise ValueError(f"pass_at_k: c={c} must be within 0..n={n}")
    return float(1 - Fraction(math.comb(n - c, k), math.comb(n, k)))


def pass_at_k_details(n: int, c: int, ks: Sequence[int]) -> dict[str, Any]:
    """A document's `pass_at_k` (null where k > n) and, then, its `pass_at_k_note`."""
    details: dict[str, Any] = {
        "pass_at_k": {str(k): pass_at_k(n, c, k) if k <= n else None for k in ks}
    }
    too_few = [k for k in ks if k > n]
    if too_few:
        details["pass_at_k_note"] = "; ".join(f"k={k} > n={n}" for k in too_few)
    return details


def pass_at_k_metrics(details: Iterable[Mapping[str, Any]], ks: Sequence[int]) -> dict[str, Any]:
    """`pass_at_<k>`: the mean over the documents with n >= k (null when there are none)."""
    rows = [d.get("pass_at_k") or {} for d in details]
    metrics: dict[str, Any] = {}
    for k in ks:
        values = [float(v) for row in rows if isinstance(v := row.get(str(k)), (int, float))]
        metrics[f"pass_at_{k}"] = math.fsum(values) / len(values) if values else None
    return metrics


@dataclass(frozen=True, slots=True)
class Spread:
    """The scores of several samples (or runs) of one case.

    `shown` is the index of the median-by-score sample: samples are ordered by score,
    ties by their position, and the lower median is taken, so the sample a reader
    sees is a typical one, never the lucky best; with an even count it is the worse
    of the two middle ones.
    """

    n: int
    mean: float
    min: float
    max: float
    shown: int

    @classmethod
    def of(cls, scores: Sequence[float]) -> Spread:
        if not scores:
            raise ValueError("a spread needs at least one score")
        order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
        return cls(
            n=len(scores),
            mean=math.fsum(scores) / len(scores),
            min=min(scores),
            max=max(scores),
            shown=order[(len(scores) - 1) // 2],
        )
