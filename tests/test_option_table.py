"""The option table is the one declaration of every option and ini key: pytest
registers exactly it, the settings reader checks what it says, and the README's
table is generated from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_bizbench.options.table import INI_KEYS, SETTINGS, UNSET_INI, markdown_table

README = Path(__file__).parent.parent / "README.md"
GROUP = "bizbench: evaluate systems against ground truth"


def test_the_readme_table_is_the_generated_one() -> None:
    """Regenerate with `python -c "from pytest_bizbench.options.table import
    markdown_table; print(markdown_table())"` and paste it over the README's table."""
    text = README.read_text(encoding="utf-8")
    start = text.index("| option | ini key | default | meaning |")
    end = text.index("\n\n", start) + 1
    assert text[start:end] == markdown_table()


def test_every_row_names_an_option_or_an_ini_key_once() -> None:
    flags = [s.flag.name for s in SETTINGS if s.flag is not None]
    keys = [s.ini.name for s in SETTINGS if s.ini is not None]
    assert all(s.flag is not None or s.ini is not None for s in SETTINGS)
    assert len(flags) == len(set(flags))
    assert len(keys) == len(set(keys)) == len(INI_KEYS)
    assert all(flag.startswith("--bizbench-") for flag in flags)
    assert all(key.startswith("bizbench_") for key in keys)


def test_pytest_registers_exactly_the_table(pytester: pytest.Pytester) -> None:
    config = pytester.parseconfig()
    for setting in SETTINGS:
        if setting.flag is not None:
            expected: object = {"append": [], "store_true": False}.get(setting.flag.action or "")
            if setting.flag.unset_is_none:
                expected = None
            assert config.getoption(setting.flag.dest) == expected, setting.flag.name
        if setting.ini is not None:
            value = config.getini(setting.ini.name)
            default = setting.ini.default
            assert value is UNSET_INI if default is UNSET_INI else value == default
    result = pytester.runpytest("--help")
    ours = [
        match[1] for line in result.outlines if (match := re.match(r"  (--bizbench-[a-z-]+)", line))
    ]
    assert sorted(set(ours)) == sorted(s.flag.name for s in SETTINGS if s.flag is not None)
    assert result.stdout.str().count(GROUP) == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("bizbench_strictness = 1.5", "ini bizbench_strictness = '1.5' must be between 0 and 1"),
        ("bizbench_llm_concurrency = 0", "must be between 1 and 1024"),
        ("bizbench_worst_cases = -1", "must be between 0 and 10000"),
        ("bizbench_date_order = YMD", "ini bizbench_date_order = 'YMD' must be DMY or MDY"),
        ("bizbench_flaky = maybe", "ini bizbench_flaky = 'maybe' must be fail or xfail"),
    ],
)
def test_the_reader_checks_the_bounds_and_choices_of_the_table(
    pytester: pytest.Pytester, line: str, message: str
) -> None:
    pytester.makeini(f"[pytest]\n{line}\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def test_a_choice_is_read_in_any_case(pytester: pytest.Pytester) -> None:
    """`mdy` is MDY: 05/03/2024 is 3 May (read as DMY it would be 5 March, a miss)."""
    pytester.makeini(
        "[pytest]\nbizbench_date_order = mdy\nbizbench_date_fields = d\nbizbench_flaky = XFAIL\n"
    )
    pytester.makefile(
        ".ground-truth.json",
        inv='{"id": "a", "ground_truth": {"d": "05/03/2024"}, '
        '"extracted_fields": {"d": "2024-05-03"}}',
    )
    result = pytester.runpytest("-q")
    assert result.ret == pytest.ExitCode.OK
