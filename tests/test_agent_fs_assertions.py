"""The file-system assertion grader: each kind passing and failing for each cause,
escape attempts refused before anything is read, bounded reads and regexes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pytest_bizbench.scoring.fs_assertions import (
    NO_SEED,
    Limits,
    RunWorkspace,
    check_assertion,
    grade_workspace,
    run_workspaces,
)

LIMITS = Limits(max_bytes=1_000, regex_timeout=1.0)
SEED = {"src/app.py": "def main():\n    return 1\n", "README.md": "# app\n"}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A post-state workspace; `outside/secret.txt` sits next to it, not in it."""
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def main():\n    return 2\n", encoding="utf-8")
    (root / "README.md").write_text("# app\n", encoding="utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("TOKEN=hunter2\n", encoding="utf-8")
    return root


def check(root: Path, seed: dict[str, str] | None = None, **assertion: Any) -> dict[str, Any]:
    return check_assertion(root, assertion, SEED if seed is None else seed, LIMITS)


def failed(result: dict[str, Any], reason: str) -> None:
    assert (result["passed"], result["skipped"], result["reason"]) == (False, False, reason)


def passed(result: dict[str, Any]) -> None:
    assert (result["passed"], result["skipped"], result["reason"]) == (True, False, None)


def test_result_names_kind_and_path(workspace: Path) -> None:
    assert check(workspace, kind="file_exists", path="src/app.py") == {
        "kind": "file_exists",
        "path": "src/app.py",
        "passed": True,
        "skipped": False,
        "reason": None,
    }


def test_file_exists(workspace: Path) -> None:
    passed(check(workspace, kind="file_exists", path="src/app.py"))
    failed(check(workspace, kind="file_exists", path="src/x.py"), "missing: src/x.py")
    failed(check(workspace, kind="file_exists", path="src"), "not a file: src")


def test_file_not_exists(workspace: Path) -> None:
    passed(check(workspace, kind="file_not_exists", path="src/app.py.orig"))
    failed(check(workspace, kind="file_not_exists", path="src/app.py"), "exists: src/app.py")
    failed(check(workspace, kind="file_not_exists", path="src"), "exists: src")


def test_file_contents_contain(workspace: Path) -> None:
    kind = "file_contents_contain"
    passed(check(workspace, kind=kind, path="src/app.py", must_contain="return 2"))
    passed(check(workspace, kind=kind, path="src/app.py", must_contain=["def main", "return"]))
    # case-sensitive substring
    failed(
        check(workspace, kind=kind, path="src/app.py", must_contain="RETURN 2"),
        "does not contain: 'RETURN 2'",
    )
    # a list fails on the first text that is absent
    failed(
        check(workspace, kind=kind, path="src/app.py", must_contain=["def main", "return 1"]),
        "does not contain: 'return 1'",
    )
    failed(check(workspace, kind=kind, path="gone.py", must_contain="x"), "missing: gone.py")
    failed(check(workspace, kind=kind, path="src", must_contain="x"), "not a file: src")


def test_file_contents_match_regex(workspace: Path) -> None:
    kind = "file_contents_match_regex"
    passed(check(workspace, kind=kind, path="src/app.py", regex=r"return \d"))
    # search, not match: the pattern may sit anywhere in the file
    passed(check(workspace, kind=kind, path="src/app.py", regex=r"(?m)^\s+return"))
    failed(check(workspace, kind=kind, path="src/app.py", regex=r"return 1"), "regex did not match")
    failed(check(workspace, kind=kind, path="gone.py", regex="x"), "missing: gone.py")


def test_hostile_regex_times_out(workspace: Path) -> None:
    (workspace / "big.txt").write_text("a" * 60 + "b", encoding="utf-8")
    result = check_assertion(
        workspace,
        {"kind": "file_contents_match_regex", "path": "big.txt", "regex": r"(a|aa)+$"},
        {},
        Limits(max_bytes=1_000, regex_timeout=0.05),
    )
    failed(result, "regex timed out after 0.05s")


def test_invalid_regex_fails_the_assertion(workspace: Path) -> None:
    result = check(workspace, kind="file_contents_match_regex", path="README.md", regex="(")
    assert result["passed"] is False
    assert result["reason"].startswith("invalid regex: ")


def test_file_unchanged(workspace: Path) -> None:
    passed(check(workspace, kind="file_unchanged", path="README.md"))
    # the seed says `return 1`, the agent left `return 2`
    failed(check(workspace, kind="file_unchanged", path="src/app.py"), "contents differ")
    (workspace / "README.md").unlink()  # a deleted file is changed
    failed(check(workspace, kind="file_unchanged", path="README.md"), "missing: README.md")


def test_file_unchanged_compares_exact_bytes(workspace: Path) -> None:
    (workspace / "README.md").write_bytes(b"# app\r\n")
    failed(check(workspace, kind="file_unchanged", path="README.md"), "contents differ")


def test_file_unchanged_finds_the_seed_of_a_normalised_path(workspace: Path) -> None:
    passed(check(workspace, kind="file_unchanged", path="./README.md"))


def test_file_unchanged_without_seed_content_is_skipped_and_passes(workspace: Path) -> None:
    result = check(workspace, kind="file_unchanged", path="src/app.py", seed={})
    assert result == {
        "kind": "file_unchanged",
        "path": "src/app.py",
        "passed": True,
        "skipped": True,
        "reason": NO_SEED,
    }
    assert NO_SEED == "skipped (no seed content)"


def test_unknown_kind_fails_that_assertion_only(workspace: Path) -> None:
    results = grade_workspace(
        workspace,
        [
            {"kind": "file_is_pretty", "path": "src/app.py"},
            {"kind": "file_exists", "path": "src/app.py"},
            {"kind": "no_path_at_all"},
        ],
        SEED,
        LIMITS,
    )
    failed(results[0], "unknown kind: file_is_pretty")
    passed(results[1])
    assert results[2] == {
        "kind": "no_path_at_all",
        "path": "",
        "passed": False,
        "skipped": False,
        "reason": "unknown kind: no_path_at_all",
    }


def test_assertion_without_its_parameter_fails_instead_of_raising(workspace: Path) -> None:
    result = check(workspace, kind="file_contents_contain", path="src/app.py")
    assert result["passed"] is False
    assert result["reason"] == "malformed assertion: KeyError: 'must_contain'"


ESCAPES = [
    "../outside/secret.txt",  # up and out
    "src/../../outside/secret.txt",  # down, then further up
    "/etc/passwd",  # absolute
    "C:\\Windows\\win.ini",  # a drive, whatever the platform
]


@pytest.mark.parametrize("path", ESCAPES)
@pytest.mark.parametrize(
    "assertion",
    [
        {"kind": "file_exists"},
        {"kind": "file_not_exists"},
        {"kind": "file_contents_contain", "must_contain": "TOKEN"},
        {"kind": "file_contents_match_regex", "regex": "TOKEN"},
        {"kind": "file_unchanged"},
    ],
)
def test_a_path_leaving_the_workspace_fails_every_kind(
    workspace: Path, path: str, assertion: dict[str, Any]
) -> None:
    # the outside file would satisfy contain/regex, and file_not_exists or an unseeded
    # file_unchanged would pass: the reason shows the path was refused, not evaluated
    result = check(workspace, seed={path: "TOKEN=hunter2\n"}, path=path, **assertion)
    failed(result, f"path escapes the workspace: {path}")


def test_a_symlink_to_a_file_outside_is_refused(workspace: Path) -> None:
    os.symlink(workspace.parent / "outside" / "secret.txt", workspace / "notes.txt")
    result = check(workspace, kind="file_contents_contain", path="notes.txt", must_contain="TOKEN")
    failed(result, "path escapes the workspace: notes.txt")
    failed(
        check(workspace, kind="file_exists", path="notes.txt"),
        "path escapes the workspace: notes.txt",
    )


def test_a_symlinked_directory_pointing_outside_is_refused(workspace: Path) -> None:
    os.symlink(workspace.parent / "outside", workspace / "docs")
    result = check(workspace, kind="file_exists", path="docs/secret.txt")
    failed(result, "path escapes the workspace: docs/secret.txt")


def test_a_dangling_symlink_pointing_outside_is_refused(workspace: Path) -> None:
    os.symlink(workspace.parent / "outside" / "nothing-here", workspace / "cache")
    result = check(workspace, kind="file_not_exists", path="cache")
    failed(result, "path escapes the workspace: cache")


def test_paths_that_stay_inside_are_graded(workspace: Path) -> None:
    os.symlink(workspace / "src" / "app.py", workspace / "main.py")  # inside to inside
    passed(check(workspace, kind="file_contents_contain", path="main.py", must_contain="def main"))
    passed(check(workspace, kind="file_exists", path="src/../README.md"))


def test_a_symlink_loop_fails_with_a_reason(workspace: Path) -> None:
    os.symlink(workspace / "loop-b", workspace / "loop-a")
    os.symlink(workspace / "loop-a", workspace / "loop-b")
    result = check(workspace, kind="file_exists", path="loop-a")
    assert result["passed"] is False
    assert result["reason"].startswith(("cannot resolve loop-a", "missing: loop-a"))


def test_reads_are_size_capped(workspace: Path) -> None:
    (workspace / "big.log").write_text("x" * 1_001, encoding="utf-8")
    result = check(workspace, kind="file_contents_contain", path="big.log", must_contain="x")
    failed(
        result,
        "too large: big.log is over the 1,000-byte cap (ini bizbench_agent_max_file_bytes)",
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_never_opened(workspace: Path) -> None:
    os.mkfifo(workspace / "pipe")  # opening it for reading would block forever
    result = check(workspace, kind="file_contents_contain", path="pipe", must_contain="x")
    failed(result, "not a file: pipe")


def test_a_file_that_is_not_utf8_is_read_with_replacement(workspace: Path) -> None:
    (workspace / "data.bin").write_bytes(b"\xff\xfeheader OK")
    passed(check(workspace, kind="file_contents_contain", path="data.bin", must_contain="OK"))


def test_run_workspaces(tmp_path: Path) -> None:
    single = tmp_path / "single"
    (single / "src").mkdir(parents=True)
    assert run_workspaces(single) == [RunWorkspace(None, single)]
    runs = tmp_path / "runs"
    for n in (10, 2, 1):
        (runs / f"run-{n}").mkdir(parents=True)
    (runs / ".DS_Store").write_text("", encoding="utf-8")  # hidden entries do not count
    assert [run.name for run in run_workspaces(runs)] == ["run-1", "run-2", "run-10"]
    # a workspace that merely contains a run-1/ folder among other files is one workspace
    (single / "run-1").mkdir()
    assert run_workspaces(single) == [RunWorkspace(None, single)]


def test_a_path_the_file_system_refuses_fails_that_assertion_alone(workspace: Path) -> None:
    """A name over 255 bytes makes `exists()` raise ENAMETOOLONG; grading never raises."""
    for kind in ("file_exists", "file_not_exists"):
        result = check(workspace, kind=kind, path="x" * 300)
        assert (result["passed"], result["skipped"]) == (False, False)
        # the words after the colon are the operating system's own
        assert result["reason"].startswith("cannot check the path: ")
    passed(check(workspace, kind="file_exists", path="README.md"))
