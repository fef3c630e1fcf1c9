"""Built-in benchmarks."""

from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy

__all__ = ["FieldAccuracy"]
