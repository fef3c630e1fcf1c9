"""normalize, similarity and cosine: the text rungs' measures."""

from __future__ import annotations

import math

import pytest

from pytest_bizbench.scoring.text import cosine, normalize, similarity


def test_normalize_folds_case_width_ligatures_and_whitespace() -> None:
    assert normalize("  Acme\t\n  CORP  ") == "acme corp"
    assert normalize("ＡＣＭＥ") == "acme"  # full-width letters, NFKC
    assert normalize("\ufb01le") == "file"  # the "fi" ligature, NFKC
    assert normalize("Straße") == normalize("STRASSE") == "strasse"  # casefold, not lower
    assert normalize("a\u00a0b") == "a b"  # no-break space
    assert normalize("") == ""


def test_similarity_is_rapidfuzz_ratio_of_normalized_text() -> None:
    # indel ratio = 2 * LCS / (len a + len b); LCS("abcdefghij", "abcdefghik") = 9 -> 18/20
    assert similarity("abcdefghij", "abcdefghik") == 0.9
    # LCS("abcdefghi", "abcdefghj") = 8 -> 16/18
    assert similarity("abcdefghi", "abcdefghj") == pytest.approx(16 / 18)
    assert similarity("ACME  Corp", "acme corp") == 1.0
    assert similarity("abc", "xyz") == 0.0
    assert similarity("", "") == 1.0


def test_cosine() -> None:
    assert cosine([1.0, 0.0], [0.0, 2.0]) == 0.0
    assert cosine([1.0, 2.0], [2.0, 4.0]) == pytest.approx(1.0)
    assert cosine([1.0, 2.0], [-1.0, -2.0]) == pytest.approx(-1.0)
    # 3*4 + 4*3 = 24 over |(3,4)| * |(4,3)| = 25
    assert cosine([3.0, 4.0], [4.0, 3.0]) == pytest.approx(24 / 25)
    assert cosine([1.0, 1.0], [1.0, 0.0]) == pytest.approx(1 / math.sqrt(2))


def test_cosine_of_a_zero_vector_is_zero() -> None:
    assert cosine([0.0, 0.0], [1.0, 1.0]) == 0.0
    assert cosine([1.0, 1.0], [0.0, 0.0]) == 0.0
    assert cosine([], []) == 0.0


def test_cosine_rejects_vectors_of_different_lengths() -> None:
    with pytest.raises(ValueError, match="different lengths"):
        cosine([1.0, 0.0], [1.0, 0.0, 0.0])
