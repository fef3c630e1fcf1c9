"""The run's results as a JSON report, a terminal section and markdown."""

from pytest_bizbench.report.json_report import RunResult, build_report, write_report

__all__ = ["RunResult", "build_report", "write_report"]
