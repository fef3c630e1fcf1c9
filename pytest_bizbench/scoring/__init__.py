"""The field ladder and the parsers it stands on (SPEC §5.1): pure data in, plain data out."""

from pytest_bizbench.scoring.ladder import Embedder, FieldLadder, JudgeFn, LadderConfig

__all__ = ["Embedder", "FieldLadder", "JudgeFn", "LadderConfig"]
