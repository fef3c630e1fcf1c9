"""The canonical JSON report: built from a run's results, written atomically."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_bizbench.io.escape import SURROGATE, json_escaped
from pytest_bizbench.io.files import require_writable_target
from pytest_bizbench.report.model import BenchmarkEntry, Gate, ModelEntry, Report, RunInfo
from pytest_bizbench.report.records import Completeness, ReportDocument, ThresholdResult
from pytest_bizbench.report.stream import Documents, pieces
from pytest_bizbench.run.registry import Registry, fingerprint, scoring_config_of
from pytest_bizbench.scoring.passk import flaky_cases


@dataclass(frozen=True, slots=True)
class RunResult:
    """Everything the report, the terminal section and the step summary show."""

    documents: Mapping[tuple[str, str], list[ReportDocument]]
    metrics: Mapping[tuple[str, str], dict[str, Any]]
    thresholds: list[ThresholdResult]
    completeness: Completeness
    reasons: list[str]
    run: RunInfo
    comparisons: Mapping[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    paired: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    #: benchmark -> model -> summary of `*.agent-runs.jsonl` records
    runs: Mapping[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return not self.reasons


def _benchmark_entry(registry: Registry, name: str) -> BenchmarkEntry:
    """A benchmark's identity as the registry knows it; a blank one for a benchmark
    known only from the baseline (its comparison says it is missing)."""
    benchmark = registry.get(name)
    if benchmark is None:
        return BenchmarkEntry("", "", "", "", "", {}, {})
    return BenchmarkEntry(
        version=benchmark.version,
        description=benchmark.description,
        metric_unit=benchmark.metric_unit,
        headline_metric=benchmark.headline_metric,
        fingerprint=fingerprint(benchmark),
        config=scoring_config_of(benchmark)[0],
        models={},
        # compare()'s bounds, so `bizbench compare` can judge two saved reports
        regression_threshold=benchmark.REGRESSION_THRESHOLD,
        improvement_threshold=benchmark.IMPROVEMENT_THRESHOLD,
    )


def build_report(result: RunResult, registry: Registry) -> Report:
    models: dict[str, dict[str, ModelEntry]] = {}
    for (name, model), docs in result.documents.items():
        # only documents with sample statistics can flip: the others stay unparsed
        flaky = flaky_cases(Documents([d for d in docs if d.has_samples]))
        metrics = result.metrics.get((name, model), {})
        models.setdefault(name, {})[model] = ModelEntry(metrics, Documents(docs), tuple(flaky))
    # also a benchmark x model of the baseline that this run lacks (verdict missing)
    comparisons: dict[str, dict[str, Mapping[str, Any]]] = {}
    for (name, model), comparison in result.comparisons.items():
        comparisons.setdefault(name, {})[model] = comparison
    benchmarks = {
        name: replace(
            _benchmark_entry(registry, name),
            models=models.get(name, {}),
            comparison=comparisons.get(name, {}),
            paired=result.paired.get(name, {}) if name in models else {},
            runs=result.runs.get(name),
        )
        for name in sorted({*models, *comparisons, *result.runs})
    }
    return Report(
        benchmarks=benchmarks,
        thresholds=tuple(result.thresholds),
        gate=Gate.of(result.reasons),
        completeness=result.completeness,
        run=result.run,
    )


def canonical(data: Mapping[str, Any]) -> Iterator[str]:
    """Canonical text in pieces: sorted keys, so two runs differ only under "run".

    Compact on purpose: `indent` makes the json module fall back from its C encoder
    to pure Python, which cost a third of the plugin's overhead on big suites.
    """
    for piece in pieces(data):
        yield _paired(piece)
    yield "\n"


def _paired(piece: str) -> str:
    """Surrogates side by side in a string a hook made, joined into the character they
    encode, as a JSON reader joins their escapes: a worker's payload crosses xdist as
    JSON, so a serial run writes the same text. A lone one stays, for the file's
    `backslashreplace` to spell as its JSON escape (it is always inside a string)."""
    if piece.isascii():
        return piece
    if SURROGATE.search(piece):
        piece = piece.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return json_escaped(piece)


def dumps(report: Report) -> str:
    return "".join(canonical(report.to_json()))


def write_report(report: Report, path: Path) -> None:
    """Raises OSError with the path when the directory cannot be written."""
    write_json(report.to_json(), path)


def write_json(data: Mapping[str, Any], path: Path) -> None:
    """`data` as canonical JSON text, written atomically."""
    write_text_atomic(path, canonical(data))


def write_text_atomic(path: Path, text: str | Iterable[str]) -> None:
    """Write next to the target and rename, so a reader never sees half a file; a
    link, FIFO, device or directory at `path` is refused, neither replaced nor
    written into (which could block). A lone surrogate, which UTF-8 cannot hold, is
    written as its `\\uXXXX` escape.
    """
    require_writable_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
            handle.writelines([text] if isinstance(text, str) else text)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; reports and baselines are shared files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_report_or_say(report: Report, path: Path) -> str | None:
    """Write the report; None when written, else the one line that says why not.

    Details are made JSON where each payload is built, so this catches what is left:
    a path that cannot be written, or a value that still is not JSON.
    """
    try:
        write_report(report, path)
    except OSError as exc:
        return f"cannot write report {path}: {exc.strerror or exc}"
    except (TypeError, ValueError, RecursionError) as exc:
        return f"cannot write report {path}: {type(exc).__name__}: {exc}"
    return None
