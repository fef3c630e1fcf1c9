"""Pairing list items the way a person pairs them, exactly and in bounded time.

The pairs follow one rule:

1. they maximise the total credit (six decimals);
2. among pairings of equal credit, the greatest total closeness wins (six decimals),
   so an identical copy comes before a neighbour inside the tolerance;
3. remaining ties go to the lowest indices: of the pairings best by 1 and 2, the one
   whose partners of expected items 0, 1, 2, ... read lowest, an unpaired item
   counting after every actual index. Expected item 0 gets the lowest actual index
   any best pairing gives it, item 1 the lowest left to it, and so on.

Rules 1 and 2 are one integer weight per pair, credit * BIG + closeness with BIG
above any total closeness, so one maximum of the weight is the lexicographic maximum
of (credit, closeness), with no float ties. It is found by shortest augmenting paths
(the Hungarian method in the sparse form of Jonker and Volgenant): expected items are
added one at a time, each by a Dijkstra search over the candidate pairs, with prices
(the dual) keeping the reduced costs non-negative. Every item has a private
"unpaired" option worth 0, so an item is paired only when that raises the weight.

Rule 3 needs no care in that search, because the final prices describe every best
pairing at once: a pairing is best exactly when all its pairs have reduced cost 0
and every actual item it leaves unpaired has price 0. So the expected items are
walked in order, and each moves to the lowest actual index it can reach by an
alternating cycle through such pairs that leaves the items before it in place. Which
of the best pairings the search happened to find never shows.

Cost: one search per expected item over the pairs it can reach, then a walk over the
pairs of reduced cost 0; a list of distinct items, each with a few candidates, costs
about its candidates.
"""

from __future__ import annotations

import heapq

Candidates = dict[int, tuple[float, float]]
"""An expected item's credited actual items: index -> (credit, closeness)."""

Offers = list[list[tuple[int, int]]]
"""Each row's (column, cost) pairs; row r's own "unpaired" column n_actual + r last."""

SCALE = 1_000_000
UNREACHED = 1 << 126  # above any distance
HUB = -1  # in the walk: any price-0 column, freed so that a free column can be taken


def pair_items(rows: list[Candidates], n_actual: int) -> list[tuple[int, int]]:
    """(expected index, actual index) pairs, sorted, by the rule of the module docstring."""
    big = SCALE * (min(len(rows), n_actual) + 1)
    ceiling = SCALE * big + SCALE  # above every weight, so every cost is >= 0
    offers: Offers = [
        [
            (j, ceiling - max(1, round(credit * SCALE)) * big - round(closeness * SCALE))
            for j, (credit, closeness) in row.items()
        ]
        + [(n_actual + r, ceiling)]
        if row
        else []
        for r, row in enumerate(rows)
    ]
    best = _BestPairing(offers, n_actual + len(rows))
    for r in range(len(rows)):
        best.add(r)
    _LowestIndices(best).walk()
    return sorted((r, j) for j, r in enumerate(best.owner[:n_actual]) if r >= 0)


class _BestPairing:
    """A pairing of the least total cost over the rows added so far, as each column's
    row (-1: none), with the prices that prove it: u per row, v per column (v <= 0,
    and 0 for a column left free), every reduced cost cost - u - v >= 0 and 0 on the
    pairs taken."""

    __slots__ = ("_key", "_way", "offers", "owner", "u", "v")

    def __init__(self, offers: Offers, columns: int) -> None:
        self.offers = offers
        self.owner = [-1] * columns
        self.u = [0] * len(offers)
        self.v = [0] * columns
        self._key = [UNREACHED] * columns  # a search's distance to each column
        self._way = [0] * columns  # the column whose row reached it (-1: the start)

    def add(self, start: int) -> None:
        """Pair row `start` too, by the cheapest change (a shortest augmenting path)."""
        row = self.offers[start]
        if not row:
            return
        # the search's first step: when the cheapest offer is free, the search ends
        # there with the prices unchanged; only the other rows need the whole search
        v = self.v
        dist, col = min((cost - v[col], col) for col, cost in row)
        if self.owner[col] < 0:
            self.owner[col] = start
            self.u[start] = dist
        else:
            self._augment(start)

    def _augment(self, start: int) -> None:
        """Dijkstra on reduced costs from row `start` to the nearest free column, then the
        columns settled before it lower their prices so that the path costs 0."""
        offers, owner, u, v = self.offers, self.owner, self.u, self.v
        key, way = self._key, self._way
        columns = len(v)
        heap: list[int] = []  # distance * columns + column: one int compares fastest
        settled: list[int] = []
        push, pop = heapq.heappush, heapq.heappop
        row, came, base = start, -1, 0
        while True:
            shift = base - u[row]
            for col, cost in offers[row]:
                dist = shift + cost - v[col]
                if dist < key[col]:  # never for a settled column: costs are >= 0
                    key[col] = dist
                    way[col] = came
                    push(heap, dist * columns + col)
            while True:
                dist, col = divmod(pop(heap), columns)
                if key[col] == dist:
                    break
            settled.append(col)
            holder = owner[col]
            if holder < 0:
                break
            row, came, base = holder, col, dist
        for held in settled:
            step = dist - key[held]
            if step:  # every column short of the end is held
                v[held] -= step
                u[owner[held]] += step
            key[held] = UNREACHED
        for entry in heap:  # the columns reached but not settled
            key[entry % columns] = UNREACHED
        u[start] += dist
        while col != -1:
            back = way[col]
            owner[col] = start if back == -1 else owner[back]
            col = back


class _LowestIndices:
    """Rule 3 on a best pairing and its prices: each row, in order, moves to the lowest
    column it can have in a best pairing that keeps the rows before it in place.

    A best pairing takes only tight pairs (reduced cost 0) and leaves free only columns
    of price 0, so two best pairings differ by alternating cycles of tight pairs, where
    a free column may close a cycle through HUB by freeing another price-0 column (two
    items traded for no change in weight). Row r can have a column j below its own c
    when such a cycle leads from j back to c: j's row moves on to another of its tight
    columns, that column's row too, and so on until one takes c."""

    __slots__ = ("fixed", "match", "owner", "spare", "tight", "v")

    def __init__(self, best: _BestPairing) -> None:
        self.owner, self.v = best.owner, best.v
        u, v = best.u, best.v
        self.tight = [
            sorted(col for col, cost in row if cost - u[r] == v[col])
            for r, row in enumerate(best.offers)
        ]
        self.match = [-1] * len(best.offers)
        for col, r in enumerate(self.owner):
            if r >= 0:
                self.match[r] = col
        self.fixed = [False] * len(best.offers)
        # the price-0 columns held by rows not yet fixed: where a cycle may go on from HUB
        self.spare = {col: None for col, r in enumerate(self.owner) if r >= 0 and v[col] == 0}

    def walk(self) -> None:
        owner, fixed = self.owner, self.fixed
        for r, columns in enumerate(self.tight):
            c = self.match[r]
            if c < 0:
                continue
            fixed[r] = True
            self.spare.pop(c, None)
            lower = [j for j in columns if j < c and (owner[j] < 0 or not fixed[owner[j]])]
            if lower:
                self._move_down(r, c, lower)

    def _move_down(self, r: int, c: int, lower: list[int]) -> None:
        """Give row r the lowest of `lower` from which a cycle leads back to its column c;
        nothing when none does. A depth-first search over columns, HUB included."""
        owner, fixed, tight = self.owner, self.fixed, self.tight
        dead: set[int] = set()  # columns (and HUB) from which c cannot be reached
        for j in lower:
            if j in dead:
                continue
            parent = {j: j}
            stack = [j]
            while stack:
                col = stack.pop()
                if col == HUB:
                    nexts = [*self.spare, c] if self.v[c] == 0 else list(self.spare)
                elif owner[col] < 0:
                    nexts = [HUB]
                else:
                    nexts = tight[owner[col]]
                for step in nexts:
                    if step in parent or step in dead:
                        continue
                    if step not in (c, HUB) and owner[step] >= 0 and fixed[owner[step]]:
                        continue
                    parent[step] = col
                    if step == c:
                        self._turn(r, j, c, parent)
                        return
                    stack.append(step)
            dead.update(parent)

    def _turn(self, r: int, j: int, c: int, parent: dict[int, int]) -> None:
        """Each column on the path j .. c goes to the row of the column before it (row r
        takes j); the column after HUB is left free, the free one before it taken."""
        owner, match, v, fixed, spare = self.owner, self.match, self.v, self.fixed, self.spare
        path = [c]
        while path[-1] != j:
            path.append(parent[path[-1]])
        carry = r
        for col in reversed(path):
            if col == HUB:
                continue
            carry, owner[col] = owner[col], carry
            row = owner[col]
            if row >= 0:
                match[row] = col
            if row >= 0 and not fixed[row] and v[col] == 0:
                spare[col] = None
            else:
                spare.pop(col, None)
