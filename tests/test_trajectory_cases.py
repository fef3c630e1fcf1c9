"""Reading trajectory files: what is an iteration, what is counted, what is an error."""

from __future__ import annotations

from pathlib import Path

import pytest
from bizhelpers import Suite

from pytest_bizbench.cases.model import CaseError
from pytest_bizbench.cases.trajectory import Iteration, TrajectoryCase, load_trajectory
from pytest_bizbench.options.types import TrajectoryConfig

CAP = 1_000_000


def load(tmp_path: Path, text: str, config: TrajectoryConfig | None = None) -> list[object]:
    path = tmp_path / "run-7.trajectory.jsonl"
    path.write_text(text, encoding="utf-8")
    return list(load_trajectory(path, CAP, config or TrajectoryConfig()))


def test_records_without_a_score_are_counted_by_status(tmp_path: Path) -> None:
    [case] = load(
        tmp_path,
        '{"val_bpb": 2, "config": {"lr": 1}, "mode": 3}\n'
        '{"val_bpb": true, "status": "proposed"}\n'
        '{"val_bpb": "1.0", "status": "proposed"}\n'
        '{"status": ""}\n'
        "{}\n"
        '{"val_bpb": 1.5, "status": "done"}\n',
    )
    assert isinstance(case, TrajectoryCase)
    assert (case.id, case.model, case.baseline) == ("run-7", "default", None)
    assert case.iterations == (
        Iteration(1, 2.0, {"lr": 1}, "3"),
        Iteration(6, 1.5, None, None),
    )
    assert case.skipped == {"(no status)": 2, "proposed": 2}


def test_bad_lines_are_errors_at_their_line_and_the_others_are_used(tmp_path: Path) -> None:
    loaded = load(
        tmp_path,
        '{"model": "m1", "val_bpb": 1.0}\n'
        "[1, 2]\n"
        '{"val_bpb": NaN}\n'
        '{"model": "m2", "val_bpb": 0.5}\n'
        '{"model": 7, "val_bpb": 0.5}\n'
        '{"val_bpb": 0.9, "base": "x"}\n'
        '{"val_bpb": 0.8, "base": 1.1}\n'
        '{"val_bpb": 0.7, "base": 1.2}\n',
        TrajectoryConfig(baseline="base"),
    )
    case, *errors = loaded
    assert isinstance(case, TrajectoryCase)
    assert case.model == "m1"
    assert [i.line for i in case.iterations] == [1, 7, 8]
    assert case.baseline == 1.1  # the first one given
    assert all(isinstance(e, CaseError) for e in errors)
    assert [(e.line, e.message) for e in errors if isinstance(e, CaseError)] == [
        (2, "a trajectory record must be an object, got list"),
        (3, "NaN is not allowed (JSON has no NaN or Infinity)"),
        (4, "model 'm2' differs from the trajectory's model 'm1' (first record's)"),
        (5, '"model" must be a non-empty string, got 7'),
        (6, "baseline 'base' must be a finite number, got \"x\""),
    ]


def test_a_file_of_bad_lines_only_is_its_errors(tmp_path: Path) -> None:
    loaded = load(tmp_path, "nope\n[]\n")
    assert [e.line for e in loaded if isinstance(e, CaseError)] == [1, 2]
    assert len(loaded) == 2


def test_the_hash_is_what_the_trajectory_is_judged_against(tmp_path: Path) -> None:
    config = TrajectoryConfig(baseline="b")
    [one] = load(tmp_path, '{"val_bpb": 1, "b": 2}\n', config)
    [two] = load(tmp_path, '{"val_bpb": 0.5, "b": 2}\n{"val_bpb": 0.4}\n', config)
    [three] = load(tmp_path, '{"val_bpb": 1, "b": 3}\n', config)
    assert isinstance(one, TrajectoryCase)
    assert isinstance(two, TrajectoryCase)
    assert isinstance(three, TrajectoryCase)
    assert one.case_hash == two.case_hash != three.case_hash


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["colour = red"], "ini bizbench_trajectory_fields: unknown field 'colour'"),
        (["knobs"], "ini bizbench_trajectory_fields: 'knobs' is not 'name = value'"),
    ],
)
def test_bad_fields_lines_name_the_ini_key(lines: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrajectoryConfig.from_ini("val_bpb", True, lines)


def test_a_bad_ini_value_is_a_usage_error(suite: Suite) -> None:
    suite.write("pytest.ini", "[pytest]\nbizbench_trajectory_lower_is_better = maybe\n")
    suite.write("a.trajectory.jsonl", '{"val_bpb": 1}\n')
    result = suite.pytester.runpytest("-p", "no:cacheprovider")
    result.stderr.fnmatch_lines(["*ini bizbench_trajectory_lower_is_better*"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR
