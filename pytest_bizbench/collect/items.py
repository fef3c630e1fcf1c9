"""Case files as pytest collectors and cases as items.

Shaped like pytest's "non-Python tests" example, with one departure: a file that
cannot be read yields an error item instead of raising from `collect()`, so every
other case still runs.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from _pytest._code.code import ExceptionInfo, TerminalRepr

from pytest_bizbench.cases.kinds import Case, CaseKind, case_models
from pytest_bizbench.cases.model import CaseError
from pytest_bizbench.io.escape import terminal_text
from pytest_bizbench.predict.cache import PredictionCache
from pytest_bizbench.run.evaluate import SampleRule, evaluate, unholdable
from pytest_bizbench.run.failure import (
    BenchmarkCrash,
    CaseFailure,
    CaseLoadError,
    MissingPrediction,
    ScoreBelowPassMark,
    unscored_fields,
)
from pytest_bizbench.run.payload import (
    ERROR,
    MISSING,
    OWN_PROPERTIES,
    SKIPPED,
    DocumentPayload,
    NotJSON,
)
from pytest_bizbench.run.state import is_worker, run_state
from pytest_bizbench.scoring.passk import flaky_message
from pytest_bizbench.sdk import BenchmarkPlugin


class CaseFile(pytest.File):
    """A case file: one item per case x benchmark x model, sorted by case id."""

    def __init__(self, *, kind: CaseKind, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind = kind

    def collect(self) -> Iterable[pytest.Item]:
        state = run_state(self.config)
        loaded = self.kind.load(self.path, state.settings.load_options())
        models = state.settings.models
        items: list[tuple[tuple[str, str, str], pytest.Item]] = []
        names: set[str] = set()
        for entry in loaded:
            if isinstance(entry, CaseError):
                shown = replace(entry, path=self.nodeid)  # the path as node ids show it
                name = _unique(_error_name(shown), names)
                items.append(((name, "", ""), ErrorItem.from_parent(self, name=name, error=shown)))
                continue
            benchmarks = state.registry.targeting(self.kind.name, entry.labels)
            if not benchmarks:
                error = CaseError(
                    self.nodeid,
                    entry.line,
                    f"no benchmark targets case {entry.id!r} with labels {list(entry.labels)}",
                    entry.id,
                )
                name = _unique(f"{terminal_text(entry.id)}[no-benchmark]", names)
                items.append(
                    ((entry.id, "", ""), ErrorItem.from_parent(self, name=name, error=error))
                )
            packed = pack(entry) if benchmarks else None
            scored_for = case_models(self.kind, entry, models)
            for benchmark in benchmarks:
                for model in scored_for:
                    item = CaseItem.from_parent(
                        self,
                        # ids that differ only where one is shown escaped ("a\x1b", "a\\x1b")
                        name=_unique(item_name(entry.id, benchmark.name, model, scored_for), names),
                        case=entry,
                        packed=packed,
                        benchmark=benchmark,
                        model=model,
                    )
                    items.append(((entry.id, benchmark.name, model), item))
        items.sort(key=lambda pair: pair[0])
        return [item for _, item in items]


def _has_source(config: pytest.Config) -> bool:
    """Whether the run has a prediction source, an `llm:` model or a predict hook."""
    settings = run_state(config).settings
    hooked = config.hook.pytest_bizbench_predict.get_hookimpls()
    return bool(settings.predictions or settings.llm.live or hooked)


def _nothing_to_score(count: int) -> str:
    """The one line of the usage error of a run that can score none of its cases
    (else each would fail alone with the same "no prediction")."""
    return (
        f"nothing to score: no prediction for any of the {count} collected case(s); "
        "pass --bizbench-predictions [MODEL=]PATH (or set ini bizbench_predictions)"
    )


def nothing_to_score(config: pytest.Config, items: Sequence[pytest.Item]) -> str | None:
    """Why no collected item can be scored (no prediction source, no inline
    prediction, no predict hook); None when something can be."""
    if _has_source(config):
        return None
    cases = [
        (parent.kind, i)
        for i in items
        if isinstance(i, CaseItem) and isinstance(parent := i.parent, CaseFile)
    ]
    if not cases or any(kind.inline_prediction(i.case) is not None for kind, i in cases):
        return None
    return _nothing_to_score(len({(i.path, i.case.id) for _, i in cases}))


def nothing_to_score_ids(config: pytest.Config, nodeids: Sequence[str]) -> str | None:
    """`nothing_to_score` for an xdist controller, which collects nothing: it knows
    the items by node id, reads their case files for inline predictions, and looks
    for a predict hook in the conftests only the workers load."""
    from pytest_bizbench.cases.kinds import kind_for
    from pytest_bizbench.run.registry import unloaded_registrar

    state = run_state(config)
    if _has_source(config) or unloaded_registrar(config, nodeids, "pytest_bizbench_predict"):
        return None
    names, models = list(state.registry.names), state.settings.models
    wanted: dict[str, set[str]] = {}
    for nodeid in nodeids:
        path, _, name = nodeid.rpartition("::")
        found = parse_item_name(name, names, models)
        if found is not None:
            wanted.setdefault(path, set()).add(found[0])
    for path, shown in wanted.items():
        kind = kind_for(config.rootpath / path)
        if kind is None:
            return None
        for case in kind.load(config.rootpath / path, state.settings.load_options()):
            inline = not isinstance(case, CaseError) and terminal_text(case.id) in shown
            if inline and kind.inline_prediction(case) is not None:
                return None
    return _nothing_to_score(sum(len(ids) for ids in wanted.values())) if wanted else None


def pack(case: Case) -> bytes | None:
    """The case as its items keep it until they run: pickled. pytest holds every item
    from collection to the session's end; a parsed ground-truth case is ~3 KB and
    dozens of objects for the garbage collector to walk again and again, its pickle
    ~0.5 KB and one. Our own objects, unpickled in this process only. None for a
    case that does not pickle: it is kept as it is."""
    try:
        return pickle.dumps(case, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None


def item_name(case_id: str, benchmark: str, model: str, models: Sequence[str]) -> str:
    """`<id>[<benchmark>]`, or `<id>[<benchmark>-<model>]` when several models run; an
    id's control characters are shown as `\\xNN` (pytest prints node ids raw)."""
    return f"{terminal_text(case_id)}[{benchmark if len(models) == 1 else f'{benchmark}-{model}'}]"


def parse_item_name(
    name: str, benchmarks: Iterable[str], models: Sequence[str]
) -> tuple[str, str, str] | None:
    """(case id, benchmark, model) of a case item's name; None for any other name.

    The inverse of `item_name`, for items known only by their node id: those of a
    crashed xdist worker.
    """
    case_id, bracket, rest = name.rpartition("[")
    if not bracket or not rest.endswith("]"):
        return None
    for benchmark in benchmarks:
        for model in models:
            if name == item_name(case_id, benchmark, model, models):
                return case_id, benchmark, model
    return None


def _unique(name: str, taken: set[str]) -> str:
    """An item's name, numbered (`id[invalid-2]`) when the file already has it: two bad
    documents with one id, or two ids shown alike, are two items, each with its own
    node id."""
    shown, n = name, 1
    while shown in taken:
        n += 1
        stem, _, bracket = name.rpartition("[")
        shown = f"{stem}[{bracket[:-1]}-{n}]" if stem else f"{name}-{n}"
    taken.add(shown)
    return shown


def _error_name(error: CaseError) -> str:
    if error.line is None and error.case_id is None:
        return "file-error"
    if error.line is not None:
        return f"line-{error.line}[invalid]"
    return f"{terminal_text(error.case_id)}[invalid]"


#: The payload an item published, as its report carries it, until that report takes it.
PENDING_PAYLOAD = pytest.StashKey[dict[str, Any] | str]()


class BizbenchItem(pytest.Item):
    """Common ground of case and error items: the payload travels on the test report."""

    def publish(self, payload: DocumentPayload) -> None:
        """Hand the payload to the report of the phase that decides the outcome.

        Only that report carries it (setup's when setup fails, else call's; see the
        plugin's `pytest_runtest_makereport`), so each payload crosses from an
        xdist worker once.
        """
        # encoded here, so details JSON cannot hold fail while the item runs (NotJSON)
        self.stash[PENDING_PAYLOAD] = payload.travelling(as_text=is_worker(self.config))
        # a rerun (pytest-rerunfailures) publishes again: only the last attempt's count
        ours = set(OWN_PROPERTIES)
        self.user_properties[:] = [p for p in self.user_properties if p[0] not in ours]
        self.user_properties.extend(payload.properties())

    def take_payload(self) -> dict[str, Any] | str | None:
        """The published payload as its report carries it, once."""
        payload = self.stash.get(PENDING_PAYLOAD, None)
        if payload is not None:
            del self.stash[PENDING_PAYLOAD]
        return payload

    def repr_failure(
        self, excinfo: ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, CaseFailure):
            return excinfo.value.render()
        return super().repr_failure(excinfo, style=style)


class ErrorItem(BizbenchItem):
    """Stands for a file or case that cannot be scored; errors at setup."""

    def __init__(self, *, error: CaseError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def setup(self) -> None:
        error = self.error
        self.publish(
            DocumentPayload(
                status=ERROR,
                benchmark=None,
                model=None,
                id=error.case_id,
                case=self.error.path,
                case_hash=None,
                score=None,
                line=error.line,
                message=error.describe(),
            )
        )
        raise CaseLoadError(error.describe())

    def runtest(self) -> None:
        """Never reached: setup always raises."""

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.error.line - 1 if self.error.line else None
        return self.path, line, self.name


class CaseItem(BizbenchItem):
    """One case scored by one benchmark for one model."""

    def __init__(
        self,
        *,
        case: Case,
        benchmark: BenchmarkPlugin,
        model: str,
        packed: bytes | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._case: Case | bytes = case if packed is None else packed
        self.case_line = case.line
        self.case_min_score = case.min_score
        self.benchmark = benchmark
        self.model = model

    @property
    def case(self) -> Case:
        """The case, unpickled on each read (see `pack`): read it once per use."""
        kept = self._case
        if isinstance(kept, bytes):
            case: Case = pickle.loads(kept)
            return case
        return kept

    @case.setter
    def case(self, case: Case) -> None:
        """A case set by hand (a conftest's) is kept as it is."""
        self._case, self.case_line, self.case_min_score = case, case.line, case.min_score

    def evaluate(self) -> DocumentPayload:
        """Predict and score: in `runtest`, so --collect-only, --setup-only and
        --setup-plan call no model. The predict hook is asked through the item's
        own hook proxy, so a conftest answers for its own directory only."""
        state = run_state(self.config)
        hook = self.ihook.pytest_bizbench_predict
        predict = None
        if hook.get_hookimpls():

            def predict(case: Any, model: str) -> Any:
                return hook(case=case, model=model, config=self.config)

        cache_dir = state.settings.prediction_cache
        llm = state.llm
        if llm is not None and llm.serves(self.model):
            # an llm: model answers through the endpoint, whose client caches replies
            predict, cache_dir = llm.answer, None
        kind = self.parent.kind if isinstance(self.parent, CaseFile) else None
        assert kind is not None, "case items live in case files"
        payload = evaluate(
            kind,
            self.case,
            self.benchmark,
            self.model,
            source=self.parent.nodeid if self.parent else str(self.path),
            predictions=state.predictions,
            hook=predict,
            regex_timeout=state.settings.regex_timeout,
            cache=PredictionCache(cache_dir) if cache_dir else None,
            samples=SampleRule(self.pass_mark()[0], state.settings.qa.pass_at_k),
            cluster_by=state.settings.cluster_by,
        )
        if llm is not None:
            llm.stop_if_refused(self.session)
        return payload

    def pass_mark(self) -> tuple[float, str]:
        if self.case_min_score is not None:
            return self.case_min_score, "case min_score"
        configured = run_state(self.config).settings.min_score
        if configured is not None:
            return configured, "--bizbench-min-score"
        return self.benchmark.min_score, f"{self.benchmark.name} min_score"

    def runtest(self) -> None:
        payload = self.evaluate()
        try:
            self.publish(payload)
        except NotJSON as exc:
            payload = unholdable(payload, self.benchmark, exc)
            self.publish(payload)
        if payload.status == ERROR:
            raise BenchmarkCrash(payload.message)
        if payload.status == MISSING:
            raise MissingPrediction(payload.message)
        if payload.status == SKIPPED:  # in the call phase, so the item counts as run
            raise pytest.skip.Exception(payload.message, _use_item_location=True)
        mark, source = self.pass_mark()
        score = payload.score or 0.0
        if score < mark or unscored_fields(payload.details):
            flaky = flaky_message(payload.details)
            if flaky is not None and run_state(self.config).settings.flaky == "xfail":
                pytest.xfail(flaky)  # ini bizbench_flaky = xfail; still aggregated
            raise ScoreBelowPassMark(payload, mark, source)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.case_line - 1 if self.case_line else None
        return self.path, line, self.name
