"""Fit the learned part of the non-answer detector (`scoring/nonanswer_weights.json`).

A logistic regression over the features of `scoring/nonanswer_model.py`, fitted by
Newton's method with an L2 penalty, in plain Python (the package needs no numpy).
Training rows, development data only:
- the labelled chat answers in DIR (XSTest v2, Röttger et al. 2024, CC-BY-4.0 prompts;
  Reuter & Schulze 2023, "I'm Afraid I Can't Do That", MIT), without the held-out
  split of `benchmarks/qa_agreement.py` (XSTest's mistralguard answers, a quarter of
  Reuter's by id hash) and without the `partial` bucket;
- the project's own document-QA non-answer corpus, its development parts only
  (`tests/data/qa_refusal/dev*`, hand-written; the `heldout_*` parts stay unseen),
  each row read with its gold answer and without one.
Only rows where the model is consulted are fitted (see `refusal._weigh`): a catalog
refusal shaped like an attempt, or an opening that declines.
Usage: python benchmarks/train_nonanswer.py DIR
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from qa_agreement import ANSWER, DEV, NONANSWER, REFUSAL, chat_split

from pytest_bizbench.cases.qa import QACase, load_qa
from pytest_bizbench.scoring import nonanswer_model as model
from pytest_bizbench.scoring.refusal import detect_by_catalog, normalize

ROOT = Path(__file__).resolve().parent.parent
DOC_DEV = sorted((ROOT / "tests" / "data" / "qa_refusal").glob("dev*"))
OUT = ROOT / "pytest_bizbench" / "scoring" / "nonanswer_weights.json"
L2 = 1.0
ROUNDS = 25
DOC_WEIGHT = 0.25


def row_features(answer: str, question: str, gold: str) -> dict[str, float] | None:
    """The features of a row the model is consulted on, else None."""
    decision = detect_by_catalog(answer, question, gold)
    if decision.refusal_class == "empty-structural" or decision.agrees_with_gold:
        return None
    head = answer[: model.READ_CHARS]
    norm = normalize(head)
    reading = model.read(norm, head, decision.refusal_class, decision.refused)
    if not reading.consulted(decision.refused, bool(gold)):
        return None
    return model.features(norm, head, decision.refusal_class, decision.refused)


def training_rows(directory: Path) -> list[tuple[dict[str, float], int, float]]:
    """(features, label, weight) of each row; the document rows weigh `DOC_WEIGHT`, so
    that the many short document refusals do not drown the chat answers."""
    rows = []
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if chat_split(row) != DEV or row["bucket"] not in (NONANSWER, ANSWER):
                continue
            values = row_features(row["answer"], row["question"], "")
            if values is not None:
                rows.append((values, int(row["bucket"] == NONANSWER), 1.0))
    for part in DOC_DEV:
        cases = {
            c.id: c for c in load_qa(part / "questions.jsonl", 50_000_000) if isinstance(c, QACase)
        }
        for line in (part / "answers.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            case = cases[row["financebench_id"]]
            # with the gold, as qa-answer reads it, and without, as a chat answer
            for gold in (case.answer, ""):
                values = row_features(row["model_answer"], case.question, gold)
                if values is not None:
                    rows.append((values, int(row["label"] == REFUSAL), DOC_WEIGHT))
    return rows


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Hessian is positive definite)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit(rows: list[tuple[dict[str, float], int, float]]) -> dict[str, float]:
    """Weighted, L2-penalised logistic regression by Newton's method (the bias not
    penalised)."""
    names = sorted({name for values, _, _ in rows for name in values})
    xs = [[values.get(name, 0.0) for name in names] for values, _, _ in rows]
    ys = [label for _, label, _ in rows]
    sample = [weight for _, _, weight in rows]
    w = [0.0] * len(names)
    penalty = [0.0 if name == "bias" else L2 for name in names]
    for _ in range(ROUNDS):
        grad = [p * wi for p, wi in zip(penalty, w, strict=True)]
        hess = [[0.0] * len(names) for _ in names]
        for i, p in enumerate(penalty):
            hess[i][i] += p + 1e-6
        for x, y, weight in zip(xs, ys, sample, strict=True):
            z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
            prob = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            active = [(i, xi) for i, xi in enumerate(x) if xi]
            for i, xi in active:
                grad[i] += weight * (prob - y) * xi
                for j, xj in active:
                    hess[i][j] += weight * prob * (1 - prob) * xi * xj
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return {name: round(wi, 4) for name, wi in zip(names, w, strict=True)}


def main(argv: list[str]) -> int:
    rows = training_rows(Path(argv[0]))
    weights = fit(rows)
    right = sum(
        (model.probability_with(weights, values) >= 0.5) == bool(label) for values, label, _ in rows
    )
    print(f"{len(rows)} rows ({sum(label for _, label, _ in rows)} non-answers); "
          f"training accuracy {right / len(rows):.3f}")  # fmt: skip
    for name, value in sorted(weights.items(), key=lambda kv: -abs(kv[1])):
        print(f"  {name:<22} {value:+.3f}")
    document = {
        "about": "logistic regression of scoring/nonanswer_model.py; fitted by "
        "benchmarks/train_nonanswer.py on development data only (see its docstring)",
        "rows": len(rows),
        "weights": weights,
    }
    OUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
