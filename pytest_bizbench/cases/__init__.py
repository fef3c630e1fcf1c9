"""Case files in, validated cases or located errors out: the loading layer that
collection builds items from. It imports no pytest, so it can be tested and
reused (`bizbench validate`) on its own."""

from .ground_truth import load_ground_truth
from .jsonio import MAX_DEPTH, InputError, iter_jsonl, parse_json, read_text
from .model import CaseError, GroundTruthCase, content_hash

__all__ = [
    "MAX_DEPTH",
    "CaseError",
    "GroundTruthCase",
    "InputError",
    "content_hash",
    "iter_jsonl",
    "load_ground_truth",
    "parse_json",
    "read_text",
]
