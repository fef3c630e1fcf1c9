"""Several samples of one case: pass@k, pass^k, flips and the samples' spread.

pass@k is the chance that at least one of k samples drawn without replacement from
n generated ones is correct, given c of the n are: 1 - C(n-c, k) / C(n, k) (Chen et
al., 2021). pass^k is the chance that all k are: C(c, k) / C(n, k). Both are exact
fractions of integers rounded once, at the end, so the value does not depend on the
order of float operations. A case flips when some samples pass and others fail:
such a case is flaky, and its one-sample verdict is a coin toss.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pytest_bizbench.maths.figures import mean

_SAMPLE_METRIC = re.compile(r"pass_(?:at|hat)_\d+")


def _check(name: str, n: int, c: int, k: int) -> None:
    """The domain shared by pass@k and pass^k; ValueError outside it."""
    for arg, value in (("n", n), ("c", c), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name}: {arg} must be an integer, got {value!r}")
    if k < 1:
        raise ValueError(f"{name}: k must be at least 1, got {k}")
    if k > n:
        raise ValueError(f"{name}: k={k} > n={n}")
    if not 0 <= c <= n:
        raise ValueError(f"{name}: c={c} must be within 0..n={n}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k): the chance one of k samples out of n is correct.

    `n` samples, `c` of them correct, `k` drawn. Raises ValueError for k > n (the
    estimator is undefined: there are not k samples to draw), k < 1, or c outside
    0..n.
    """
    _check("pass_at_k", n, c, k)
    return float(1 - Fraction(math.comb(n - c, k), math.comb(n, k)))


def pass_hat_k(n: int, c: int, k: int) -> float:
    """C(c, k) / C(n, k): the chance all of k samples out of n are correct (pass^k),
    what a user who asks k times and needs every answer right sees. Same domain as
    `pass_at_k`."""
    _check("pass_hat_k", n, c, k)
    return float(Fraction(math.comb(c, k), math.comb(n, k)))


def pass_at_k_details(n: int, c: int, ks: Sequence[int]) -> dict[str, Any]:
    """A document's `pass_at_k` (null where k > n) and, then, its `pass_at_k_note`."""
    details: dict[str, Any] = {
        "pass_at_k": {str(k): pass_at_k(n, c, k) if k <= n else None for k in ks}
    }
    too_few = [k for k in ks if k > n]
    if too_few:
        details["pass_at_k_note"] = "; ".join(f"k={k} > n={n}" for k in too_few)
    return details


def sample_details(n: int, c: int, ks: Sequence[int]) -> dict[str, Any]:
    """A document's sample statistics: `pass_at_k`, `pass_hat_k` (null where k > n),
    `pass_at_k_note`, and `flip`, true when some samples passed and some failed."""
    return {
        **pass_at_k_details(n, c, ks),
        "pass_hat_k": {str(k): pass_hat_k(n, c, k) if k <= n else None for k in ks},
        "flip": 0 < c < n,
    }


def sample_counts(details: Mapping[str, Any]) -> tuple[int, int] | None:
    """(n, passed) of a document with several samples: QA `samples` {n, correct},
    agent and generic `runs` {n, passed}; None for a single-sample document."""
    for key, count in (("samples", "correct"), ("runs", "passed")):
        entry = details.get(key)
        if isinstance(entry, Mapping):
            n, c = entry.get("n"), entry.get(count)
            if isinstance(n, int) and isinstance(c, int) and not isinstance(n, bool):
                return n, c
    return None


def is_sample_metric(name: str) -> bool:
    """Whether `name` is one of the sample statistics `sample_metrics` adds."""
    return name == "flip_rate" or _SAMPLE_METRIC.fullmatch(name) is not None


def sample_metrics(details: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """`flip_rate` (share of the documents with n >= 2 that flip) and `pass_hat_<k>`
    (mean over the documents with n >= k) for every k the documents carry, plus
    `pass_at_<k>` for a benchmark whose `compute()` did not give it. Empty when no
    document has sample statistics."""
    rows = [d for d in details if isinstance(d.get("flip"), bool)]
    if not rows:
        return {}
    multi = [d for d in rows if (sample_counts(d) or (1, 0))[0] >= 2]
    flips = [1.0 if d["flip"] else 0.0 for d in multi]
    metrics: dict[str, Any] = {"flip_rate": mean(flips) if flips else None}
    ks = sorted({int(k) for d in rows for k in (d.get("pass_hat_k") or {})})
    for stat in ("pass_at", "pass_hat"):
        for k in ks:
            values = [
                float(v)
                for d in rows
                if isinstance(v := (d.get(f"{stat}_k") or {}).get(str(k)), (int, float))
            ]
            metrics[f"{stat}_{k}"] = mean(values) if values else None
    return metrics


def flaky_cases(documents: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Report documents whose samples flip: `{case, id, n, passed}`, in document order."""
    out = []
    for doc in documents:
        details = doc.get("details") or {}
        counts = sample_counts(details)
        if details.get("flip") is True and counts is not None:
            out.append({"case": doc["case"], "id": doc["id"], "n": counts[0], "passed": counts[1]})
    return out


def flaky_message(details: Mapping[str, Any]) -> str | None:
    """'flaky: c of n samples passed' for a document whose samples flip, else None."""
    counts = sample_counts(details)
    if details.get("flip") is not True or counts is None:
        return None
    return f"flaky: {counts[1]} of {counts[0]} samples passed"


def pass_at_k_metrics(details: Iterable[Mapping[str, Any]], ks: Sequence[int]) -> dict[str, Any]:
    """`pass_at_<k>`: the mean over the documents with n >= k (null when there are none)."""
    rows = [d.get("pass_at_k") or {} for d in details]
    metrics: dict[str, Any] = {}
    for k in ks:
        values = [float(v) for row in rows if isinstance(v := row.get(str(k)), (int, float))]
        metrics[f"pass_at_{k}"] = mean(values) if values else None
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
            mean=mean(scores),
            min=min(scores),
            max=max(scores),
            shown=order[(len(scores) - 1) // 2],
        )
