"""The SIGTERM handler is the plugin's only while a session runs case items."""

from __future__ import annotations

import signal

import pytest

SHOW_HANDLER = """
import signal

def pytest_sessionfinish(session):
    handler = signal.getsignal(signal.SIGTERM)
    print("HANDLER", "default" if handler == signal.SIG_DFL else handler.__name__)
"""


def test_a_session_without_case_files_keeps_its_sigterm_handler(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(SHOW_HANDLER)
    pytester.makepyfile(test_plain="def test_ok():\n    pass\n")
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*HANDLER default*"])


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_session_with_case_items_turns_sigterm_into_an_interrupt(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    pytester.makeconftest(SHOW_HANDLER)
    pytester.path.joinpath("a.ground-truth.jsonl").write_text(
        '{"id": "d1", "ground_truth": {"x": 1}, "extracted_fields": {"x": 1}}\n'
    )
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider", *workers)
    result.assert_outcomes(passed=2)  # the case and bizbench::gate
    result.stdout.fnmatch_lines(["*HANDLER _sigterm_as_interrupt*"])


def test_the_previous_handler_is_back_after_the_session(pytester: pytest.Pytester) -> None:
    def mine(signum: int, frame: object) -> None:
        """A handler the host program had before running pytest."""

    pytester.path.joinpath("a.ground-truth.jsonl").write_text(
        '{"id": "d1", "ground_truth": {"x": 1}, "extracted_fields": {"x": 1}}\n'
    )
    before = signal.signal(signal.SIGTERM, mine)
    try:
        seen: list[object] = []

        class Spy:
            def pytest_sessionfinish(self) -> None:
                seen.append(signal.getsignal(signal.SIGTERM))

        result = pytester.inline_run("-p", "no:cacheprovider", plugins=[Spy()])
        result.assertoutcome(passed=2)  # the case and bizbench::gate
        assert [getattr(h, "__name__", h) for h in seen] == ["_sigterm_as_interrupt"]
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, before)
