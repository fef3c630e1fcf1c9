"""The peer re-check: awslabs/stickler's own test cases, replayed through case files,
a rules file and the JSON report (tests/data/stickler/).

Each case of `stickler.ground-truth.jsonl` is one assertion of stickler's tests
(`verdicts.json` names it), its comparator configuration mapped to a field rule by
`rules.yml`. A case agrees (stickler's verdict holds for our report), or differs by
a rule: then our verdict holds, stickler's does not, and the rule is named in the
decision record and the README's "where we differ from stickler".
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bizhelpers import Suite

DATA = Path(__file__).parent / "data" / "stickler"
ROOT = Path(__file__).parent.parent
DOCS = (ROOT / "README.md", ROOT / "docs" / "decisions" / "0029-field-rules.md")
COUNTS = ("tp", "fd", "fn", "fa", "tn")


def _holds(verdict: dict[str, Any], details: dict[str, Any], field: str | None) -> bool:
    """Whether every clause of a verdict holds for one document's details.

    Counts are ours (tp, fd, fn, fa, tn): stickler's fp is our fd + fa."""
    entry = details.get(field) if field else None
    totals = Counter[str]()
    for counts in details["field_counts"].values():
        totals.update(counts)
    for kind, want in verdict.items():
        if kind == "absent":
            ok = field not in details
        elif kind == "total":
            ok = all(totals[key] == value for key, value in want.items())
        elif entry is None:
            ok = False
        elif kind in ("score", "above", "below") and entry["rung"] == "unexpected":
            ok = False  # a value given where none was expected is counted, never scored
        elif kind == "score":
            ok = entry["score"] == pytest.approx(want)
        elif kind == "above":
            ok = entry["score"] > want
        elif kind == "below":
            ok = entry["score"] < want
        elif kind == "rung":
            ok = entry["rung"] == want
        elif kind == "counts":
            ok = all(entry[key] == value for key, value in want.items())
        else:  # "sums": {"tp+fd": 3}
            assert kind == "sums", kind
            ok = all(
                sum(entry[key] for key in keys.split("+")) == value for keys, value in want.items()
            )
        if not ok:
            return False
    return True


def test_stickler_cases_agree_or_differ_by_a_documented_rule(suite: Suite) -> None:
    for name in ("stickler.ground-truth.jsonl", "rules.yml"):
        shutil.copy(DATA / name, suite.path / name)
    suite.write("pytest.ini", "[pytest]\nbizbench_field_rules = rules.yml\n")
    suite.pytester.runpytest()
    documents = suite.documents()
    verdicts: dict[str, dict[str, Any]] = json.loads((DATA / "verdicts.json").read_text())
    docs = {path.name: path.read_text(encoding="utf-8") for path in DOCS}
    assert set(documents) == set(verdicts)
    tally: Counter[str] = Counter()
    wrong = []
    for case_id, verdict in verdicts.items():
        details = documents[case_id]["details"]
        field = verdict.get("field")
        theirs = _holds(verdict["stickler"], details, field)
        rule = verdict.get("differs")
        if rule is None:
            tally["agree"] += 1
            if not theirs:
                wrong.append(f"{case_id}: stickler's {verdict['stickler']} fails: {details}")
            continue
        tally[rule] += 1
        if theirs or not _holds(verdict["ours"], details, field):
            wrong.append(f"{case_id}: differs by {rule}, yet {verdict['ours']} does not hold")
        wrong += [
            f"{case_id}: `{rule}` is not in {name}"
            for name in docs
            if f"`{rule}`" not in docs[name]
        ]
    assert not wrong, "\n".join(wrong)
    assert len(verdicts) >= 60
    agree, differ = tally.pop("agree"), sum(tally.values())
    for name, text in docs.items():  # the figures the docs quote are the replay's
        assert f"{len(verdicts)} assertions" in text, name
        assert f"{agree} agree" in text, name
        assert f"{differ} differ" in text, name
