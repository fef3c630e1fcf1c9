"""The report stays byte-identical outside "run" (issue 17: speed and memory work
must change no result).

`tests/data/report_pin/` is a small varied suite: 30 generated invoices (typos,
number and date spellings, line items dropped or added, a missing field), a case
with no prediction, a malformed line, and a conftest benchmark whose details need
converting (int keys, Decimal, NaN, a set, a long list and string). The expected
report was written by the code before the issue's changes. When a change alters
the report on purpose, regenerate it: run the suite as below, then
`sed 's/"run":{[^}]*}/"run":{}/' r.json > tests/data/report_pin.expected.json`.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
RUN = re.compile(r'"run":\{[^{}]*\}')  # flat: timings and versions, nothing nested


@pytest.mark.parametrize("workers", [None, "2"])
def test_report_is_byte_identical_outside_run(
    pytester: pytest.Pytester, workers: str | None
) -> None:
    shutil.copytree(DATA / "report_pin", pytester.path, dirs_exist_ok=True)
    args = ["--bizbench-predictions", "predictions.jsonl", "--bizbench-report", "r.json"]
    result = pytester.runpytest_subprocess(*args, *(["-n", workers] if workers else []))
    # the missing prediction and the malformed line fail the gate, as they should, and
    # odd-2 scores 0 under both benchmarks: under their pass mark
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=32, failed=4, errors=1)
    written = (pytester.path / "r.json").read_text(encoding="utf-8")
    assert len(RUN.findall(written)) == 1
    expected = (DATA / "report_pin.expected.json").read_text(encoding="utf-8")
    assert RUN.sub('"run":{}', written) == expected
