"""An on-disk cache of live predictions, so a re-run does not pay for the same calls again.

Ini `bizbench_prediction_cache = DIR`. An entry is keyed by the model name and the
case's content hash: a changed case is asked again, an unchanged one is not. The
system itself is not part of the key, so name each system version as its own
model, or empty the directory, when the system or its prompt (`bizbench_open_book`)
changes. Only answers are kept (not None, not a hook that raised), with the latency
of the call that produced them, which a cached document reports as its own.
Entries are written atomically, so xdist workers can share one directory.
The endpoint client (`llm/client.py`) keeps its replies here too, keyed by request.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_bizbench.io.files import UnsafeInputError, read_regular

MAX_ENTRY_BYTES = 64 * 1024 * 1024  # an entry larger than any answer is not ours


@dataclass(frozen=True, slots=True)
class CachedPrediction:
    prediction: Any
    latency_ms: float | None


@dataclass(frozen=True, slots=True)
class PredictionCache:
    root: Path

    def _path(self, model: str, case_hash: str) -> Path:
        key = hashlib.sha256(json.dumps([model, case_hash]).encode()).hexdigest()[:32]
        return self.root / f"{key}.json"

    def get(self, model: str, case_hash: str) -> CachedPrediction | None:
        """The cached prediction, or None when absent or unreadable (then asked again)."""
        try:
            data = read_regular(self._path(model, case_hash), MAX_ENTRY_BYTES, "a cache entry")
            entry = json.loads(data.decode("utf-8"))
        except (UnsafeInputError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("model") != model or "prediction" not in entry:
            return None
        return CachedPrediction(entry["prediction"], _latency(entry.get("latency_ms")))

    def put(
        self, model: str, case_id: str, case_hash: str, prediction: Any, latency_ms: float
    ) -> None:
        """Store a prediction; one that is not JSON, or a directory that cannot be
        written, is left uncached (the run goes on)."""
        entry = {
            "model": model,
            "case_id": case_id,
            "case_hash": case_hash,
            "prediction": prediction,
            "latency_ms": latency_ms,
        }
        try:  # ASCII: a lone surrogate from a hook's answer is kept as its JSON escape
            text = json.dumps(entry, allow_nan=False)
        except (TypeError, ValueError):
            return
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".entry.", suffix=".tmp", dir=self.root)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, self._path(model, case_hash))
        except OSError:
            Path(tmp).unlink(missing_ok=True)


def _latency(value: Any) -> float | None:
    """A cached latency as a finite float, else none: an edited entry's NaN, or an
    integer beyond a float, would make the report unwritable."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        latency = float(value)
    except OverflowError:
        return None
    return latency if math.isfinite(latency) else None
