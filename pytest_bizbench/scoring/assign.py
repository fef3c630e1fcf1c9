"""One-to-one pairing of list items: the assignment that maximises the summed item score.

One algorithm, Kuhn-Munkres with potentials (shortest augmenting paths, lowest column
first on ties), in two spellings that do the same float operations in the same order:
plain Python, and with each row's scan over the columns done by numpy when it is
installed (the `fast` extra). Keeping the algorithm, rather than switching to another
solver, keeps which of several equally good pairings is chosen: a list's `matched`,
`missed` and `hallucinated` details do not depend on what is installed.
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

Row = dict[int, float]
"""An expected item's positive scores by actual item index (zero scores left out)."""


@cache
def numpy_module() -> ModuleType | None:
    """numpy when installed, imported on first use so start-up does not pay for it."""
    try:
        import numpy
    except ImportError:  # pragma: no cover - exercised where the extra is missing
        return None
    return numpy


Solver = Callable[[list[list[float]]], list[tuple[int, int]]]
NUMPY_CELLS = 64  # the matrix size (rows x columns) from which numpy pays for itself


def assign(
    rows: list[Row], n_cols: int, solver: Solver | None = None
) -> list[tuple[int, int, float]]:
    """(row, column, score) pairs maximising the summed score, sorted; zero pairs dropped.

    Rows and columns that score 0 everywhere are left out first: they cannot add
    credit and would only lengthen the search. When one pairing alone reaches the
    highest total (`_only_optimum`: every row's best column, ties resolved where
    only one way is open) it is the answer, with no search. A matrix of 0s and 1s
    (the cheap rungs' scores, free text aside) goes to `kuhn_munkres_unit`, anything
    else to the numpy spelling when numpy is installed; `solver` forces one dense
    solver and no shortcut: the search as before the bulk path.
    """
    del n_cols  # the columns that matter are the ones some row scores
    live_rows = [i for i, row in enumerate(rows) if row]
    live_cols = sorted({j for i in live_rows for j in rows[i]})
    if not live_cols:
        return []
    if solver is None and (forced := _only_optimum(rows, live_rows)) is not None:
        return forced
    flip = len(live_rows) > len(live_cols)
    outer, inner = (live_cols, live_rows) if flip else (live_rows, live_cols)
    position = {key: k for k, key in enumerate(inner)}
    if flip:
        sparse: list[Row] = [{} for _ in outer]
        slot = {j: k for k, j in enumerate(outer)}
        for r, i in enumerate(live_rows):
            for j, score in rows[i].items():
                sparse[slot[j]][r] = score
    else:
        sparse = [{position[j]: score for j, score in rows[i].items()} for i in outer]
    found = _solve(sparse, len(inner), solver)
    pairs = [(inner[c], outer[r]) if flip else (outer[r], inner[c]) for r, c in found]
    return sorted((i, j, rows[i][j]) for i, j in pairs if rows[i].get(j, 0.0) > 0.0)


# How far the pairing must beat any other. Item scores are in (0, 1]; there the
# search's rounding cannot make totals this far apart equal.
MARGIN = 1e-9


def _only_optimum(rows: list[Row], live: list[int]) -> list[tuple[int, int, float]] | None:
    """The pairing, when one pairing alone reaches the highest total; else None.

    Each row takes a best column; a row whose best is tied takes the one that no
    other row holds as its only best. The pairing is then proved the only optimum
    by prices, the assignment problem's dual: a row's price u and a column's raise
    v >= 0 with u + v equal to the score on each pair and above every other score
    of the row (a missing one is 0) by more than `MARGIN`. Any other pairing uses
    some other (row, column), so its total is lower by more than `MARGIN`, and the
    search, whatever its tie rule, returns this one. A column gets a raise, half its
    row's lead, where another row ties into it; rows without ties need none (a list
    of distinct items, each matching its own counterpart best, is the common case).
    Checked against the search for scores in (0, 1], the ones items get.
    """
    tops = {}  # each row's best columns, ties within the margin
    needed: dict[int, int] = {}  # a column -> the row whose only best it is
    for i in live:
        top = max(rows[i].values())
        tops[i] = [j for j, score in rows[i].items() if score >= top - MARGIN]
        if len(tops[i]) == 1:
            if tops[i][0] in needed:
                return None
            needed[tops[i][0]] = i
    pick: dict[int, int] = {}  # row -> column
    for i in live:
        free = [j for j in tops[i] if needed.get(j, i) == i]
        if len(free) != 1:
            return None
        pick[i] = free[0]
    owner = {j: i for i, j in pick.items()}
    if len(owner) != len(pick):  # two tied rows took one column
        return None
    raises: dict[int, float] = {}  # a column another row ties into -> half its row's lead
    for i in live:
        for j in tops[i]:
            if j == pick[i] or j in raises:
                continue
            k = owner.get(j)
            if k is None:  # a tie to a column nobody takes
                return None
            lead = rows[k][j] - max((s for c, s in rows[k].items() if c != j), default=0.0)
            if not (lead > 2 * MARGIN):
                return None
            raises[j] = lead / 2
    pairs = []
    for i in live:
        j = pick[i]
        price = rows[i][j] - raises.get(j, 0.0)
        if not (price > MARGIN):  # every column the row does not score (0) stays below
            return None
        for c, score in rows[i].items():
            if c != j and not (price + raises.get(c, 0.0) - score > MARGIN):  # NaN refuses
                return None
        pairs.append((i, j, rows[i][j]))
    return pairs


def _solve(sparse: list[Row], cols: int, solver: Solver | None) -> list[tuple[int, int]]:
    if solver is None and all(score == 1.0 for row in sparse for score in row.values()):
        return kuhn_munkres_unit([sorted(row) for row in sparse], cols)
    # below NUMPY_CELLS, numpy's per-call overhead costs more than the loops it saves
    np = numpy_module() if solver is None and len(sparse) * cols >= NUMPY_CELLS else None
    if np is not None:
        scores = np.zeros((len(sparse), cols))
        for r, row in enumerate(sparse):
            scores[r, list(row)] = list(row.values())
        return kuhn_munkres_numpy(np, scores)
    dense = [[row.get(j, 0.0) for j in range(cols)] for row in sparse]
    return (solver or kuhn_munkres)(dense)


def kuhn_munkres_unit(ones: list[list[int]], cols: int) -> list[tuple[int, int]]:
    """`kuhn_munkres` on a 0/1 matrix given as each row's columns holding a 1, in time
    that follows the 1s and the search's steps rather than rows * columns per step.

    The same search, step for step, kept in closed form. Costs are 0 and 1, so every
    potential and slack is a whole number and reordering their sums changes nothing.
    Within one row's search, with D the distance reached so far, a visited row r at
    distance D_r offers each column j a key c_rj - u_r + D_r - v_j (its reduced cost
    plus D_r); the slack of j is its least key less D. Off the 1s, that is
    B - v_j with B the least 1 - u_r + D_r over the visited rows, so the best column
    off the 1s is the unused one with the highest v, lowest index first (columns kept
    grouped by v); on the 1s a heap holds E_j - v_j, E_j the least key a 1 gave. A
    column's `way` is the first visit giving its least key, as the loop's strict `<`
    keeps. Potentials move at the end of the search by D_final - D_visit.

    Most searches end at distance 0 and move no potential: `_TightSearch` finds their
    path over blocks of identical columns rather than column by column; a search that
    must go further is run again in full by `_unit_search`. A free column is never used
    by a search, so its v stays 0, and `unowned` (lowest first) holds every one.
    """
    u = [0] * (len(ones) + 1)
    v = [0] * (cols + 1)
    owner = [0] * (cols + 1)
    groups: dict[int, list[int]] = {0: list(range(1, cols + 1))}
    unowned = list(range(1, cols + 1))  # a heap of the free columns (owned ones go lazily)
    blocks = _Blocks.of(ones, cols)
    members = blocks.members
    for i in range(1, len(ones) + 1):
        owner[0] = i
        while owner[unowned[0]]:
            heapq.heappop(unowned)
        found = _TightSearch(blocks, u, owner, groups, unowned[0]).run()
        if found is None:
            distance, used_at, way, free = _unit_search(blocks, u, v, owner, groups)
            for col, at in used_at.items():
                step = distance - at
                u[owner[col]] += step
                if col and step:
                    block = blocks.block_of_column[col]
                    for group in (groups, members[block]):
                        group[v[col]].remove(col)
                        if not group[v[col]]:
                            del group[v[col]]
                    v[col] -= step
                    for group in (groups, members[block]):
                        bisect.insort(group.setdefault(v[col], []), col)
        else:
            way, free = found
        j0 = free
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return [(owner[j] - 1, j - 1) for j in range(1, cols + 1) if owner[j]]


@dataclass(frozen=True, slots=True)
class _Blocks:
    """Columns with the same rows of 1s form a block (equal numbers or dates give the same
    column many times); a row's 1s are whole blocks, so rows with the same 1s share a kind.
    """

    ones: list[list[int]]  # each row's columns holding a 1
    block_of_column: list[int]  # 1-based column -> block
    kind_of_row: list[int]  # 1-based row -> kind
    blocks_of_kind: list[tuple[int, ...]]  # kind -> the blocks holding its 1s
    mask_of_kind: list[int]  # kind -> the same blocks as bits, to skip opened ones at once
    members: list[dict[int, list[int]]]  # block -> v -> its columns with that v, sorted

    @classmethod
    def of(cls, ones: list[list[int]], cols: int) -> _Blocks:
        rows_of_column: list[list[int]] = [[] for _ in range(cols + 1)]
        for r, row in enumerate(ones):
            for c in row:
                rows_of_column[c + 1].append(r)
        block_ids: dict[tuple[int, ...], int] = {}
        block_of_column = [-1] + [
            block_ids.setdefault(tuple(rows), len(block_ids)) for rows in rows_of_column[1:]
        ]
        members: list[dict[int, list[int]]] = [{} for _ in block_ids]
        for col in range(1, cols + 1):
            members[block_of_column[col]].setdefault(0, []).append(col)
        kind_ids: dict[tuple[int, ...], int] = {}
        kind_of_row = [-1] + [
            kind_ids.setdefault(tuple(sorted({block_of_column[c + 1] for c in row})), len(kind_ids))
            for row in ones
        ]
        masks = [sum(1 << block for block in kind) for kind in kind_ids]
        return cls(ones, block_of_column, kind_of_row, list(kind_ids), masks, members)


class _TightSearch:
    """The search of `_unit_search` for one row while it stays at distance 0.

    At distance 0 the search takes the lowest unused column of key 0 (a tight column)
    and visits its owner. Visiting a row whose kind and potential were visited before
    offers nothing new, so such steps are skipped without changing what follows, and
    the columns a visit makes tight come in whole sets: a block's columns with one v
    (on the row's 1s, v = -u) or, off the 1s, every column with v = 1 - u when that
    lowers B. A heap holds each set's lowest column not yet passed; sets are numbered
    in the order of the visits that opened them, so on equal columns the first visit
    to make a column tight gives its way, as in the full search.

    Every free column has v = 0, so once the columns with v = 0 are open (a visited
    row has u = 1) the search ends at the lowest free column, `lowest_free`, whatever
    it visits in between; its way is the opener of the first set holding it: that
    set, or its block's set at v = 0 when one was opened first. Walking there column
    by column visited every owner of a lower column first.
    """

    __slots__ = (
        "blocks", "cursor", "groups", "heap", "lowest_free", "opened", "opened_by", "opener",
        "owner", "sets", "u", "visited",
    )  # fmt: skip

    def __init__(
        self,
        blocks: _Blocks,
        u: list[int],
        owner: list[int],
        groups: dict[int, list[int]],
        lowest_free: int,
    ) -> None:
        self.blocks, self.u, self.owner, self.groups = blocks, u, owner, groups
        self.lowest_free = lowest_free
        self.sets: list[list[int]] = []
        self.opener: list[int] = []  # set -> the column whose owner's visit opened it
        self.cursor: list[int] = []  # set -> the position of its column in the heap
        self.heap: list[tuple[int, int]] = []
        self.visited: set[int] = set()  # kind + kinds * u of the rows visited
        self.opened: dict[int, int] = {}  # u -> the blocks whose sets at v = -u are open
        self.opened_by: dict[int, int] = {}  # a block opened at u = 0 -> the column doing so

    def run(self) -> tuple[dict[int, int], int] | None:
        """(each path column's way, the free column found), or None when no free
        column is reached at distance 0."""
        blocks, owner, u, groups = self.blocks, self.owner, self.u, self.groups
        kind_of_row, mask_of_kind, members = blocks.kind_of_row, blocks.mask_of_kind, blocks.members
        kinds = len(mask_of_kind)
        sets, opener, cursor, heap = self.sets, self.opener, self.cursor, self.heap
        visited, opened, opened_by = self.visited, self.opened, self.opened_by
        way: dict[int, int] = {}
        col, best = 0, 2  # the root, owned by the row searched for; B above every 1 - u
        pops = self._pops()
        while True:
            row = owner[col]
            level, kind = u[row], kind_of_row[row]
            visited.add(kind + kinds * level)
            found = []
            before = opened.get(level, 0)
            if new := mask_of_kind[kind] & ~before:
                opened[level] = before | new
                while new:  # lowest block first, as the kind lists them
                    bit = new & -new
                    new ^= bit
                    block = bit.bit_length() - 1
                    if not level:
                        opened_by[block] = col
                    if columns := members[block].get(-level):
                        found.append(columns)
            if 1 - level < best:
                best = 1 - level
                if best == 0:  # every free column is open: the lowest one ends the search
                    free = self.lowest_free
                    way[free] = opened_by.get(blocks.block_of_column[free], col)
                    return way, free
                if columns := groups.get(best):
                    found.append(columns)
            for columns in found:
                heapq.heappush(heap, (columns[0], len(sets)))
                sets.append(columns)
                opener.append(col)
                cursor.append(0)
            next_column = next(pops, None)
            if next_column is None:
                return None
            col, k = next_column
            way[col] = opener[k]
            if not owner[col]:
                return way, col

    def _pops(self) -> Iterator[tuple[int, int]]:
        """Each next lowest open column whose owner is free or of a kind and potential not
        yet visited, and its set; each set's position moves past the columns that are not.
        A generator, so the search's state is read once, not once a step."""
        heap, sets, cursor, owner, u = self.heap, self.sets, self.cursor, self.owner, self.u
        kind_of_row, visited = self.blocks.kind_of_row, self.visited
        kinds = len(self.blocks.blocks_of_kind)
        while heap:
            col, k = heap[0]
            columns = sets[k]
            at = cursor[k] + 1
            while at < len(columns):
                row = owner[columns[at]]
                if not row or kind_of_row[row] + kinds * u[row] not in visited:
                    break
                at += 1
            cursor[k] = at
            if at < len(columns):
                heapq.heapreplace(heap, (columns[at], k))
            else:
                heapq.heappop(heap)
            row = owner[col]
            if not row or kind_of_row[row] + kinds * u[row] not in visited:
                yield col, k


def _unit_search(
    blocks: _Blocks,
    u: list[int],
    v: list[int],
    owner: list[int],
    groups: dict[int, list[int]],
) -> tuple[int, dict[int, int], dict[int, int], int]:
    """One row's shortest augmenting path: (final distance, distance at which each
    column was used, each reached column's way, the free column found).

    A row of a kind already visited at the same u - D offers the same keys again, none
    lower, so its 1s are not scanned."""
    used_at: dict[int, int] = {0: 0}
    way: dict[int, int] = {}
    reached: dict[int, tuple[int, int, int]] = {}  # column -> (E_j, way, visit number)
    heap: list[tuple[int, int]] = []
    push, pop = heapq.heappush, heapq.heappop
    levels = sorted(groups, reverse=True)
    level_at, cursor, members = 0, 0, groups[levels[0]]
    distance, visit, j0 = 0, 0, 0
    ones = blocks.ones
    best, best_way, best_visit = len(ones) + len(v) + 2, 0, 0  # above any key
    kind_of_row, kinds, seen = blocks.kind_of_row, len(blocks.blocks_of_kind), set()
    while True:
        row = owner[j0]
        visit += 1
        base = 1 - u[row] + distance
        if base < best:
            best, best_way, best_visit = base, j0, visit
        offer = base - 1
        offers = kind_of_row[row] - kinds * offer  # kind + kinds * (u - D)
        for c in () if offers in seen else ones[row - 1]:
            col = c + 1
            if col not in used_at:
                known = reached.get(col)
                if known is None or offer < known[0]:
                    reached[col] = (offer, j0, visit)
                    push(heap, (offer - v[col], col))
        seen.add(offers)
        while heap and (
            heap[0][1] in used_at or heap[0][0] != reached[heap[0][1]][0] - v[heap[0][1]]
        ):
            pop(heap)
        while True:  # the lowest unused column of the highest v
            while cursor < len(members) and members[cursor] in used_at:
                cursor += 1
            if cursor < len(members):
                break
            level_at, cursor = level_at + 1, 0
            members = groups[levels[level_at]]
        key, j1 = best - levels[level_at], members[cursor]
        if heap and heap[0] < (key, j1):
            key, j1 = heap[0]
        known = reached.get(j1)
        if known is None or known[0] > best or (known[0] == best and best_visit < known[2]):
            way[j1] = best_way
        else:
            way[j1] = known[1]
        distance = key
        if owner[j1] == 0:
            return distance, used_at, way, j1
        used_at[j1] = distance
        j0 = j1


def kuhn_munkres(scores: list[list[float]]) -> list[tuple[int, int]]:
    """Best assignment of every row (rows <= columns) to a distinct column, on 1 - score."""
    rows, cols = len(scores), len(scores[0])
    u = [0.0] * (rows + 1)
    v = [0.0] * (cols + 1)
    owner = [0] * (cols + 1)  # owner[j]: 1-based row holding column j; column 0 is scratch
    way = [0] * (cols + 1)
    for i in range(1, rows + 1):
        owner[0] = i
        j0 = 0
        slack = [math.inf] * (cols + 1)
        used = [False] * (cols + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            row, u_i0 = scores[i0 - 1], u[i0]
            delta, j1 = math.inf, 0
            for j in range(1, cols + 1):
                if not used[j]:
                    reduced = (1.0 - row[j - 1]) - u_i0 - v[j]
                    if reduced < slack[j]:
                        slack[j], way[j] = reduced, j0
                    if slack[j] < delta:
                        delta, j1 = slack[j], j
            for j in range(cols + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return [(owner[j] - 1, j - 1) for j in range(1, cols + 1) if owner[j]]


def kuhn_munkres_numpy(np: Any, scores: Any) -> list[tuple[int, int]]:
    """`kuhn_munkres` with each scan over the columns as array operations.

    The same IEEE operations on the same values: the minimum is the first index
    holding it (`argmin`), as the loop's strict `<` keeps the first; the rows whose
    potentials move are distinct (one owner per column), so one fancy-indexed add
    equals the loop's adds.
    """
    rows, cols = len(scores), len(scores[0])
    cost = np.ones((rows, cols + 1), dtype=np.float64)
    cost[:, 1:] -= np.asarray(scores, dtype=np.float64)  # column 0 is scratch, as above
    u = np.zeros(rows + 1)
    v = np.zeros(cols + 1)
    owner = np.zeros(cols + 1, dtype=np.int64)
    way = np.zeros(cols + 1, dtype=np.int64)
    for i in range(1, rows + 1):
        owner[0] = i
        j0 = 0
        slack = np.full(cols + 1, np.inf)
        used = np.zeros(cols + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = int(owner[j0])
            reduced = cost[i0 - 1] - u[i0] - v
            better = ~used & (reduced < slack)
            slack[better] = reduced[better]
            way[better] = j0
            j1 = int(np.argmin(np.where(used, np.inf, slack)))
            delta = slack[j1]
            u[owner[used]] += delta
            v[used] -= delta
            slack[~used] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = int(way[j0])
            owner[j0] = owner[j1]
            j0 = j1
    return [(int(owner[j]) - 1, j - 1) for j in range(1, cols + 1) if owner[j]]
