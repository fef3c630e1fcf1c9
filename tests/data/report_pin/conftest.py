"""A benchmark whose details need converting: int keys, Decimal, NaN, sets, a long list."""

import decimal
import math
from typing import ClassVar

from pytest_bizbench import BenchmarkPlugin, ScoredDocument


class Odd(BenchmarkPlugin):
    name = "odd"
    version = "1.0.0"
    description = "details that are not plain JSON"
    target_labels: ClassVar[list[str]] = ["odd"]

    def score(self, document):
        same = document.extracted_fields.get("k") == document.ground_truth["k"]
        details = {
            "k": {"score": float(same)},
            "by_int": {1: "one", 2: "two"},
            "amount": decimal.Decimal("12.50"),
            "nan": math.nan if not same else 0.0,
            "tags": {"b", "a"},
            "long": list(range(300)),
            "text": "x" * 600,
        }
        return ScoredDocument(document, float(same), details)


def pytest_bizbench_add_benchmarks(config):
    return [Odd()]
