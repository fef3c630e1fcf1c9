"""How far `qa-answer` agrees with human graders on a labelled answer set.

A set (`tests/data/qa_agreement/` by default) is FinanceBench-style QA rows in
`questions.jsonl` (named so that `pytest tests` does not collect them as cases) and
`answers.jsonl` rows `{financebench_id, config, model_answer, label}`, label one of
`correct`, `incorrect`, `refusal`; the non-answer corpus (`tests/data/qa_refusal/`)
adds `class` (the non-answer class of a refusal), `trap` (the precision trap an
answer sets), `voice`, `setting` and the provider signals `refusal` and
`finish_reason`. Each answer is graded as `qa-answer` grades it (no judge); a grade
of 0.5 or more is correct. Printed: refusal precision, recall and F1, then per class
(recall by the labelled class, precision by the class we found) and per trap (answers
wrongly called refusals); the refusals we missed, by the detector's outcome and by
the question's kind (aggregates: where recall goes, without reading rows); agreement
on numeric-gold questions (correct or not);
three-way agreement overall; each configuration's accuracy by our grades and by the
labels, and the Spearman rank correlation of the two; then every disagreement.
A directory without `questions.jsonl` is read as parts: each subdirectory with one.
`--summary` leaves the disagreements out (to measure a held-out part without reading
its rows).

`--chat DIR` measures the detector alone on labelled chat answers instead: a folder of
JSONL rows `{id, source, model, category, question, answer, bucket}` (XSTest v2 and
Reuter & Schulze's ChatGPT refusals, bucket `nonanswer`, `answer`, `partial` or
`excluded`), with a `gold` answer where the row is a document question. The split is
fixed: held out are XSTest's `mistralguard` answers, the Reuter rows whose id's SHA-256
starts with 0-3, and every row of `benchmarks/data/nonanswers-heldout.jsonl` (422
answers, chat and document questions, written by hand for this check by someone who
had not seen the detector; never used to build or tune it); the rest is development
data. Printed
per set and split: precision, recall and F1 of `refused` on the clear buckets, then
with `partial` counted as a non-answer and as an answer; per class we found (true and
false alarms), the misses per category, and the time per answer. `--show-dev N`
prints up to N development misses and false alarms (never held-out rows).
Usage: python benchmarks/qa_agreement.py [--summary] [DIR ...]
       python benchmarks/qa_agreement.py --chat DIR [--show-dev N]
       python benchmarks/qa_agreement.py --chat benchmarks/data
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_bizbench.benchmarks.qa_answer import CORRECT_AT, QAAnswer
from pytest_bizbench.cases.qa import QACase, load_qa
from pytest_bizbench.scoring.answers import is_numeric_gold
from pytest_bizbench.scoring.refusal import detect, question_kind

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "qa_agreement"
CORRECT, INCORRECT, REFUSAL = "correct", "incorrect", "refusal"


@dataclass(frozen=True, slots=True)
class Graded:
    question_id: str
    config: str
    answer: str
    human: str
    ours: str
    numeric_gold: bool
    human_class: str | None = None
    our_class: str | None = None
    trap: str | None = None
    outcome: str = ""  # the detector's own: answered, refused or undetermined
    kind: str = ""  # the question's: numeric, yes-no, text or any


@dataclass(frozen=True, slots=True)
class ClassFigures:
    labelled: int  # human refusals of the class
    found: int  # of those, ours too
    flagged: int  # our refusals given this class
    right: int  # of those, human refusals

    @property
    def recall(self) -> float | None:
        return self.found / self.labelled if self.labelled else None

    @property
    def precision(self) -> float | None:
        return self.right / self.flagged if self.flagged else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True, slots=True)
class Agreement:
    graded: tuple[Graded, ...]
    refusal_precision: float
    refusal_recall: float
    refusal_f1: float
    numeric_agreement: float
    numeric_answers: int
    overall_agreement: float
    accuracy: dict[str, tuple[float, float]]  # config -> (ours, human)
    spearman: float
    classes: dict[str, ClassFigures]
    traps: dict[str, tuple[int, int]]  # trap -> (answers, called refusals)
    missed: dict[str, int]  # human refusals we did not call refusals, by outcome
    missed_kinds: dict[str, tuple[int, int]]  # question kind -> (human refusals, missed)


def grade_all(directory: Path) -> list[Graded]:
    questions: dict[str, QACase] = {}
    for case in load_qa(directory / "questions.jsonl", 50_000_000):
        if not isinstance(case, QACase):
            raise SystemExit(f"bad question: {case.describe()}")
        questions[case.id] = case
    benchmark = QAAnswer()
    graded = []
    lines = (directory / "answers.jsonl").read_text(encoding="utf-8").splitlines()
    for row in (json.loads(line) for line in lines if line.strip()):
        case = questions[row["financebench_id"]]
        scorer = benchmark.scorer_for(case.format)
        signals = {key: row[key] for key in ("refusal", "finish_reason") if key in row}
        decision = detect(
            row["model_answer"],
            case.question,
            case.answer,
            provider_refusal=signals.get("refusal"),
            finish_reason=signals.get("finish_reason"),
        )
        entry = benchmark.grade(case.question, case.answer, row["model_answer"], scorer, signals)
        if entry["score"] >= CORRECT_AT:
            ours = CORRECT
        else:
            ours = REFUSAL if entry["refusal"] else INCORRECT
        graded.append(
            Graded(
                case.id,
                row["config"],
                row["model_answer"],
                row["label"],
                ours,
                is_numeric_gold(case.answer),
                row.get("class"),
                entry.get("refusal_class"),
                row.get("trap"),
                decision.outcome,
                question_kind(case.question, case.answer),
            )
        )
    return graded


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Pearson correlation of the ranks."""
    ra, rb = ranks(a), ranks(b)
    mean_a, mean_b = math.fsum(ra) / len(ra), math.fsum(rb) / len(rb)
    cov = math.fsum((x - mean_a) * (y - mean_b) for x, y in zip(ra, rb, strict=True))
    var_a = math.fsum((x - mean_a) ** 2 for x in ra)
    var_b = math.fsum((y - mean_b) ** 2 for y in rb)
    return cov / math.sqrt(var_a * var_b) if var_a and var_b else 0.0


def by_class(graded: Sequence[Graded]) -> dict[str, ClassFigures]:
    """Recall by the labelled class of human refusals, precision by the class we found."""
    names = sorted(
        {g.human_class for g in graded if g.human == REFUSAL and g.human_class}
        | {g.our_class for g in graded if g.ours == REFUSAL and g.our_class}
    )
    result = {}
    for name in names:
        labelled = [g for g in graded if g.human == REFUSAL and g.human_class == name]
        flagged = [g for g in graded if g.ours == REFUSAL and g.our_class == name]
        result[name] = ClassFigures(
            labelled=len(labelled),
            found=sum(g.ours == REFUSAL for g in labelled),
            flagged=len(flagged),
            right=sum(g.human == REFUSAL for g in flagged),
        )
    return result


def by_trap(graded: Sequence[Graded]) -> dict[str, tuple[int, int]]:
    """Per precision trap: how many answers set it, how many we called refusals."""
    traps = sorted({g.trap for g in graded if g.trap})
    return {
        trap: (
            sum(g.trap == trap for g in graded),
            sum(g.trap == trap and g.ours == REFUSAL for g in graded),
        )
        for trap in traps
    }


def misses(graded: Sequence[Graded]) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """Human refusals we did not call refusals: how many by the detector's outcome
    (`correct` when the scorer found the gold in them), and per question kind how many
    refusals there were and how many we missed."""
    refusals = [g for g in graded if g.human == REFUSAL]
    missed = [g for g in refusals if g.ours != REFUSAL]
    outcomes: dict[str, int] = {}
    for g in missed:
        key = CORRECT if g.ours == CORRECT else g.outcome
        outcomes[key] = outcomes.get(key, 0) + 1
    kinds = sorted({g.kind for g in refusals})
    return dict(sorted(outcomes.items())), {
        kind: (sum(g.kind == kind for g in refusals), sum(g.kind == kind for g in missed))
        for kind in kinds
    }


def measure(directory: Path = DEFAULT_DIR) -> Agreement:
    graded = grade_all(directory)
    both = sum(1 for g in graded if g.human == REFUSAL and g.ours == REFUSAL)
    said = sum(1 for g in graded if g.ours == REFUSAL)
    truth = sum(1 for g in graded if g.human == REFUSAL)
    precision = both / said if said else 0.0
    recall = both / truth if truth else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    missed, missed_kinds = misses(graded)
    numeric = [g for g in graded if g.numeric_gold]
    numeric_agree = sum(1 for g in numeric if (g.ours == CORRECT) == (g.human == CORRECT))
    configs = sorted({g.config for g in graded})
    accuracy = {}
    for config in configs:
        rows = [g for g in graded if g.config == config]
        accuracy[config] = (
            sum(g.ours == CORRECT for g in rows) / len(rows),
            sum(g.human == CORRECT for g in rows) / len(rows),
        )
    return Agreement(
        graded=tuple(graded),
        refusal_precision=precision,
        refusal_recall=recall,
        refusal_f1=f1,
        numeric_agreement=numeric_agree / len(numeric) if numeric else 0.0,
        numeric_answers=len(numeric),
        overall_agreement=sum(g.ours == g.human for g in graded) / len(graded),
        accuracy=accuracy,
        spearman=spearman([a for a, _ in accuracy.values()], [h for _, h in accuracy.values()]),
        classes=by_class(graded),
        traps=by_trap(graded),
        missed=missed,
        missed_kinds=missed_kinds,
    )


def parts(directory: Path) -> list[Path]:
    """The set itself, or each subdirectory holding one."""
    if (directory / "questions.jsonl").is_file():
        return [directory]
    return sorted(p for p in directory.iterdir() if (p / "questions.jsonl").is_file())


def _share(value: float | None) -> str:
    return "    —" if value is None else f"{value:.3f}"


def report(directory: Path, *, rows: bool = True) -> None:
    result = measure(directory)
    n = len(result.graded)
    print(f"== {directory}")
    print(f"answers: {n} ({result.numeric_answers} to numeric-gold questions)")
    print(
        f"refusal: precision {result.refusal_precision:.3f}  recall "
        f"{result.refusal_recall:.3f}  F1 {result.refusal_f1:.3f}"
    )
    if any(g.human_class for g in result.graded):
        print("class                   refusals  recall  precision  F1")
        for name, figures in result.classes.items():
            print(
                f"{name:<23} {figures.labelled:8}  {_share(figures.recall)}  "
                f"{_share(figures.precision):>9}  {_share(figures.f1)}"
            )
    for trap, (count, called) in result.traps.items():
        print(f"trap {trap:<23} {count:3} answers, {called} called refusals")
    if result.missed:
        outcomes = ", ".join(f"{name} {count}" for name, count in result.missed.items())
        print(f"missed refusals by our outcome: {outcomes}")
    kinds = ", ".join(
        f"{kind} {missed}/{count}" for kind, (count, missed) in result.missed_kinds.items()
    )
    print(f"missed refusals by question kind: {kinds}")
    print(f"numeric agreement (correct or not): {result.numeric_agreement:.3f}")
    print(f"overall agreement (correct / incorrect / refusal): {result.overall_agreement:.3f}")
    print("config  accuracy ours  accuracy human")
    for config, (ours, human) in result.accuracy.items():
        print(f"{config:<7} {ours:13.3f}  {human:14.3f}")
    print(f"Spearman rank correlation of the configurations: {result.spearman:.3f}")
    disagreements = [g for g in result.graded if g.ours != g.human]
    print(f"disagreements: {len(disagreements)}")
    for g in disagreements if rows else []:
        answer = json.dumps(g.answer, ensure_ascii=False)  # one line, escaped
        print(f"  {g.question_id} {g.config}: human {g.human}, ours {g.ours}: {answer}")


NONANSWER, ANSWER, PARTIAL = "nonanswer", "answer", "partial"
DEV, HELD_OUT = "dev", "held-out"


@dataclass(frozen=True, slots=True)
class ChatRow:
    source: str
    split: str
    category: str
    bucket: str
    question: str
    answer: str
    refused: bool
    our_class: str | None
    cue: str | None


def chat_split(row: dict[str, str]) -> str:
    """The fixed split: XSTest's mistralguard answers, a quarter of Reuter's rows (by
    the SHA-256 of their id) and every row of our own held-out set are held out."""
    if row["source"].startswith("heldout"):
        return HELD_OUT
    if row["source"].startswith("xstest"):
        return HELD_OUT if row["model"] == "mistralguard" else DEV
    digest = hashlib.sha256(row["id"].encode("utf-8")).hexdigest()
    return HELD_OUT if digest[0] in "0123" else DEV


def grade_chat(directory: Path) -> tuple[list[ChatRow], float]:
    """Every labelled answer through `detect` (the prompt as question; the gold answer
    where the row has one, as document questions do),
    and the mean seconds per answer."""
    rows = []
    elapsed = 0.0
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if row["bucket"] not in (NONANSWER, ANSWER, PARTIAL):
                continue
            start = time.perf_counter()
            decision = detect(row["answer"], row["question"], row.get("gold") or "")
            elapsed += time.perf_counter() - start
            rows.append(
                ChatRow(
                    row["source"],
                    chat_split(row),
                    row["category"],
                    row["bucket"],
                    row["question"],
                    row["answer"],
                    decision.refused,
                    decision.refusal_class,
                    decision.cue,
                )
            )
    return rows, elapsed / len(rows) if rows else 0.0


def prf(rows: Sequence[ChatRow], positive: frozenset[str]) -> tuple[float, float, float, int]:
    """Precision, recall, F1 of `refused` against the buckets counted as non-answers."""
    both = sum(r.refused and r.bucket in positive for r in rows)
    said = sum(r.refused for r in rows)
    truth = sum(r.bucket in positive for r in rows)
    p = both / said if said else 0.0
    r = both / truth if truth else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0), len(rows)


def chat_report(directory: Path, show_dev: int = 0) -> None:
    rows, per_answer = grade_chat(directory)
    print(f"== {directory}: {len(rows)} answers, {per_answer * 1000:.2f} ms per answer")
    for source in sorted({r.source for r in rows}):
        for split in (DEV, HELD_OUT):
            part = [r for r in rows if r.source == source and r.split == split]
            if not part:
                continue
            clear = [r for r in part if r.bucket != PARTIAL]
            print(f"-- {source} {split}")
            for name, subset, positive in (
                ("clear", clear, frozenset({NONANSWER})),
                ("partial=nonanswer", part, frozenset({NONANSWER, PARTIAL})),
                ("partial=answer", part, frozenset({NONANSWER})),
            ):
                p, r, f, n = prf(subset, positive)
                print(f"  {name:<18} n={n:5}  P {p:.3f}  R {r:.3f}  F1 {f:.3f}")
            classes = sorted({r.our_class or "-" for r in clear if r.refused})
            for cls in classes:
                flagged = [r for r in clear if r.refused and (r.our_class or "-") == cls]
                right = sum(r.bucket == NONANSWER for r in flagged)
                print(f"  class {cls:<22} flagged {len(flagged):4}  right {right:4}  "
                      f"false alarms {len(flagged) - right:4}")  # fmt: skip
            missed: dict[str, int] = {}
            for r in clear:
                if r.bucket == NONANSWER and not r.refused:
                    missed[r.category] = missed.get(r.category, 0) + 1
            if missed:
                listed = ", ".join(f"{k} {v}" for k, v in sorted(missed.items()))
                print(f"  missed by category: {listed}")
    errors = [
        r
        for r in rows
        if r.split == DEV and r.bucket != PARTIAL and r.refused != (r.bucket == NONANSWER)
    ]
    for r in errors[:show_dev]:
        kind = "FA" if r.refused else "MISS"
        text = json.dumps(r.answer[:400], ensure_ascii=False)
        print(f"{kind} {r.source} [{r.our_class}] q={r.question[:80]!r}\n   {text}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "directories", nargs="*", type=Path, default=[DEFAULT_DIR],
        help="a labelled set, or a directory of them (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--summary", action="store_true", help="print the figures only, no answer rows"
    )
    parser.add_argument("--chat", type=Path, help="a folder of labelled chat answers")
    parser.add_argument("--show-dev", type=int, default=0, help="development errors to print")
    args = parser.parse_args(argv)
    if args.chat:
        chat_report(args.chat, args.show_dev)
        return 0
    for directory in args.directories:
        for part in parts(directory):
            report(part, rows=not args.summary)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
