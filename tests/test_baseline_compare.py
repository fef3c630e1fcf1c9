"""Comparing one benchmark x model with its baseline: verdicts, deltas, case changes."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from pytest_bizbench import BenchmarkPlugin, ScoredDocument
from pytest_bizbench.gate.baseline import Comparisons, Judge, Side, compare_sides, save_refusal
from pytest_bizbench.options.settings import BaselineOptions
from pytest_bizbench.report.records import Completeness


class Direct(BenchmarkPlugin):
    name = "direct"
    version = "1.0.0"
    description = "the score is given"
    target_labels: ClassVar[list[str]] = ["*"]

    def score(self, document: Any) -> ScoredDocument:
        raise NotImplementedError


def doc(
    doc_id: str,
    score: float | None,
    *,
    case: str = "a.ground-truth.jsonl",
    case_hash: str | None = None,
    fields: dict[str, Any] | None = None,
    group: str | None = None,
    labels: tuple[str, ...] = ("invoice",),
) -> dict[str, Any]:
    return {
        "id": doc_id,
        "case": case,
        "nodeid": f"{case}::{doc_id}[direct]",
        "case_hash": case_hash or f"hash-{doc_id}",
        "score": score,
        "outcome": "passed" if score is not None else "error",
        "details": fields or {},
        "labels": list(labels),
        "group": group,
    }


def side(docs: list[dict[str, Any]], version: str = "1.0.0", fp: str = "fp1") -> Side:
    scores = [d["score"] for d in docs if d["score"] is not None]
    return Side(version, fp, {"accuracy": sum(scores) / len(scores)}, docs)


def scores_side(scores: list[float], **kwargs: Any) -> Side:
    return side([doc(f"c{i:03d}", s) for i, s in enumerate(scores)], **kwargs)


OPTIONS = BaselineOptions()


@pytest.mark.parametrize(
    ("candidate", "verdict"),
    [
        # baseline mean 0.5; candidate means 0.6 (+0.10 > +0.01 improvement bound),
        # 0.45 (-0.05 < -0.02 regression bound), 0.49 (-0.01) and 0.505 (+0.005)
        ([0.6, 0.6, 0.6, 0.6], "improved"),
        ([0.45, 0.45, 0.45, 0.45], "regressed"),
        ([0.49, 0.49, 0.49, 0.49], "neutral"),
        ([0.505, 0.505, 0.505, 0.505], "neutral"),
    ],
)
def test_verdict_from_the_benchmark_thresholds(candidate: list[float], verdict: str) -> None:
    result = compare_sides(
        Judge.of(Direct()), scores_side([0.5] * 4), scores_side(candidate), OPTIONS
    )
    assert result["verdict"] == verdict
    assert result["baseline_accuracy"] == 0.5
    assert result["paired"]["n"] == 4
    assert result["paired"]["mean_delta"] == pytest.approx(candidate[0] - 0.5)
    # every case moved by the same amount: the interval is that point
    assert result["paired"]["ci95"] == [pytest.approx(candidate[0] - 0.5)] * 2
    assert "message" not in result


@pytest.mark.parametrize(
    ("version", "fp", "what"),
    [
        ("1.1.0", "fp1", "version 1.0.0 -> 1.1.0"),
        ("1.0.0", "fp2", "scoring config fingerprint fp1 -> fp2"),
    ],
)
def test_changed_benchmark_is_stale_with_a_rebaseline_message(
    version: str, fp: str, what: str
) -> None:
    base = scores_side([0.5, 0.5])
    cand = scores_side([0.1, 0.1], version=version, fp=fp)
    result = compare_sides(Judge.of(Direct()), base, cand, OPTIONS)
    assert result["verdict"] == "stale"
    assert what in result["message"]
    assert "--bizbench-save-baseline" in result["message"]
    # the deltas are still shown for the reader
    assert result["paired"]["mean_delta"] == pytest.approx(-0.4)


def test_new_removed_and_changed_cases() -> None:
    base = side(
        [
            doc("kept", 1.0),
            doc("edited", 1.0, case_hash="old"),
            doc("gone", 1.0),
            doc("same-id", 0.5, case="b.ground-truth.jsonl"),
        ]
    )
    cand = side(
        [
            doc("kept", 0.5),
            doc("edited", 0.0, case_hash="new"),
            doc("fresh", 1.0),
            doc("same-id", 0.5, case="c.ground-truth.jsonl"),
        ]
    )
    result = compare_sides(Judge.of(Direct()), base, cand, OPTIONS)
    # "kept" pairs, and "same-id", by its id though its file moved; "edited" changed content
    assert result["paired"]["n"] == 2
    assert result["paired"]["mean_delta"] == -0.25
    assert result["stale_cases"] == [{"case": "a.ground-truth.jsonl", "id": "edited"}]
    assert result["new_cases"] == [{"case": "a.ground-truth.jsonl", "id": "fresh"}]
    assert result["removed_cases"] == [{"case": "a.ground-truth.jsonl", "id": "gone"}]


def test_an_id_given_by_two_files_pairs_by_its_file() -> None:
    base = side([doc("twin", 1.0, case="b.ground-truth.jsonl"), doc("twin", 0.5)])
    cand = side([doc("twin", 0.0, case="c.ground-truth.jsonl"), doc("twin", 0.5)])
    result = compare_sides(Judge.of(Direct()), base, cand, OPTIONS)
    assert result["paired"]["n"] == 1  # a.…'s twin; the other moved, and is ambiguous
    assert result["new_cases"] == [{"case": "c.ground-truth.jsonl", "id": "twin"}]
    assert result["removed_cases"] == [{"case": "b.ground-truth.jsonl", "id": "twin"}]


def test_error_documents_are_not_paired() -> None:
    base = side([doc("x", 1.0), doc("y", 1.0)])
    cand = side([doc("x", None), doc("y", 0.5)])
    assert compare_sides(Judge.of(Direct()), base, cand, OPTIONS)["paired"]["n"] == 1


def test_worst_cases_with_per_field_changes() -> None:
    def fields(total: float, vendor: float, actual: str) -> dict[str, Any]:
        return {
            "total": {"score": total, "expected": 100, "actual": actual},
            "vendor": {"score": vendor},
            "quality": 0.5,  # a number, not a field entry
        }

    base = side(
        [
            doc("a", 1.0, fields=fields(1.0, 1.0, "100")),
            doc("b", 1.0, fields=fields(1.0, 1.0, "100")),
            doc("c", 0.5),
            doc("d", 0.5),
        ]
    )
    cand = side(
        [
            doc("a", 0.5, fields=fields(0.0, 1.0, "250")),
            doc("b", 0.0, fields=fields(0.0, 0.0, "7")),
            doc("c", 1.0),
            doc("d", 0.25),
        ]
    )
    result = compare_sides(Judge.of(Direct()), base, cand, BaselineOptions(worst_cases=2))
    # deltas: a -0.5, b -1.0, c +0.5, d -0.25; the two worst are b then a
    assert [(w["id"], w["delta"]) for w in result["worst"]] == [("b", -1.0), ("a", -0.5)]
    assert result["worst"][0]["fields"] == {
        "total": {
            "baseline": 1.0,
            "candidate": 0.0,
            "delta": -1.0,
            "baseline_actual": "100",
            "candidate_actual": "7",
            "expected": 100,
        },
        "vendor": {"baseline": 1.0, "candidate": 0.0, "delta": -1.0},
    }
    assert list(result["worst"][1]["fields"]) == ["total"]  # vendor did not move
    # histogram: one case in [-1.0, -0.9), one in [-0.5, -0.4), one in [-0.3, -0.2),
    # one in (0.4, 0.5]
    counts = {tuple(b["range"]): b["count"] for b in result["paired"]["histogram"]}
    assert counts[(-1.0, -0.9)] == counts[(-0.5, -0.4)] == counts[(-0.3, -0.2)] == 1
    assert counts[(0.4, 0.5)] == 1


def test_group_and_label_deltas_over_paired_cases() -> None:
    base = side(
        [
            doc("a", 1.0, group="DE", labels=("invoice", "eu")),
            doc("b", 0.5, group="DE", labels=("invoice",)),
            doc("c", 0.5, group="US", labels=("invoice",)),
        ]
    )
    cand = side(
        [
            doc("a", 0.0, group="DE", labels=("invoice", "eu")),
            doc("b", 1.0, group="DE", labels=("invoice",)),
            doc("c", 0.75, group="US", labels=("invoice",)),
        ]
    )
    groups = compare_sides(Judge.of(Direct()), base, cand, OPTIONS)["groups"]
    # DE: baseline (1 + 0.5)/2 = 0.75, candidate (0 + 1)/2 = 0.5
    assert groups["group"]["DE"] == {
        "n": 2,
        "baseline": 0.75,
        "candidate": 0.5,
        "mean_delta": -0.25,
    }
    assert groups["group"]["US"]["mean_delta"] == 0.25
    # invoice: all three, baseline 2/3, candidate 1.75/3
    assert groups["label"]["invoice"]["n"] == 3
    assert groups["label"]["invoice"]["mean_delta"] == pytest.approx(1.75 / 3 - 2 / 3)
    assert groups["label"]["eu"] == {"n": 1, "baseline": 1.0, "candidate": 0.0, "mean_delta": -1.0}


# Three points worse on 200 cases with a noisy delta: every baseline case scores 0.5,
# the candidate 1.0 on 94 cases (+0.5) and 0.0 on 106 (-0.5). Mean delta
# (94 - 106) * 0.5 / 200 = -0.03 is past the -0.02 regression bound, but the per-case
# spread (sd 0.499, standard error 0.035) puts 0 inside the 95% CI [-0.10, +0.04], and
# 94 up against 106 down is no change: the sign-flip p is 2 P(B <= 94) = 0.44 for
# B ~ Binomial(200, 1/2) (20,000 random patterns estimate it).
NOISY_BASE = [0.5] * 200
NOISY_CAND = [1.0] * 94 + [0.0] * 106


def test_noisy_regression_is_regressed_without_significance() -> None:
    result = compare_sides(
        Judge.of(Direct()), scores_side(NOISY_BASE), scores_side(NOISY_CAND), BaselineOptions()
    )
    assert result["delta"] == pytest.approx(-0.03)
    assert result["verdict"] == "regressed"
    assert result["paired"]["significant"] is False
    assert result["significance_required"] is False


def test_noisy_regression_is_inconclusive_when_significance_is_required() -> None:
    options = BaselineOptions(require_significance=True)
    result = compare_sides(
        Judge.of(Direct()), scores_side(NOISY_BASE), scores_side(NOISY_CAND), options
    )
    assert result["verdict"] == "inconclusive"
    low, high = result["paired"]["ci95"]
    assert low < 0 < high
    assert result["paired"]["p_value"] == pytest.approx(0.44, abs=0.02)
    assert "is not below 0.05, so the change may be noise" in result["message"]
    assert Comparisons({("direct", "m"): result}).reasons(options) == []


def test_consistent_regression_stays_regressed_when_significance_is_required() -> None:
    # every case loses 0.03: of 20,000 random sign patterns none is as extreme as all
    # 50 down (chance 2 / 2^50), so p = 1 / 20,001
    options = BaselineOptions(require_significance=True)
    result = compare_sides(
        Judge.of(Direct()), scores_side([0.5] * 50), scores_side([0.47] * 50), options
    )
    assert result["verdict"] == "regressed"
    assert result["paired"]["p_value"] == result["p_holm"] == 1 / 20_001
    assert result["significant"] is True
    assert "message" not in result


def test_an_improvement_also_needs_significance() -> None:
    options = BaselineOptions(require_significance=True)
    noisy_up = [1.0] * 106 + [0.0] * 94  # +0.03 on average, same noise as above
    result = compare_sides(
        Judge.of(Direct()), scores_side(NOISY_BASE), scores_side(noisy_up), options
    )
    assert result["verdict"] == "neutral"


def comparison(verdict: str) -> dict[str, Any]:
    return {
        "verdict": verdict,
        "baseline_accuracy": 0.9,
        "candidate_accuracy": 0.8,
        "delta": -0.1,
        "paired": {"n": 4, "mean_delta": -0.1, "ci95": [-0.2, -0.05]},
        "p_holm": 0.03125,
        "message": "benchmark 'direct' changed",
    }


def test_gate_reasons_for_regressed_and_stale_unless_allowed() -> None:
    results = Comparisons(
        {("direct", "v1"): comparison("regressed"), ("direct", "v2"): comparison("stale")},
        {"direct": "accuracy"},
    )
    reasons = results.reasons(BaselineOptions())
    assert reasons == [
        "regression: direct (model v1): accuracy 0.9000 -> 0.8000 (delta -0.1000); paired "
        "mean delta -0.1000, 95% CI [-0.2000, -0.0500] over 4 cases, p (Holm) 0.03125; accept "
        "it with "
        "--bizbench-allow-regression or re-baseline",
        "stale baseline: direct (model v2): benchmark 'direct' changed",
    ]
    assert results.reasons(BaselineOptions(allow_regression=True)) == reasons[1:]
    assert results.reasons(BaselineOptions(allow_stale=True)) == reasons[:1]
    assert results.reasons(BaselineOptions(), accept=True) == []
    neutral = Comparisons({("direct", "v1"): comparison("neutral")})
    assert neutral.reasons(BaselineOptions()) == []


def test_a_compare_that_returns_no_verdict_is_rejected() -> None:
    class NoVerdict(Direct):
        def compare(self, baseline_metrics: Any, candidate_metrics: Any) -> dict[str, Any]:
            return {"delta": 0.0}

    with pytest.raises(ValueError, match="verdict None"):
        compare_sides(Judge.of(NoVerdict()), scores_side([1.0]), scores_side([1.0]), OPTIONS)


def completeness(**changes: Any) -> Completeness:
    values: dict[str, Any] = {
        "filtered": False,
        "collected": 3,
        "not_run": 0,
        "interrupted": False,
        "scored": 3,
        "errors": (),
        "missing": (),
    }
    values.update(changes)
    return Completeness(**values)


def test_save_refusals_name_what_is_wrong(tmp_path: Any) -> None:
    options = BaselineOptions(save_path=tmp_path / "b.json")
    assert save_refusal(completeness(), options) is None
    refusal = save_refusal(
        completeness(filtered=True, errors=({"nodeid": "x"},), missing=({}, {}), not_run=2),
        options,
    )
    assert refusal is not None
    assert "filtered selection" in refusal
    assert "1 error, 2 missing predictions, 2 selected items never ran" in refusal
    assert "--bizbench-force-baseline" in refusal
    forced = BaselineOptions(save_path=tmp_path / "b.json", force=True)
    assert save_refusal(completeness(filtered=True), forced) is None
