"""Pairing list items the way a person pairs them, exactly and in bounded time.

The pairs maximise the total credit; among pairings of equal credit, the one with
the greatest total closeness wins (an identical copy before a neighbour inside the
tolerance). Both are compared at six decimals, as exact integers: a pair weighs
credit * BIG + closeness with BIG above any total closeness, so one maximum of the
weight is the lexicographic maximum of (credit, closeness), with no float ties.

The solver is the shortest augmenting path method (Hungarian, in the sparse
form of Jonker and Volgenant): expected items are added in order, each by one
Dijkstra search over the candidate pairs only, with potentials keeping the
reduced costs non-negative. Every item has a private "unpaired" option worth 0,
so an item is paired only when that raises the weight. Remaining ties are settled
by the search: among paths of equal weight it takes the one that moves the fewest
earlier items (an earlier item keeps its partner unless moving it raises the
weight), then the one it reaches first: the lowest actual index at its end, and
along it the order the search's potentials give. So the lowest expected item does
not always get the lowest actual one among equals: 281, 282, 283 against 282, 283,
284 pairs 281 with 283, since 283 taking its copy would move two earlier items for
the same total. That order is a function of the lists alone, so the pairs do not
depend on what is installed; a search visiting other items, or the same ones in
another order, can pick another of the equal pairings.

Cost: one search per expected item over the pairs it can reach; a list of
distinct items, each with a few candidates, costs about its candidates.
"""

from __future__ import annotations

import heapq

Candidates = dict[int, tuple[float, float]]
"""An expected item's credited actual items: index -> (credit, closeness)."""

SCALE = 1_000_000
DEPTH_BITS = 32  # a search moves fewer than 2**32 rows
DEPTH_MASK = (1 << DEPTH_BITS) - 1


def pair_items(rows: list[Candidates], n_actual: int) -> list[tuple[int, int]]:
    """(expected index, actual index) pairs, sorted, by the rule of the module docstring."""
    big = SCALE * (min(len(rows), n_actual) + 1)
    ceiling = SCALE * big + SCALE  # above every weight, so every cost is >= 0
    # each row's offers as (column, cost), its own "unpaired" column n_actual + r last
    offers: list[list[tuple[int, int]]] = [
        [
            (j, ceiling - (max(1, round(credit * SCALE)) * big + round(closeness * SCALE)))
            for j, (credit, closeness) in row.items()
        ]
        + [(n_actual + r, ceiling)]
        for r, row in enumerate(rows)
    ]
    v = [0] * (n_actual + len(rows))  # column potentials
    u = [0] * len(rows)
    owner: dict[int, int] = {}  # column -> the row holding it
    for start, row in enumerate(rows):
        if not row:
            continue
        # the search's first step: when the cheapest offer is free, the search would end
        # there, potentials unchanged; only the other rows need the whole search
        dist, col = min((cost - v[col], col) for col, cost in offers[start])
        if col not in owner:
            owner[col] = start
            u[start] = dist
        else:
            _augment(start, offers, u, v, owner)
    return sorted((r, j) for j, r in owner.items() if j < n_actual)


def _augment(
    start: int,
    offers: list[list[tuple[int, int]]],
    u: list[int],
    v: list[int],
    owner: dict[int, int],
) -> None:
    """Add row `start` by one shortest augmenting path (Dijkstra on reduced costs).

    A column's key is its distance then its depth (rows moved to reach it), as one
    integer: distance << DEPTH_BITS | depth, so the heap compares plain integers."""
    heap: list[tuple[int, int]] = []
    best: dict[int, int] = {}  # column -> key pushed
    way: dict[int, int] = {}  # column -> the column whose row reached it (-1: the start)
    done: dict[int, int] = {}  # finalized column -> its distance
    push, pop = heapq.heappush, heapq.heappop
    row, came, base, depth = start, -1, 0, 0
    while True:
        depth += 1
        shift = base - u[row]
        for col, cost in offers[row]:
            if col in done:
                continue
            key = (shift + cost - v[col]) << DEPTH_BITS | depth
            known = best.get(col)
            if known is None or key < known:
                best[col] = key
                way[col] = came
                push(heap, (key, col))
        while True:
            key, col = pop(heap)
            if col not in done and best[col] == key:
                break
        dist = key >> DEPTH_BITS
        done[col] = dist
        holder = owner.get(col)
        if holder is None:
            break
        row, came, base, depth = holder, col, dist, key & DEPTH_MASK
    for col, at in done.items():
        step = dist - at
        if step:  # every column short of the end is held
            v[col] -= step
            u[owner[col]] += step
    u[start] += dist
    end = col
    while end != -1:
        back = way[end]
        owner[end] = start if back == -1 else owner[back]
        end = back
