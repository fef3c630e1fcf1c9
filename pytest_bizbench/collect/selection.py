"""Narrowing the QA questions a run asks: `--bizbench-subset` and `--bizbench-limit`.

Applied to the collected items, after pytest's own `-k`/`-m`, so the questions left
out never reach the prediction hook. The limit keeps the first N questions in item
order (files in path order, ids sorted within a file) across all files, with every
benchmark and model item of each kept question. Items of other case types and
error items (a bad row is reported, never dropped) are left alone.
"""

from __future__ import annotations

import pytest

from pytest_bizbench.run.state import run_state

QA_KIND = "qa"


def narrow_questions(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the QA items outside the subset or past the limit."""
    options = run_state(config).settings.qa
    if not options.subset and options.limit is None:
        return
    from pytest_bizbench.collect.items import CaseItem  # loaded only when a QA selection is made

    wanted = {name.casefold() for name in options.subset}
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    questions: set[tuple[str, str]] = set()
    for item in items:
        if not (isinstance(item, CaseItem) and item.benchmark.case_type == QA_KIND):
            kept.append(item)
            continue
        case = item.case  # unpickled on each read: once per item
        question_type = getattr(case, "question_type", None)
        if wanted and (question_type is None or question_type.casefold() not in wanted):
            dropped.append(item)
            continue
        key = (item.path.as_posix(), case.id)
        if key not in questions:
            if options.limit is not None and len(questions) >= options.limit:
                dropped.append(item)
                continue
            questions.add(key)
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
