"""`qa-answer`: answers to questions graded against gold answers, refusals apart.

Each answer (each sample, when a prediction holds several) is graded by a ladder,
cheapest and most certain first:
1. a structural non-answer (a provider refusal flag, a content-filter stop, an empty
   text) scores 0 and is a refusal;
2. the file's scorer (`exact`, `contains` or `numeric`, `scoring/answers.py`): a
   match scores 1, rung named after the rule that matched;
3. the non-answer detector (`scoring/refusal.py`): an absence or premise statement
   that says what a negative gold says scores 1 (rung `negative-gold`); a refusal
   scores 0, rung `refusal`, counted apart from wrong answers; an undetermined
   answer goes to the non-answer judge when there is one (`refusal_rung` `judge`),
   else counts as answered;
4. otherwise, only when no rule could decide (a gold that is text, not a number:
   a number the answer gets wrong is wrong), the `pytest_bizbench_embed` hook
   (cosine >= strictness scores 1, rung `embedding`) and then the
   `pytest_bizbench_judge` hook (grade / 100, rung `judge`; `field` is the question);
5. otherwise 0.
A sample counts as correct (for `samples.correct` and pass@k) when it scores at
least 0.5; every rung but the judge gives exactly 0 or 1.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_bizbench.cases.qa import FINANCEBENCH
from pytest_bizbench.maths.figures import mean
from pytest_bizbench.maths.stats import percentile
from pytest_bizbench.scoring import Embedder, JudgeFn
from pytest_bizbench.scoring.answers import grade
from pytest_bizbench.scoring.judge import checked_grade
from pytest_bizbench.scoring.passk import Spread, pass_at_k_metrics, sample_details
from pytest_bizbench.scoring.refusal import (
    UNDETERMINED,
    Decision,
    NonAnswerJudge,
    detect,
    hook_nonanswer_judge,
    is_refusal,
)
from pytest_bizbench.scoring.text import cosine
from pytest_bizbench.sdk import BenchmarkPlugin, ExtendedDocument, ScoredDocument, by_id

if TYPE_CHECKING:
    from pytest_bizbench.benchmarks import ModelRungs
    from pytest_bizbench.options.settings import Settings

CORRECT_AT = 0.5
NO_MODEL_RUNGS_NOTE = "scoring used the answer rules only (no embedding or judge hook)"
# Tags that are free text or links, never groups
UNGROUPED_TAGS = frozenset({"justification", "doc_link", "evidence"})
MAX_GROUP_VALUE = 80
ATTEMPTED_EPSILON = 1e-12  # a refusal rate this close to 1 means nothing was attempted
VERDICT_KEYS = (
    "refusal",
    "refusal_class",
    "refusal_cue",
    "refusal_rung",
)  # a tag with a longer value is free text, not a group


class QAAnswer(BenchmarkPlugin):
    """Accuracy, refusal rate and incorrect rate of answers to `*.qa.jsonl` questions."""

    name = "qa-answer"
    version = "1.0.0"
    description = "Share of questions answered correctly; refusals are counted apart."
    target_labels: ClassVar[list[str]] = ["*"]
    metric_unit = "share of answers correct"
    case_type = "qa"
    min_score = CORRECT_AT  # an answer passes only when it is correct

    @classmethod
    def from_settings(cls, settings: Settings, rungs: ModelRungs) -> QAAnswer:
        """The built-in as a run's settings and model hooks configure it."""
        qa = settings.qa
        return cls(
            qa.scorer,
            qa.pass_at_k,
            settings.ladder.strictness,
            embed=rungs.embed,
            judge=rungs.qa_judge,
            nonanswer_judge=rungs.nonanswer_judge,
        )

    def __init__(
        self,
        scorer: str = "auto",
        pass_at: Sequence[int] = (1,),
        strictness: float = 0.90,
        *,
        embed: Embedder | None = None,
        judge: JudgeFn | None = None,
        nonanswer_judge: NonAnswerJudge | None = None,
    ) -> None:
        self.scorer = scorer
        self.pass_at = tuple(sorted(set(pass_at)))
        self.strictness = strictness
        self._embed = embed
        self._judge = judge
        if nonanswer_judge is None and judge is not None:
            nonanswer_judge = hook_nonanswer_judge(judge)
        self._nonanswer = nonanswer_judge

    def scorer_for(self, row_format: str) -> str:
        """`auto` is numeric for FinanceBench rows, exact for the others."""
        if self.scorer != "auto":
            return self.scorer
        return "numeric" if row_format == FINANCEBENCH else "exact"

    @property
    def rungs_available(self) -> list[str]:
        rungs = ["exact", "contains", "numeric", "yes-no", "refusal"]
        if self._embed is not None:
            rungs.append("embedding")
        if self._judge is not None:
            rungs.append("judge")
        return rungs

    def scoring_config(self) -> dict[str, Any]:
        result = {
            **super().scoring_config(),
            "scorer": self.scorer,
            "pass_at_k": list(self.pass_at),
            "strictness": self.strictness,
            "rungs_available": self.rungs_available,
        }
        if self._embed is None and self._judge is None:
            result["scoring_note"] = NO_MODEL_RUNGS_NOTE
        return result

    def grade(
        self,
        question: str,
        gold: str,
        answer: str,
        scorer: str,
        provider: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """One answer's entry: score, rung, expected, actual, the refusal verdict and why.

        `provider` holds the provider's own signals for this answer (`refusal`,
        `finish_reason`), read before the text."""
        signals = provider or {}
        decision = detect(
            answer,
            question,
            gold,
            provider_refusal=_text_or_none(signals.get("refusal")),
            finish_reason=_text_or_none(signals.get("finish_reason")),
        )
        entry: dict[str, Any] = {"expected": gold, "actual": answer, **_verdict(None, "catalog")}
        if decision.refused and decision.refusal_class == "empty-structural":
            return self._refused(entry, decision, "catalog")
        verdict = grade(scorer, gold, answer, question, declines=is_refusal)
        if verdict.correct and not (decision.refused and _is_year(verdict.matched)):
            return {"score": 1.0, "rung": verdict.rung, **entry, "matched": verdict.matched}
        if decision.agrees_with_gold:
            return {"score": 1.0, "rung": "negative-gold", **entry, "matched": gold}
        if decision.refused:
            return self._refused(entry, decision, "catalog")
        if decision.outcome == UNDETERMINED and self._nonanswer is not None:
            try:
                judged = self._nonanswer(question, answer, gold)
            except Exception as exc:
                return {**entry, **_unscored("judge", exc), **_verdict(None, "judge")}
            if judged:
                return self._refused(entry, decision, "judge")
            entry.update(_verdict(None, "judge"))
        if not verdict.decided:
            modelled = self._model_rungs(question, gold, answer)
            if modelled is not None:
                return {**modelled, **entry}
        return {"score": 0.0, "rung": verdict.rung, **entry, "reason": verdict.reason}

    @staticmethod
    def _refused(entry: dict[str, Any], decision: Decision, rung: str) -> dict[str, Any]:
        return {
            "score": 0.0,
            "rung": "refusal",
            **entry,
            **_verdict(decision, rung),
            "reason": "refusal",
        }

    def _model_rungs(self, question: str, gold: str, answer: str) -> dict[str, Any] | None:
        if self._embed is not None:
            try:
                vectors = self._embed([gold, answer])
                if len(vectors) != 2:
                    raise ValueError(f"embedder returned {len(vectors)} vectors for 2 texts")
                closeness = cosine(vectors[0], vectors[1])
            except Exception as exc:
                return _unscored("embedding", exc)
            if closeness >= self.strictness:
                return {"score": 1.0, "rung": "embedding", "cosine": round(closeness, 4)}
        if self._judge is not None:
            try:
                grade_ = checked_grade(self._judge(question, gold, answer))
            except Exception as exc:
                return _unscored("judge", exc)
            if grade_ is not None:
                return {"score": grade_ / 100.0, "rung": "judge", "judge_score": float(grade_)}
        return None

    def score(self, document: ExtendedDocument) -> ScoredDocument:
        truth = document.ground_truth
        scorer = self.scorer_for(str(truth.get("format", "")))
        answers: list[str] = document.extracted_fields.get("answers") or []
        if not answers:
            raise ValueError(f"question {document.id!r}: the prediction holds no answer")
        signals: list[Mapping[str, Any]] = document.extracted_fields.get("signals") or []
        entries = [
            self.grade(
                str(truth["question"]),
                str(truth["answer"]),
                answer,
                scorer,
                signals[i] if i < len(signals) else None,
            )
            for i, answer in enumerate(answers)
        ]
        spread = Spread.of([entry["score"] for entry in entries])
        shown = dict(entries[spread.shown])
        n = spread.n
        correct = sum(1 for entry in entries if entry["score"] >= CORRECT_AT)
        details: dict[str, Any] = {
            "answer": shown,
            **{key: shown.pop(key) for key in VERDICT_KEYS},
            "scorer": scorer,
            "samples": {
                "n": n,
                "correct": correct,
                "refused": sum(1 for entry in entries if entry["refusal"]),
                "mean": spread.mean,
                "min": spread.min,
                "max": spread.max,
                "shown": spread.shown,
                "scores": [entry["score"] for entry in entries],
            },
            **sample_details(n, correct, self.pass_at),
        }
        return ScoredDocument(document, spread.mean, details)

    def missing_details(self, document: ExtendedDocument) -> dict[str, Any]:
        return {"refusal": False}

    def compute(self, scored: list[ScoredDocument]) -> dict[str, Any]:
        if not scored:
            return {"accuracy": 0.0, "total_documents": 0}
        ordered = list(by_id(scored))  # read in several passes: each parsed once
        shares = [_shares(s) for s in ordered]
        metrics: dict[str, Any] = {**_rates(shares), "total_documents": len(ordered)}
        metrics.update(pass_at_k_metrics((s.details for s in ordered), self.pass_at))
        metrics["groups"] = _groups(ordered, shares)
        latencies = sorted(s.latency_ms for s in ordered if s.latency_ms is not None)
        if latencies:
            metrics["latency_p50_ms"] = percentile(latencies, 0.50)
            metrics["latency_p95_ms"] = percentile(latencies, 0.95)
            metrics["latency_mean_ms"] = mean(latencies)
        usages = [u for s in ordered if isinstance(u := s.details.get("usage"), Mapping)]
        if usages:  # live answers from the endpoint (`llm:` models) report their tokens
            metrics["tokens_prompt"] = sum(int(u.get("prompt_tokens", 0)) for u in usages)
            metrics["tokens_completion"] = sum(int(u.get("completion_tokens", 0)) for u in usages)
        return metrics


def _verdict(decision: Decision | None, rung: str) -> dict[str, Any]:
    """The four refusal keys of an entry: `decision` is the refusal, None for an answer;
    `rung` says who decided (`catalog` or `judge`)."""
    return {
        "refusal": decision is not None,
        "refusal_class": decision.refusal_class if decision is not None else None,
        "refusal_cue": decision.cue if decision is not None else None,
        "refusal_rung": rung,
    }


def _is_year(matched: str | None) -> bool:
    """A match on a year only ("as of year-end 2022"): a date shared with the gold,
    not its value, when the detector calls the answer a non-answer."""
    return matched is not None and re.fullmatch(r"(?:19|20)\d\d", matched.strip()) is not None


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _unscored(rung: str, exc: Exception) -> dict[str, Any]:
    """A model hook failed: 0 and flagged, so the item fails rather than passing silently."""
    reason = f"{rung}-error: {type(exc).__name__}: {exc}"
    return {"score": 0.0, "rung": rung, "reason": reason, "unscored": True}


def _shares(s: ScoredDocument) -> tuple[float, float, float]:
    """(correct, refused, incorrect) shares of one question's answers; they sum to 1.

    A question without a prediction (or whose hook raised) is all incorrect.
    """
    samples = s.details.get("samples")
    if isinstance(samples, Mapping) and samples.get("n"):
        refused = float(samples.get("refused", 0)) / float(samples["n"])
    else:
        refused = 1.0 if s.details.get("refusal") is True else 0.0
    return s.score, refused, max(0.0, 1.0 - s.score - refused)


def _rates(shares: Sequence[tuple[float, float, float]]) -> dict[str, float | None]:
    """Accuracy, refusal and incorrect rates, and the abstention-aware three: the share
    attempted, accuracy on what was attempted (None when nothing was), and their F
    score (harmonic mean of accuracy and accuracy given attempted; 0 when either is)."""
    n = len(shares)
    accuracy = math.fsum(c for c, _, _ in shares) / n
    refusal_rate = math.fsum(r for _, r, _ in shares) / n
    attempted = 1.0 - refusal_rate
    given_attempted = min(1.0, accuracy / attempted) if attempted > ATTEMPTED_EPSILON else None
    f_score = (
        2 * accuracy * given_attempted / (accuracy + given_attempted)
        if given_attempted and accuracy
        else 0.0
    )
    return {
        "accuracy": accuracy,
        "refusal_rate": refusal_rate,
        "incorrect_rate": math.fsum(i for _, _, i in shares) / n,
        "attempted_rate": attempted,
        "accuracy_given_attempted": given_attempted,
        "f_score": f_score,
    }


def _groups(
    ordered: Sequence[ScoredDocument], shares: Sequence[tuple[float, float, float]]
) -> dict[str, dict[str, dict[str, Any]]]:
    """`{tag: {value: {count, and the `_rates`}}}` for every tag
    whose values are short scalars (a question without the tag is under `unknown`)."""
    names = sorted(
        {name for s in ordered for name in s.document.metadata if name not in UNGROUPED_TAGS}
    )
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    for name in names:
        values = [s.document.metadata.get(name) for s in ordered]
        if not all(_groupable(v) for v in values):
            continue
        members: dict[str, list[tuple[float, float, float]]] = {}
        for value, share in zip(values, shares, strict=True):
            key = "unknown" if value is None else str(value)
            members.setdefault(key, []).append(share)
        groups[name] = {
            key: {"count": len(rows), **_rates(rows)} for key, rows in sorted(members.items())
        }
    return groups


def _groupable(value: object) -> bool:
    if value is None:
        return True
    return isinstance(value, (str, int, float, bool)) and len(str(value)) <= MAX_GROUP_VALUE
