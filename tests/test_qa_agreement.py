"""Agreement of `qa-answer` with human labels on the labelled answer sets.

The sets are ours (`tests/data/qa_agreement/`): the main set and `holdout/` were
written before scorer fixes they prompted, `blind/` after them; the floors below
guard against regressions, the real measure is a labelled set of real answers.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "qa_agreement"


@pytest.fixture(scope="module")
def agreement() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "qa_agreement", ROOT / "benchmarks/qa_agreement.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["qa_agreement"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("subset", ["", "holdout", "blind"])
def test_spec_targets_on_our_labelled_sets(agreement: ModuleType, subset: str) -> None:
    result = agreement.measure(DATA / subset)
    labels = {g.human for g in result.graded}
    assert labels == {"correct", "incorrect", "refusal"}
    assert result.refusal_f1 >= 0.92
    assert result.numeric_agreement >= 0.90
    assert result.overall_agreement >= 0.90


def test_main_set_size_and_ranking(agreement: ModuleType) -> None:
    result = agreement.measure(DATA)
    assert len(result.graded) >= 150
    assert result.spearman >= 0.9
    assert len(result.accuracy) == 6


def test_ranks_and_spearman_by_hand(agreement: ModuleType) -> None:
    # ties share their mean rank: 0.5 is rank 1, the two 0.7s ranks 2 and 3 -> 2.5
    assert agreement.ranks([0.7, 0.5, 0.7, 0.9]) == [2.5, 1.0, 2.5, 4.0]
    assert agreement.spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert agreement.spearman([1, 2, 3], [30, 20, 10]) == pytest.approx(-1.0)
    # ranks (1,2,3,4) against (1,3,2,4): d^2 = 0+1+1+0 = 2; 1 - 6*2/(4*15) = 0.8
    assert agreement.spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)


def test_the_script_prints_the_figures(
    agreement: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert agreement.main([str(DATA / "blind")]) == 0
    out = capsys.readouterr().out
    assert "refusal: precision" in out
    assert "numeric agreement (correct or not):" in out
    assert "Spearman rank correlation of the configurations:" in out


REFUSAL_DATA = ROOT / "tests" / "data" / "qa_refusal"


def test_dev_corpus_covers_every_class_and_trap_and_meets_the_targets(
    agreement: ModuleType,
) -> None:
    result = agreement.measure(REFUSAL_DATA / "dev")
    assert len(result.graded) >= 320
    assert len(result.classes) == 14
    assert set(result.traps) == {
        "subject-negation", "quoted-speech", "role-opener", "bare-apology",
        "disclaimer-then-answer", "negative-gold", "partial-limitation", "topic-words",
    }  # fmt: skip
    assert result.refusal_f1 >= 0.95
    assert all(figures.recall >= 0.85 for figures in result.classes.values() if figures.labelled)
    assert all(called == 0 for _, called in result.traps.values())


@pytest.mark.parametrize(
    ("part", "size", "floor", "class_floor"),
    [
        ("dev_b", 200, 0.98, 0.85),
        ("dev_c", 430, 0.99, 0.85),
        ("dev_d", 300, 0.98, 0.85),
        ("dev_e", 300, 0.99, 0.85),
        ("dev_f", 300, 0.98, 0.85),
        # three long explanations of a metric with no cue word stay missed (8/11)
        ("dev_g", 343, 0.98, 0.72),
        ("dev_h", 527, 0.98, 0.85),
    ],
)
def test_blind_dev_sets_meet_the_targets(
    agreement: ModuleType, part: str, size: int, floor: float, class_floor: float
) -> None:
    # each written by a blind writer, measured once as it came (dev_b 0.883, dev_c
    # 0.946, dev_d 0.913 as held-out part E, dev_e 0.945, dev_f 0.944 as held-out part
    # G, dev_g 0.936 as held-out part I, dev_h 0.944 as held-out part K), then used to
    # find what the detector did not generalise: development data now, not a measure
    result = agreement.measure(REFUSAL_DATA / part)
    assert len(result.graded) == size
    assert len(result.classes) == 14
    assert len(result.traps) == 8
    assert result.refusal_f1 >= floor
    assert result.refusal_precision >= 0.98
    assert all(
        figures.recall >= class_floor for figures in result.classes.values() if figures.labelled
    )
    assert all(called == 0 for _, called in result.traps.values())


@pytest.mark.parametrize(
    ("part", "floor"),
    [
        ("heldout_a", 0.96),
        ("heldout_b", 0.98),
        ("heldout_c", 0.975),
        ("heldout_j", 0.975),
        ("heldout_l", 0.975),
    ],
)
def test_held_out_parts_keep_their_measured_floor(
    agreement: ModuleType, part: str, floor: float
) -> None:
    # written by people who never saw the detector; never tuned on (no answer row of
    # them was read: of A, B, C and J only the aggregate figures, after several passes;
    # L was measured once, with the detector final). The floors are the figures
    # measured last (see docs/decisions/0015-non-answers-as-a-classifier.md), so a
    # change that loses agreement fails here.
    result = agreement.measure(REFUSAL_DATA / part)
    assert len(result.graded) >= 150
    assert result.refusal_f1 >= floor
    assert result.refusal_precision >= 0.95


def test_the_last_held_out_part_meets_the_issue_targets(agreement: ModuleType) -> None:
    # written blind before the last pass, measured once after it: F1 >= 0.95 and no
    # class under 0.85 recall, with at least 20 refusals in every class
    result = agreement.measure(REFUSAL_DATA / "heldout_l")
    assert len(result.classes) == 14
    assert all(figures.labelled >= 20 for figures in result.classes.values())
    assert result.refusal_f1 >= 0.95
    assert all(figures.recall >= 0.85 for figures in result.classes.values())


def test_class_figures_by_hand(agreement: ModuleType) -> None:
    def graded(human: str, ours: str, human_class: str | None, our_class: str | None) -> object:
        return agreement.Graded("q", "c", "a", human, ours, True, human_class, our_class)

    rows = [
        graded("refusal", "refusal", "cutoff", "cutoff"),  # found, right
        graded("refusal", "incorrect", "cutoff", None),  # missed
        graded("refusal", "refusal", "cutoff", "capability"),  # found under another class
        graded("correct", "refusal", None, "capability"),  # flagged wrongly
    ]
    figures = agreement.by_class(rows)
    # cutoff: 3 labelled, 2 found -> recall 2/3; 1 flagged as cutoff, right -> precision 1
    assert figures["cutoff"].recall == pytest.approx(2 / 3)
    assert figures["cutoff"].precision == 1.0
    assert figures["cutoff"].f1 == pytest.approx(0.8)  # 2 * 1 * 2/3 / (5/3)
    # capability: none labelled (no recall), 2 flagged, 1 a human refusal
    assert figures["capability"].recall is None
    assert figures["capability"].precision == 0.5
    assert figures["capability"].f1 is None


def test_missed_refusals_by_outcome_and_kind_by_hand(agreement: ModuleType) -> None:
    def graded(human: str, ours: str, outcome: str, kind: str) -> object:
        return agreement.Graded("q", "c", "a", human, ours, True, None, None, None, outcome, kind)

    rows = [
        graded("refusal", "refusal", "refused", "numeric"),  # found
        graded("refusal", "incorrect", "answered", "text"),  # missed, answered
        graded("refusal", "incorrect", "undetermined", "text"),  # missed, undetermined
        graded("refusal", "correct", "refused", "yes-no"),  # missed: the scorer said right
        graded("correct", "correct", "answered", "numeric"),  # no refusal: not counted
    ]
    outcomes, kinds = agreement.misses(rows)
    assert outcomes == {"answered": 1, "correct": 1, "undetermined": 1}
    # per kind: (human refusals, missed)
    assert kinds == {"numeric": (1, 0), "text": (2, 2), "yes-no": (1, 1)}


def test_parts_and_the_summary_leave_rows_out(
    agreement: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert [p.name for p in agreement.parts(REFUSAL_DATA)] == [
        "dev", "dev_b", "dev_c", "dev_d", "dev_e", "dev_f", "dev_g", "dev_h",
        "heldout_a", "heldout_b", "heldout_c", "heldout_j", "heldout_l",
    ]  # fmt: skip
    assert agreement.main(["--summary", str(REFUSAL_DATA / "dev")]) == 0
    out = capsys.readouterr().out
    assert "class                   refusals  recall  precision  F1" in out
    assert "trap negative-gold" in out
    assert "missed refusals by question kind: numeric 0/237, text 0/5, yes-no 0/20" in out
    assert "  rd-" not in out  # no answer printed
