"""Pairing list items the way a person pairs them, exactly and in bounded time.

The pairs follow one rule:

1. they maximise the total credit (six decimals; a candidate's credit counts at least
   one millionth, so a pair is always worth more than no pair);
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

The search may run from either side, as both solve one linear programme and their
prices carry over: it runs from the side with fewer items that have a candidate,
since every search that ends by leaving its item unpaired walks all it can reach,
and there are as many of those as items searched from that stay unpaired (both sides
hold the same number of pairs). Items are added cheapest best offer first, so the
identical copies take their partners before the near misses search among them.

Cost: one search per item over the pairs it can reach, then a walk over the pairs of
reduced cost 0; a list of distinct items, each with a few candidates, costs about its
candidates.
"""

from __future__ import annotations

import heapq
from collections import deque

Candidates = dict[int, tuple[float, float]]
"""An expected item's credited actual items: index -> (credit, closeness)."""

Offers = list[tuple[list[int], list[int]]]
"""Each row's columns and, beside them, their costs (two lists: a search reads one
row's costs together, and memory reads in order cost less); row r's own "unpaired"
column, after every other side's item, last."""

SCALE = 1_000_000
DEPTH_BITS = 32  # a search moves fewer than 2**32 rows
DEPTH_MASK = (1 << DEPTH_BITS) - 1
DISTANCE = ~DEPTH_MASK  # a key's distance part
UNREACHED = 1 << 160  # above any key
HUB = -1  # in the walk: any price-0 column, freed so that a free column can be taken


class OverBudget(Exception):
    """The best pairing would take more than its work budget (`max_steps`)."""


def pair_items(
    rows: list[Candidates], n_actual: int, max_steps: int | None = None
) -> list[tuple[int, int]]:
    """(expected index, actual index) pairs, sorted, by the rule of the module docstring.

    `max_steps` bounds the work: offers read by the searches and pairs walked for the
    ties. Past it, OverBudget (`pair_greedily` is the cheap way out)."""
    steps = _Steps(max_steps)
    big = SCALE * (min(len(rows), n_actual) + 1)
    # above every weight, so every cost is >= 0; costs and prices count in units of
    # 1 << DEPTH_BITS, so that a search's key is a distance plus a depth
    ceiling = (SCALE * big + SCALE) << DEPTH_BITS

    def offers(side: list[Candidates], others: int) -> Offers:
        return [
            (
                [*row, others + r],
                [
                    ceiling
                    - ((round(credit * SCALE) or 1) * big + round(closeness * SCALE) << DEPTH_BITS)
                    for credit, closeness in row.values()
                ]
                + [ceiling],
            )
            if row
            else ([], [])
            for r, row in enumerate(side)
        ]

    if len(set().union(*rows)) < sum(1 for row in rows if row):
        columns: list[Candidates] = [{} for _ in range(n_actual)]
        for r, row in enumerate(rows):
            for j, pair in row.items():
                columns[j][r] = pair
        solved = _BestPairing(offers(columns, len(rows)), len(rows) + n_actual, steps)
        walk = _LowestIndices.searched_from_the_actual_side(solved, ceiling)
    else:
        solved = _BestPairing(offers(rows, n_actual), n_actual + len(rows), steps)
        walk = _LowestIndices.searched_from_the_expected_side(solved)
    walk.walk(steps)
    return sorted((r, j) for j, r in enumerate(walk.owner[:n_actual]) if r >= 0)


def pair_greedily(rows: list[Candidates], n_actual: int) -> list[tuple[int, int]]:
    """Each expected item in order takes its best candidate left (most credit, then
    closeness, then the lowest index): one pass over the pairs, for a list whose best
    pairing is over its budget. Not the rule's pairing, only a fair one."""
    taken = bytearray(n_actual)
    pairs = []
    for r, row in enumerate(rows):
        free = [(credit, closeness, -j) for j, (credit, closeness) in row.items() if not taken[j]]
        if free:
            j = -max(free)[2]
            taken[j] = 1
            pairs.append((r, j))
    return pairs


class _Steps:
    """The work left to a pairing; None: no bound."""

    __slots__ = ("left",)

    def __init__(self, budget: int | None) -> None:
        self.left = budget

    def take(self, n: int) -> None:
        if self.left is not None:
            self.left -= n
            if self.left < 0:
                raise OverBudget


class _BestPairing:
    """A pairing of the least total cost over the rows added so far, as each column's
    row (-1: none), with the prices that prove it: u per row, v per column (v <= 0,
    and 0 for a column left free), every reduced cost cost - u - v >= 0 and 0 on the
    pairs taken."""

    __slots__ = ("_known", "_steps", "_way", "offers", "owner", "u", "v")

    def __init__(self, offers: Offers, columns: int, steps: _Steps) -> None:
        self.offers = offers
        self._steps = steps
        self.owner = [-1] * columns
        self.u = [0] * len(offers)
        self.v = [0] * columns
        # a search's key for each column (distance plus depth) plus the column's price,
        # the part of it that a row's scan computes
        self._known = [UNREACHED] * columns
        self._way = [0] * columns  # the column whose row reached it (-1: the start)
        best_offer = [min(costs) if costs else 0 for _, costs in offers]
        for r in sorted(range(len(offers)), key=best_offer.__getitem__):
            self.add(r)

    def add(self, start: int) -> None:
        """Pair row `start` too, by the cheapest change (a shortest augmenting path)."""
        cols, costs = self.offers[start]
        if not cols:
            return
        # the search's first step: when a cheapest offer is free, the search ends there
        # with the prices unchanged; only the other rows need the whole search
        owner, v = self.owner, self.v
        dist, taken, col = min(
            (cost - v[col], owner[col] >= 0, col) for col, cost in zip(cols, costs, strict=True)
        )
        if taken:
            self._augment(start)
        else:
            owner[col] = start
            self.u[start] = dist

    def _augment(self, start: int) -> None:
        """Dijkstra on reduced costs from row `start` to the nearest free column, then the
        columns settled before it lower their prices so that the path costs 0.

        Among columns of equal distance the search goes shallow first (a key is the
        distance plus the rows moved, below the distance's unit), and
        a free column reached at the distance being settled ends it at once: in a list
        of equal items a search then stops next to its start instead of walking through
        every row paired before it."""
        offers, owner, u, v = self.offers, self.owner, self.u, self.v
        known, way, take = self._known, self._way, self._steps.take
        heap: list[tuple[int, int]] = []
        settled: list[int] = []
        push, pop = heapq.heappush, heapq.heappop
        row, came, base, depth = start, -1, 0, 1
        end = -1
        while end < 0:
            near = base + depth  # the key of a column at the distance being settled
            offset = near - u[row]
            cols, costs = offers[row]
            take(len(cols))
            for col, cost in zip(cols, costs, strict=True):
                found = offset + cost  # the key this offer gives col, plus col's price
                if found < known[col]:  # never for a settled column: costs are >= 0
                    known[col] = found
                    way[col] = came
                    reach = found - v[col]
                    if reach == near and owner[col] < 0:  # no column is nearer
                        end = col
                        break
                    push(heap, (reach, col))
            else:
                while True:
                    reach, col = pop(heap)
                    if known[col] - v[col] == reach:
                        break
                settled.append(col)
                base = reach & DISTANCE
                if owner[col] < 0:
                    end = col
                else:
                    row, came, depth = owner[col], col, (reach & DEPTH_MASK) + 1
        for held in settled:
            step = base - ((known[held] - v[held]) & DISTANCE)
            if step:  # every column short of the end is held
                v[held] -= step
                u[owner[held]] += step
            known[held] = UNREACHED
        for _, reached in heap:  # the columns reached but not settled
            known[reached] = UNREACHED
        known[end] = UNREACHED
        u[start] += base
        while end != -1:
            back = way[end]
            owner[end] = start if back == -1 else owner[back]
            end = back


class _LowestIndices:
    """Rule 3 on a best pairing and its prices: each row, in order, moves to the lowest
    column it can have in a best pairing that keeps the rows before it in place.

    A best pairing takes only tight pairs (reduced cost 0) and leaves free only columns
    of price 0, so two best pairings differ by alternating cycles of tight pairs, where
    a free column may close a cycle through HUB by freeing another price-0 column (two
    items traded for no change in weight). Row r can have a column j below its own c
    when such a cycle leads from j back to c: j's row moves on to another of its tight
    columns, that column's row too, and so on until one takes c."""

    __slots__ = ("_steps", "fixed", "hub", "into", "match", "owner", "spare", "tight", "v")

    def __init__(self, owner: list[int], v: list[int], tight: list[list[int]]) -> None:
        self.owner, self.v, self.tight = owner, v, tight
        self.match = [-1] * len(tight)
        for col, r in enumerate(self.owner):
            if r >= 0:
                self.match[r] = col
        self.into: list[list[int]] = [[] for _ in self.owner]  # each column's tight rows
        for r, columns in enumerate(self.tight):
            for col in columns:
                self.into[col].append(r)
        self.fixed = [False] * len(tight)
        # the price-0 columns held by rows not yet fixed: where a cycle may go on from HUB
        self.spare = {col: None for col, r in enumerate(self.owner) if r >= 0 and v[col] == 0}
        # no cycle passes HUB when no free column has a tight pair: then none ever does
        self.hub = any(r < 0 and self.into[col] for col, r in enumerate(self.owner))

    @classmethod
    def searched_from_the_expected_side(cls, best: _BestPairing) -> _LowestIndices:
        """The walk over the tight pairs of a pairing searched from the expected items."""
        u, v = best.u, best.v
        tight = [
            sorted(col for col, cost in zip(*row, strict=True) if cost - u[r] == v[col])
            for r, row in enumerate(best.offers)
        ]
        return cls(best.owner, v, tight)

    @classmethod
    def searched_from_the_actual_side(cls, flipped: _BestPairing, ceiling: int) -> _LowestIndices:
        """The same for a pairing searched from the actual items, whose rows are our
        columns. An expected item's price is its column price there plus `ceiling`, an
        actual item's its row price there less `ceiling` (its own "unpaired" column
        keeps price 0 there: only its row reaches it, so no search passes through it).
        That keeps every reduced cost and gives price 0 to the actual items left free."""
        n_actual, n_expected = len(flipped.offers), len(flipped.owner) - len(flipped.offers)
        owner = [-1] * (n_actual + n_expected)
        v = [0] * (n_actual + n_expected)
        tight: list[list[int]] = [[] for _ in range(n_expected)]
        offered = bytearray(n_expected)
        u_flipped, v_flipped = flipped.u, flipped.v
        for j, (row_cols, row_costs) in enumerate(flipped.offers):
            if row_cols:
                v[j] = u_flipped[j] - ceiling
                for r, cost in zip(row_cols[:-1], row_costs[:-1], strict=True):
                    offered[r] = 1
                    if cost - u_flipped[j] == v_flipped[r]:
                        tight[r].append(j)
        for r, j in enumerate(flipped.owner[:n_expected]):
            if offered[r]:  # its "unpaired" column: price 0, tight when its price here is 0
                if v_flipped[r] == 0:
                    tight[r].append(n_actual + r)
                owner[j if j >= 0 else n_actual + r] = r
        return cls(owner, v, tight)

    def walk(self, steps: _Steps) -> None:
        """Fix the rows in order, each at the lowest column a cycle can give it."""
        self._steps = steps
        owner, fixed = self.owner, self.fixed
        for r, columns in enumerate(self.tight):
            c = self.match[r]
            if c < 0:
                continue
            fixed[r] = True
            self.spare.pop(c, None)
            lower = [j for j in columns if j < c and (owner[j] < 0 or not fixed[owner[j]])]
            # a cycle ends with a row still free to move taking c, or with c left free
            closes = (self.hub and self.v[c] == 0) or any(not fixed[s] for s in self.into[c])
            if lower and closes:
                self._move_down(r, c, lower)

    def _move_down(self, r: int, c: int, lower: list[int]) -> None:
        """Give row r the lowest of `lower` from which a cycle leads back to its column c;
        nothing when none does. A breadth-first search over columns, HUB included, so
        that the short cycles, the usual ones, are found before long ones are walked."""
        owner, fixed, tight = self.owner, self.fixed, self.tight
        dead: set[int] = set()  # columns (and HUB) from which c cannot be reached
        after_hub: list[int] | None = None  # worked out the first time HUB is reached
        for j in lower:
            if j in dead:
                continue
            parent = {j: j}
            queue = deque([j])
            while queue:
                col = queue.popleft()
                if col == HUB:
                    if after_hub is None:
                        after_hub = self._spare_toward(c)
                    nexts = after_hub
                elif owner[col] < 0:
                    nexts = [HUB]
                else:
                    nexts = tight[owner[col]]
                self._steps.take(len(nexts) + 1)
                for step in nexts:
                    if step in parent or step in dead:
                        continue
                    if step not in (c, HUB) and owner[step] >= 0 and fixed[owner[step]]:
                        continue
                    parent[step] = col
                    if step == c:
                        self._turn(r, j, c, parent)
                        return
                    queue.append(step)
            dead.update(parent)

    def _spare_toward(self, c: int) -> list[int]:
        """Where a cycle goes on from HUB: the spare columns from which c can be reached
        (found backwards from c over the rows still free to move), and c itself when its
        price is 0; the rest of the spare ones would only be walked in vain."""
        match, fixed, into = self.match, self.fixed, self.into
        toward = {c: None}
        queue = deque([c])
        while queue:
            col = queue.popleft()
            for r in into[col]:
                held = match[r]
                if not fixed[r] and held not in toward:
                    toward[held] = None
                    queue.append(held)
        found = [col for col in toward if col in self.spare]
        return [*found, c] if self.v[c] == 0 else found

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
