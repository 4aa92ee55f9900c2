"""The exact table-rearrangement solver: the best play of a hand onto a Carousel table.

A play adds at least one card from the hand; afterwards every card on the table, old and new,
lies in a valid meld; no card goes from the table to a hand; a joker keeps the card it stands
for unless a real copy of that card is on the table to replace it, and a joker so freed stays on
the table (it is used again, standing for any card). Among all plays the solver finds one with
the most points placed, then the most cards (or the other way round, ``Objective``), then the
fewest table cards moved.

**Moved** (the last tie-break): every new meld continues at most one old meld of the same kind
(its *label*), and every old meld is continued by at most one new meld (split in two, the
smaller piece moves). A table card is moved when its new meld does not continue its old meld;
a freed joker always moves.

Two exact algorithms find such a play (:class:`Method`): an integer programme over every meld
solved by HiGHS (:mod:`gintutor.engine.carousel.highs`, used for tables of :data:`HIGHS_FROM`
cards or more when ``highspy`` is installed: a median 5 ms, worst 0.13 s on two-deck tables
of up to 88 cards) and this module's pure dynamic programme (smaller tables, tables under 40
cards it finishes within a budget, the bots' bounded search, and the tests' oracle; seconds on
tables of 60 cards and more). Both give the same
points, cards and moves; among equal plays each makes its own deterministic choice.

The dynamic programme runs over positions (ace low = 1 ... king = 13, ace high = 14) and,
within a position, suit by suit, in the spirit of van Rijn, Takes & Vis (2015): the state
holds each suit's open sequences (length 1, 2 or 3+, and label), the cards of this position put
aside for groups, the jokers used and freed, and the aces kept back to close Q-K-A. Every
transition places the position's cards of one suit; a position's groups are resolved once all
four suits are done. A joker counts as the card it stands for, so a suit never has more open
sequences than the decks have copies. The packed objective (points, cards, kept) makes the
optimum exact and the choice among equal plays deterministic.

>>> from gintutor.engine.carousel.cards import parse_hand_cards, parse_table
>>> play = best_play(parse_table("7H 8H 9H 10H"), parse_hand_cards("7C 7D 2S"), decks=2)
>>> play.table.text(), play.hand_after.text(), len(play.moves)
('7C 7D 7H | 8H 9H TH', '2S', 1)
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib.util import find_spec
from itertools import combinations
from typing import Any, NamedTuple

from gintutor.engine.cards import Card
from gintutor.engine.carousel.cards import (
    ACE_HIGH,
    JOKER_POINTS,
    RANKS,
    SUITS,
    Hand,
    Meld,
    MeldKind,
    Slot,
    Table,
    make_meld,
    rank_order,
    verify_counts,
)
from gintutor.engine.carousel.relaxed import (
    FIELD,
    GROUPS_STEP,
    HIGH_ACES,
    LAYERS,
    RUN_INDEX,
    STEPS,
    Place,
    Relaxed,
    layer_of,
)
from gintutor.engine.carousel.rules import STANDARD, CarouselRules, Objective
from gintutor.errors import CardError, IllegalError

# Unit kinds: what fills one place at a position.
_TABLE, _HAND, _KEPT_JOKER, _WILD = 0, 1, 2, 3
_KEPT_SHIFT = 0
_DOMINANCE = True
LOW_ACE_RUN = 4
_LOW_ACE_KEY = 48  # above every bit of a relaxed state
"""The length code of an open run of 3 or more cards that holds the low ace (A-2-3...): it may
never take an ace at the high end too (a 14-card A...K-A turns the corner). Used only in a
suit where both ends could hold an ace (:attr:`_Problem.mark_low_ace`); elsewhere such a run
is plain length 3."""


class MoveKind(Enum):
    """Why a table card appears in the list of moves."""

    MOVED = "moved"
    """The card left its old meld for another."""
    FREED = "freed"
    """A joker replaced by its real card, used again standing for another card."""


class Method(Enum):
    """Which exact algorithm solves a position."""

    AUTO = "auto"
    """The integer programme for a whole table of :data:`HIGHS_FROM` cards or more when
    ``highspy`` is installed (a table under :data:`DP_FIRST_UNDER` cards is tried by the
    dynamic programme first, within :data:`DP_BUDGET` states); else (smaller
    tables, the first meld, the bounded ``only`` search, no ``highspy``) the dynamic
    programme."""
    HIGHS = "highs"
    """The integer programme over every meld, solved by HiGHS (:mod:`.highs`)."""
    DP = "dp"
    """The pure dynamic programme over positions and suits (this module)."""


HIGHS_FROM = 20
"""Tables from this many cards go to HiGHS (``Method.AUTO``). Measured (CPU): importing
``highspy`` (and numpy) costs 70-130 ms once per process; under 20 cards the dynamic programme
takes a median 4-11 ms, worst 94 ms, so a single solve (``carousel analyze``, a lesson) is
quicker without the import; from 20 cards its worst case grows past the import (0.19 s at 20-29
cards, 0.33 s at 30-39 with jokers; seconds from 60) while HiGHS stays under 15 ms there.
Measured again before raising it (random tables with 0-2 jokers, CPU, at load 10): at 20-23
cards the DP's median is 7 ms but its worst 127 ms with two jokers (66 ms with one, 17 ms with
none), 169 ms at 26-27 cards, over 2 s at 28-29, against 110 ms to import ``highspy`` plus a
3-23 ms solve: no larger threshold keeps the worst case under the import, so it stays at 20."""

DP_FIRST_UNDER = 40
DP_BUDGET = 4000
"""A whole table of ``HIGHS_FROM`` to ``DP_FIRST_UNDER`` cards is tried by the dynamic programme
first, for at most ``DP_BUDGET`` states offered (a count, so the choice is the same on any
machine), and goes to HiGHS only beyond that: an ordinary table then needs no ``highspy`` (and
numpy) import, 110-220 ms. Measured (CPU, 10-card hands): 325 random joker-free tables of 20-39
cards, median 7 ms, 19 over the budget, the worst 40 ms including those given up; 200 random
tables of 20-39 cards with a joker (on the table or in the hand; nice 10 at load 3), median
32 ms, 90% 106 ms, worst 249 ms including the 38 handed to HiGHS after giving up (each given
up after a median 77 ms, at most 0.27 s; HiGHS alone: median 6 ms, worst 21 ms once
``highspy`` is imported). With a joker most of the time goes to the relaxed bound, which the
budget does not count. Since the bound was made quicker (the same states and plays), the 200
joker tables of the slow test (seed 12345, 5-11 card hands; CPU, nice 10 at load 3): median
17 ms, 90% 64 ms, worst 169 ms including the 28 handed to HiGHS (the code before: 26, 95 and
248 ms on the same tables)."""


@dataclass(frozen=True)
class Move:
    """A table card that ends in another meld than the one it was in."""

    kind: MoveKind
    slot: Slot
    """The card as it now lies (a freed joker with its new card)."""
    before: Slot
    """The card as it lay before (a freed joker with its old card)."""
    from_meld: Meld
    to_meld: Meld


@dataclass(frozen=True)
class Play:
    """One play: the hand cards placed, the new table, the moves, what stays in hand."""

    placed: Hand
    table: Table
    moves: tuple[Move, ...]
    hand_after: Hand
    continued: tuple[int | None, ...]
    """For each meld of the new table, the index of the old meld it continues (or None)."""

    @property
    def points_placed(self) -> int:
        """Points of the cards placed from hand."""
        return self.placed.points

    @property
    def cards_placed(self) -> int:
        """How many cards were placed from hand."""
        return len(self.placed)

    @property
    def points_after(self) -> int:
        """Points left in hand."""
        return self.hand_after.points


def _weight(points: int, cards: int, objective: Objective) -> int:
    if objective is Objective.POINTS_THEN_CARDS:
        return (points * FIELD + cards) * FIELD
    return (cards * (FIELD * FIELD) + points) * FIELD


# A unit is (kind, origin): origin is the old meld's index for table cards and kept jokers,
# -1 for hand cards and wild jokers.
Unit = tuple[int, int]
RunState = tuple[tuple[int, int], ...]  # sorted (length capped at 3, label) of open sequences
SuitRuns = tuple[RunState, tuple[int, ...]]  # open sequences, labels already used up


class _Problem(NamedTuple):
    """One position to solve, as the programme reads it (a named tuple: quicker to define at
    import than a dataclass)."""

    decks: int
    objective: Objective
    table_units: dict[tuple[int, int], list[int]]  # (position 1..13, suit) -> origins
    joker_units: dict[tuple[int, int], list[int]]  # declared (rank, suit) -> origins
    hand_counts: dict[tuple[int, int], int]
    hand_jokers: int
    max_wild: int
    kinds: list[MeldKind]
    points_of: dict[int, int]  # rank number -> points
    last: list[int]  # per old meld: the last position where its cards can lie
    room: dict[tuple[int, int], int]  # copies of a card already shown by melds left untouched
    slots: list[int]  # table cards (jokers too) at positions 1..p, for p = 0..13
    mark_low_ace: tuple[bool, ...]
    """Per suit: both ends of a sequence could hold an ace (two copies may still be shown),
    so runs holding the low ace are told apart (:data:`LOW_ACE_RUN`)."""


def _problem(
    table: Table, hand: Hand, decks: int, objective: Objective, outside: Iterable[Meld] = ()
) -> _Problem:
    table_units: dict[tuple[int, int], list[int]] = {}
    joker_units: dict[tuple[int, int], list[int]] = {}
    for index, meld in enumerate(table.melds):
        for slot in meld:
            key = (slot.card.rank.number, slot.card.suit.index)
            (joker_units if slot.joker else table_units).setdefault(key, []).append(index)
    hand_counts: dict[tuple[int, int], int] = {}
    for card in hand.cards:
        key = (card.rank.number, card.suit.index)
        hand_counts[key] = hand_counts.get(key, 0) + 1
    # A table joker can only be freed (and so become wild) if a real copy of its card is there.
    freeable = sum(
        min(len(origins), len(table_units.get(key, ())) + hand_counts.get(key, 0))
        for key, origins in joker_units.items()
    )
    room = _shown(outside)
    return _Problem(
        decks,
        objective,
        table_units,
        joker_units,
        hand_counts,
        hand.jokers,
        freeable + hand.jokers,
        [meld.kind for meld in table.melds],
        {n: min(n, 10) for n in range(1, RANKS + 1)},
        [
            max(ACE_HIGH if slot.card.rank.number == 1 else slot.card.rank.number for slot in meld)
            for meld in table.melds
        ],
        room,
        _slots_up_to(table),
        tuple(decks - room.get((1, suit), 0) >= 2 for suit in range(SUITS)),
    )


def _future_cards(problem: _Problem) -> list[dict[int, int]]:
    """Per position p, the old sequences' table cards after p (aces count as still to come)."""
    positions: dict[int, list[int]] = {}
    for (rank, _), origins in [*problem.table_units.items(), *problem.joker_units.items()]:
        for origin in origins:
            if problem.kinds[origin] is MeldKind.SEQUENCE:
                positions.setdefault(origin, []).append(rank)
    for places in positions.values():
        # An ace may always be kept back for the high end.
        places[:] = [ACE_HIGH if p == 1 else p for p in places]
    return [
        {
            origin: count
            for origin, places in positions.items()
            if (count := sum(1 for p in places if p > position))
        }
        for position in range(RANKS + 1)
    ]


def _slots_up_to(table: Table) -> list[int]:
    at = [0] * (RANKS + 1)
    for slot in table.slots():
        at[slot.card.rank.number] += 1
    for position in range(1, RANKS + 1):
        at[position] += at[position - 1]
    return at


def _shown(melds: Iterable[Meld]) -> dict[tuple[int, int], int]:
    shown: dict[tuple[int, int], int] = {}
    for meld in melds:
        for slot in meld:
            key = (slot.card.rank.number, slot.card.suit.index)
            shown[key] = shown.get(key, 0) + 1
    return shown


class State(NamedTuple):
    """Where the programme stands between two layers: what the places still to come must fit.

    A named tuple, hashed and compared as the plain tuple of its fields: the hot loop looks a
    candidate up as a plain tuple and makes it a ``State`` only when it is new (building a named
    tuple costs about 1.3 µs more than a tuple, and most candidates are states already met).
    """

    runs: tuple[SuitRuns, ...]
    """Per suit: the open sequences (length code, label) and the labels already used up."""
    pool: tuple[tuple[int, int], ...]
    """This position's cards put aside for its groups, as (suit, old group or -1), sorted."""
    wild_used: int
    """Jokers standing for a card of their choice so far (freed table jokers and the hand's)."""
    freed: int
    """Table jokers freed so far by a real copy of their card."""
    aces_back: tuple[tuple[Unit, ...], ...]
    """Per suit: the aces kept back at position 1 to close a Q-K-A at the high end."""
    low_aces: tuple[int, ...]
    """Per suit: the copies of the ace placed at the low end (A-2-3 or a group)."""


_new_state = tuple.__new__
"""``_new_state(State, fields)``: a :class:`State` from a plain tuple of its fields."""


Option = tuple[tuple[Unit, ...], tuple[Unit, ...], int, int, tuple[int, ...], int]
Back = tuple[State, tuple[Any, ...]] | None
"""The state a state was reached from, and the step's fields (a :class:`_Step`'s as a plain
tuple, quicker to build for every candidate; or a :data:`GroupStep`)."""
Assigned = tuple[
    RunState,
    tuple[int, ...],
    tuple[Unit, ...],
    int,
    tuple[tuple[int, Unit, int] | None, ...],
    tuple[tuple[Unit, int], ...],
]
GroupStep = tuple[int, tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]
Placed = tuple[
    SuitRuns,
    tuple[tuple[int, int], ...],
    int,
    tuple[tuple[int, Unit, int] | None, ...],
    tuple[tuple[Unit, int], ...],
    tuple[Unit, ...],
]


class _Step(NamedTuple):
    """How a suit's cards at a position were placed (for rebuilding the play).

    The programme keeps these fields as a plain tuple for every candidate state (quicker to
    make) and builds the named tuple only for the steps of the best play.
    """

    position: int
    suit: int
    extend: tuple[tuple[int, Unit, int] | None, ...]  # per old open run: (index, unit, new label)
    new_runs: tuple[tuple[Unit, int], ...]  # (unit, label)
    pooled: tuple[Unit, ...]
    deferred: tuple[Unit, ...]
    freed: tuple[int, ...]  # origins of jokers freed here
    old_runs: RunState


def _assign(
    units: tuple[Unit, ...],
    runs: RunState,
    used: tuple[int, ...],
    seq_kind: list[bool],
    high_end: bool,
    mark_low_ace: bool,
) -> list[Assigned]:
    """Every way to put ``units`` onto the open runs, new runs and the group pool.

    Returns (open runs after, labels used up, pooled units, kept, extensions, new runs). A label
    (the old sequence a run continues) is held by at most one run: ``used`` lists the labels of
    runs already closed.

    ``high_end``: the units are aces at the high end (Q-K-A): they only extend open runs, and
    never one that holds the low ace (:data:`LOW_ACE_RUN`: it would turn the corner).
    ``mark_low_ace``: the place is position 3, where every run of length 2 began at the low
    ace; an extended one becomes :data:`LOW_ACE_RUN`.
    """
    out: list[Assigned] = []
    count = len(runs)
    taken = set(used) | {label for _, label in runs if label >= 0}
    allow_new = allow_pool = not high_end

    def rec(
        i: int,
        ext: list[tuple[int, Unit, int] | None],
        new: list[tuple[Unit, int]],
        pool: list[Unit],
        kept: int,
    ) -> None:
        if i == len(units):
            next_runs: list[tuple[int, int]] = []
            closed = list(used)
            for j, (length, label) in enumerate(runs):
                e = ext[j]
                if e is None:
                    if length < 3:
                        return
                    if label >= 0:
                        closed.append(label)
                else:
                    next_runs.append((_grown(length, mark_low_ace), e[2]))
            next_runs += [(1, label) for _, label in new]
            out.append(
                (
                    tuple(sorted(next_runs)),
                    tuple(sorted(closed)),
                    tuple(pool),
                    kept,
                    tuple(ext),
                    tuple(new),
                )
            )
            return
        unit = units[i]
        origin = unit[1]
        can_label = origin >= 0 and seq_kind[origin] and origin not in taken
        for j in range(count):
            if ext[j] is not None or (high_end and runs[j][0] == LOW_ACE_RUN):
                continue
            label = runs[j][1]
            if label == -1 and can_label:
                ext[j] = (j, unit, origin)
                taken.add(origin)
                rec(i + 1, ext, new, pool, kept + 1)
                taken.discard(origin)
            ext[j] = (j, unit, label)
            rec(i + 1, ext, new, pool, kept + (1 if label == origin >= 0 else 0))
            ext[j] = None
        if allow_new:
            if can_label:
                new.append((unit, origin))
                taken.add(origin)
                rec(i + 1, ext, new, pool, kept + 1)
                taken.discard(origin)
                new.pop()
            new.append((unit, -1))
            rec(i + 1, ext, new, pool, kept)
            new.pop()
        if allow_pool:
            pool.append(unit)
            rec(i + 1, ext, new, pool, kept)
            pool.pop()

    rec(0, [None] * count, [], [], 0)
    return out


def _grown(length: int, mark_low_ace: bool) -> int:
    """The length code of an open run after one more card (see :data:`LOW_ACE_RUN`)."""
    if length == LOW_ACE_RUN or (mark_low_ace and length == 2):
        return LOW_ACE_RUN
    return min(length + 1, 3)


def group_labels(counts: list[dict[int, int]]) -> tuple[int, tuple[int, ...]]:
    """The old groups one or two new groups continue (distinct), given each new group's count
    of cards per old group: (cards kept in place, labels, -1 for none)."""
    best = (0, tuple(-1 for _ in counts))
    options = [[-1, *sorted(c)] for c in counts]
    if len(counts) == 1:
        for label in options[0]:
            kept = counts[0].get(label, 0)
            if kept > best[0]:
                best = (kept, (label,))
        return best
    for first in options[0]:
        for second in options[1]:
            if first == second >= 0:
                continue
            kept = counts[0].get(first, 0) + counts[1].get(second, 0)
            if kept > best[0]:
                best = (kept, (first, second))
    return best


@lru_cache(maxsize=65536)
def _groups(
    pool: tuple[tuple[int, int], ...], group_kind: tuple[bool, ...]
) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
    """Best split of a position's pooled cards (suit, origin) into groups: (kept, groups).

    Groups hold 3 or 4 different suits; a group continues the old group most of its cards came
    from. ``None`` if the cards cannot all be grouped.
    """
    if not pool:
        return (0, ())
    n = len(pool)
    if n < 3:
        return None
    best: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    for parts in (1, 2):
        if n < 3 * parts or n > 4 * parts:
            continue
        for mask in range(1 << n) if parts == 2 else (0,):
            if parts == 2 and mask & 1:
                continue  # the first card goes to group 0: halves the symmetric splits
            split: list[list[int]] = [[] for _ in range(parts)]
            for i in range(n):
                split[(mask >> i) & 1].append(i)
            ok = True
            all_counts = []
            for members in split:
                suits = {pool[i][0] for i in members}
                if len(members) < 3 or len(suits) != len(members):
                    ok = False
                    break
                counts: dict[int, int] = {}
                for i in members:
                    origin = pool[i][1]
                    if origin >= 0 and group_kind[origin]:
                        counts[origin] = counts.get(origin, 0) + 1
                all_counts.append(counts)
            if not ok:
                continue
            kept = group_labels(all_counts)[0]
            if best is None or kept > best[0]:
                best = (kept, tuple(tuple(m) for m in split))
    return best


def _unit_options(
    problem: _Problem,
    position: int,
    suit: int,
    wild_used: int,
) -> list[Option]:
    """Ways to choose this position's units: (units here, aces kept back, score, wild, freed
    origins, units counted against the copies)."""
    rank = ACE_HIGH if position == ACE_HIGH else position
    options: list[Option] = []
    decks = problem.decks - problem.room.get((rank, suit), 0)
    if rank == ACE_HIGH:
        return []  # handled by the caller from the aces kept back
    table = problem.table_units.get((rank, suit), [])
    jokers = problem.joker_units.get((rank, suit), [])
    hand = problem.hand_counts.get((rank, suit), 0)
    card_weight = _weight(problem.points_of[rank], 1, problem.objective)
    for freed_count in range(len(jokers) + 1):
        for freed in combinations(jokers, freed_count):
            kept = list(jokers)
            for origin in freed:
                kept.remove(origin)
            for placed in range(hand + 1):
                if freed_count > len(table) + placed:
                    continue
                base = (
                    [(_TABLE, o) for o in table]
                    + [(_HAND, -1)] * placed
                    + [(_KEPT_JOKER, o) for o in kept]
                )
                for wild in range(problem.max_wild - wild_used + 1):
                    units = base + [(_WILD, -1)] * wild
                    if len(units) > decks:
                        break
                    score = placed * card_weight
                    if rank != 1:
                        options.append((tuple(units), (), score, wild, freed, len(units)))
                        continue
                    # Aces: each may stay low (A-2-3, groups) or be kept back for Q-K-A.
                    movable = [u for u in units if u[0] != _WILD]
                    seen = set()
                    for k in range(len(movable) + 1):
                        for back in combinations(movable, k):
                            key = tuple(sorted(back))
                            if key in seen:
                                continue
                            seen.add(key)
                            low = list(units)
                            for u in back:
                                low.remove(u)
                            options.append((tuple(low), key, score, wild, freed, len(units)))
    return options


class _OverBudget(Exception):
    """The dynamic programme offered more states than its budget allows."""


def _solve(
    problem: _Problem, budget: int | None = None
) -> tuple[int, list[_Step | GroupStep]] | None:
    """The best packed score and the steps of one best play (or None).

    ``budget``: raise :class:`_OverBudget` once the passes have offered that many states (a
    count of work, so the outcome is the same on any machine).

    Three passes: the label-free programme gives the best points and cards; a quick pass
    keeping one labelling per label-free state gives a play with those and some cards moved;
    the exact pass then drops every state that has already moved more cards than that.
    """
    relaxed = _relaxed(problem)
    target = relaxed.suffix(0, relaxed.start())
    if target < 0:
        return None
    work = [budget if budget is not None else -1]
    caches = _Caches()
    quick = _solve_dp(problem, relaxed, target, quick=True, limit=FIELD, work=work, caches=caches)
    assert quick is not None  # the quick pass keeps a path to every label-free optimum
    moved = problem.slots[-1] - quick[0] % FIELD
    if moved == 0:
        return quick
    exact = _solve_dp(problem, relaxed, target, quick=False, limit=moved, work=work, caches=caches)
    assert exact is not None and exact[0] >= quick[0]
    return exact


class _Caches:
    """What the quick and the exact pass of one problem share: the ways to place units, the
    groups of a pool, the runs after a position's groups and the relaxed bound of each state
    met (all depend on the problem only)."""

    def __init__(self) -> None:
        self.assign: dict[tuple[tuple[Unit, ...], SuitRuns, bool, bool], list[Assigned]] = {}
        self.options: dict[tuple[int, int, int], list[Option]] = {}
        self.placed: dict[tuple[tuple[Unit, ...], SuitRuns, int, bool], list[Placed]] = {}
        self.groups: dict[tuple[tuple[int, int], ...], Any] = {}  # pool -> _groups(pool)
        self.pruned: list[dict[tuple[SuitRuns, ...], tuple[SuitRuns, ...]]] = [
            {} for _ in range(ACE_HIGH)
        ]
        self.bounds: list[dict[State, tuple[int, int]]] = [{} for _ in range(LAYERS + 1)]
        self.runs: dict[tuple[SuitRuns, ...], int] = {}
        self.aces: dict[tuple[tuple[tuple[Unit, ...], ...], tuple[int, ...]], int] = {}

    def project(self, state: State, rooms: list[int], index: int) -> int:
        """:func:`_project`, its parts memoised (the runs; the aces before the high aces)."""
        runs, pool, wild_used, freed_total, back, lows = state
        packed = self.runs.get(runs)
        if packed is None:
            packed = self.runs[runs] = _project(State(runs, (), 0, 0, back, lows), rooms, LAYERS)
        packed |= (wild_used << 24) | (freed_total << 26)
        for suit, _ in pool:
            packed += 1 << (16 + 2 * suit)
        if index > HIGH_ACES:
            return packed | (_project(state, rooms, index) & ~((1 << 28) - 1))
        key = (back, lows)
        aces = self.aces.get(key)
        if aces is None:
            aces = self.aces[key] = _project(
                State((((), ()),) * SUITS, (), 0, 0, back, lows), rooms, 0
            )
        return packed | aces


def _solve_dp(
    problem: _Problem,
    relaxed: Relaxed,
    target: int,
    *,
    quick: bool,
    limit: int,
    work: list[int] | None = None,
    caches: _Caches | None = None,
) -> tuple[int, list[_Step | GroupStep]] | None:
    """Run the programme; the best packed score and the steps of one best play (or None).

    ``quick``: keep only the best labelling of each label-free state (a play, not always the
    fewest moves). ``limit``: drop states that have moved more table cards than this.
    ``work``: states left to offer (negative or ``None``: no limit), shared by the passes.
    """
    return _Pass(
        problem,
        relaxed,
        target,
        quick,
        limit,
        [-1] if work is None else work,
        _Caches() if caches is None else caches,
    ).run()


Layer = dict[State, tuple[int, Back]]
"""The states of one layer, each with its best packed value and how it was reached."""


class _Pass:
    """One pass of the programme: the layers met so far, and how a state is offered to the
    layer being built (bounded by the relaxed programme, pruned, one labelling kept).

    The methods that run per candidate state bind the attributes they read to locals.
    """

    def __init__(
        self,
        problem: _Problem,
        relaxed: Relaxed,
        target: int,
        quick: bool,
        limit: int,
        work: list[int],
        caches: _Caches,
    ) -> None:
        self.problem = problem
        self.relaxed = relaxed
        self.target = target
        self.quick = quick
        self.limit = limit
        self.work = work
        self.caches = caches
        self.seq_kind = [kind is MeldKind.SEQUENCE for kind in problem.kinds]
        self.group_kind = tuple(kind is MeldKind.GROUP for kind in problem.kinds)
        self.future = _future_cards(problem)
        self.history: list[Layer] = []
        # The layer being built: its states, the bound of each state met (-1: dropped), the
        # state kept per label-free key, and the dominance test's rivals (per position).
        self.nxt: Layer = {}
        self.bounds: dict[State, int] = {}
        self.seen: dict[int, State] = {}
        self.rivals: dict[tuple[int, Any, Any, Any], list[tuple[State, dict[int, int]]]] = {}

    def run(self) -> tuple[int, list[_Step | GroupStep]] | None:
        """Every layer in turn, then the best end and the steps that lead to it."""
        empty: SuitRuns = ((), ())
        start = State((empty,) * SUITS, (), 0, 0, ((),) * SUITS, (0,) * SUITS)
        layer: Layer = {start: (0, None)}
        for position in range(1, ACE_HIGH + 1):
            for suit in range(SUITS):
                self._begin_layer()
                index = layer_of(position, suit) + 1  # the layer of the states it makes
                if position == ACE_HIGH:
                    self._close_high_aces(layer, suit, index)
                else:
                    self._place_suit(layer, position, suit, index)
                self.history.append(layer)
                layer = self.nxt
            if position != ACE_HIGH:
                self._begin_layer()
                self.rivals = {}
                self._place_groups(layer, position)
                self.history.append(layer)
                layer = self.nxt
        return self._best_end(layer)

    def _begin_layer(self) -> None:
        self.nxt = {}
        self.bounds = {}
        self.seen = {}

    def _close_high_aces(self, layer: Layer, suit: int, index: int) -> None:
        """The aces at the high end (Q-K-A) of ``suit``: the aces kept back and wild jokers
        end every open sequence of the suit."""
        problem = self.problem
        for state, (score, _) in layer.items():
            runs, pool, wild_used, freed_total, back, lows = state
            suit_runs = runs[suit]
            kept_back = back[suit]
            room = problem.decks - problem.room.get((1, suit), 0) - lows[suit] - len(kept_back)
            for wild in range(min(room, problem.max_wild - wild_used) + 1):
                units = kept_back + ((_WILD, -1),) * wild
                for new_runs, _, _, kept, ext, _ in self.assign(units, suit_runs, True):
                    if any(length < 3 for length, _ in new_runs):
                        continue
                    ns = State(
                        _with(runs, suit, ((), ())),
                        pool,
                        wild_used + wild,
                        freed_total,
                        _with(back, suit, ()),
                        lows,
                    )
                    step: tuple[Any, ...] = (ACE_HIGH, suit, ext, (), (), (), (), suit_runs[0])
                    self.offer(index, ns, score + kept, (state, step))

    def _place_suit(self, layer: Layer, position: int, suit: int, index: int) -> None:
        """The cards of ``suit`` at ``position``: every way to fill the place and put its
        units on open sequences, new ones or the group pool (the hot loop)."""
        problem = self.problem
        relaxed = self.relaxed
        option_cache = self.caches.options
        placed = self.placed
        offer_new = self.offer_new
        nxt = self.nxt
        work = self.work
        mark = position == 3 and problem.mark_low_ace[suit]
        for state, (score, _) in layer.items():
            runs, pool, wild_used, freed_total, back, lows = state
            suit_runs = runs[suit]
            okey = (position, suit, wild_used)
            options = option_cache.get(okey)
            if options is None:
                options = option_cache[okey] = [
                    option
                    for option in _unit_options(problem, position, suit, wild_used)
                    if relaxed.high[suit] or not option[1]
                ]
            runs_before, runs_after = runs[:suit], runs[suit + 1 :]
            for units, kept_back, gain, wild, freed, count in options:
                back_after = _with(back, suit, kept_back) if position == 1 else back
                lows_after = _with(lows, suit, count - len(kept_back)) if position == 1 else lows
                for suit_after, keys, kept, ext, new, pooled in placed(
                    units, suit_runs, suit, mark
                ):
                    candidate = (
                        (*runs_before, suit_after, *runs_after),
                        tuple(sorted(pool + keys)) if keys else pool,
                        wild_used + wild,
                        freed_total + len(freed),
                        back_after,
                        lows_after,
                    )
                    value = score + gain + kept
                    # offer(), its usual case (a state met before) inlined
                    work[0] -= 1
                    if work[0] == 0:
                        raise _OverBudget
                    old = nxt.get(candidate)  # type: ignore[call-overload]
                    if old is not None and value <= old[0]:
                        continue
                    step = (position, suit, ext, new, pooled, kept_back, freed, suit_runs[0])
                    if old is not None:
                        nxt[candidate] = (value, (state, step))  # type: ignore[index]
                    else:
                        ns = _new_state(State, candidate)
                        offer_new(index, ns, value, (state, step))

    def _place_groups(self, layer: Layer, position: int) -> None:
        """A position's groups: each state's pool split into groups (or the state dropped),
        and the old sequences ended and done with by here forgotten."""
        problem = self.problem
        groups_of = self.caches.groups
        pruned_of = self.caches.pruned[position]
        index = layer_of(position, GROUPS_STEP) + 1
        for state, (score, _) in layer.items():
            runs, pool, wild_used, freed_total, back, lows = state
            found = groups_of.get(pool, False)
            if found is False:
                found = groups_of[pool] = _groups(pool, self.group_kind)
            if found is None:
                continue
            pruned = pruned_of.get(runs)
            if pruned is None:
                pruned = pruned_of[runs] = tuple(
                    (open_runs, tuple(x for x in used if problem.last[x] > position))
                    for open_runs, used in runs
                )
            ns = State(pruned, (), wild_used, freed_total, back, lows)
            self.offer(index, ns, score + found[0], (state, (position, found[1], pool)))

    def _best_end(self, layer: Layer) -> tuple[int, list[_Step | GroupStep]] | None:
        """The best state after every layer (its jokers the freed ones and some of the hand's)
        and the steps that lead to it."""
        problem = self.problem
        best: tuple[int, State] | None = None
        joker_weight = _weight(JOKER_POINTS, 1, problem.objective)
        for state, (score, _) in layer.items():
            from_hand = state.wild_used - state.freed
            if not 0 <= from_hand <= problem.hand_jokers:
                continue
            total = score + from_hand * joker_weight
            if best is None or total > best[0]:
                best = (total, state)
        if best is None:
            return None
        steps: list[_Step | GroupStep] = []
        state = best[1]
        for past in reversed([*self.history, layer]):
            entry = past[state][1]
            if entry is None:
                break
            state = entry[0]
            fields = entry[1]
            steps.append(_Step(*fields) if len(fields) == len(_Step._fields) else fields)
        steps.reverse()
        return best[0], steps

    def offer(self, index: int, state: State, value: int, back: Back) -> None:
        """Put ``state`` in the layer being built, if it may still lead to the best points
        and cards (the relaxed bound is exact) and beats its value there."""
        work = self.work
        work[0] -= 1
        if work[0] == 0:
            raise _OverBudget
        nxt = self.nxt
        old = nxt.get(state)
        if old is not None:
            if value > old[0]:
                nxt[state] = (value, back)
            return
        self.offer_new(index, state, value, back)

    def bound_of(self, index: int, state: State) -> tuple[int, int]:
        """The state's label-free key and relaxed bound: the same in both passes, so shared.

        The key is the relaxed state plus which open runs hold the low ace (the relaxed
        programme may turn the corner: its points and cards are still exact, since A...K-A
        splits into two sequences, but such a state may not end like its twin)."""
        known = self.caches.bounds[index]
        found = known.get(state)
        if found is None:
            projected = self.caches.project(state, self.relaxed.rooms, index)
            low_aces = 0
            for suit, (open_runs, _) in enumerate(state.runs):
                for length, _ in open_runs:
                    if length == LOW_ACE_RUN:
                        low_aces += 1 << (2 * suit)
            found = known[state] = (
                projected | low_aces << _LOW_ACE_KEY,
                self.relaxed.suffix(index, projected),
            )
        return found

    def offer_new(self, index: int, state: State, value: int, back: Back) -> None:
        """:meth:`offer` of a state not yet in the layer (its offer already counted)."""
        nxt = self.nxt
        quick = self.quick
        if index % STEPS == 0 and index < LAYERS:
            # After a position's groups: table cards up to here not kept are moved for good
            # (aces kept back for Q-K-A are still to come).
            deferred = sum(1 for b in state.aces_back for unit in b if unit[0] != _HAND)
            if self.problem.slots[index // STEPS] - deferred - value % FIELD > self.limit:
                return
            if not quick and _DOMINANCE and not self.undominated(index, state, value):
                return
        bounds = self.bounds
        if not quick:
            # The exact pass needs no bounds of its own: the shared ones are the same.
            bound: int | None = self.bound_of(index, state)[1]
        else:
            bound = bounds.get(state)
        if bound is None:
            projected, bound = self.bound_of(index, state)
            bounds[state] = bound
            if bound >= 0:
                # One labelling per label-free state: the best one met so far.
                seen = self.seen
                other = seen.get(projected)
                if other is not None and other in nxt:
                    if nxt[other][0] >= value:
                        bounds[state] = -1
                        return
                    del nxt[other]
                    bounds[other] = -1
                seen[projected] = state
        if bound >= 0 and value - value % FIELD + bound >= self.target:
            nxt[state] = (value, back)

    def undominated(self, index: int, state: State, value: int) -> bool:
        """False if another state of the layer with the same label-free future surely keeps
        at least as many table cards; states this one so beats leave the layer.

        Two such states (with their unlabelled runs alike too) differ only in the old
        sequences their runs continue or have ended. Copying one's best future onto the
        other loses at most the cards still to come of the old sequences whose state
        differs: if the kept counts differ by that much, the poorer state cannot end better.
        """
        nxt = self.nxt
        cards = self.future[index // STEPS]
        status: dict[int, int] = {}
        for open_runs, used in state.runs:
            for label in used:
                if label in cards:
                    status[label] = 0
            for length, label in open_runs:
                if label in cards:
                    status[label] = length
        kept = value % FIELD
        unlabelled = tuple(
            tuple(sorted((length, label < 0) for length, label in open_runs))
            for open_runs, _ in state.runs
        )
        projected = self.caches.project(state, self.relaxed.rooms, index)
        key = (projected, state.aces_back, state.low_aces, unlabelled)
        group = self.rivals.setdefault(key, [])
        keep = []
        for other in group:
            other_state, other_status = other
            found = nxt.get(other_state)
            if found is None:
                continue
            other_kept = found[0] % FIELD
            if found[0] - other_kept != value - kept:
                keep.append(other)
                continue
            slack = sum(
                count
                for label, count in cards.items()
                if status.get(label, -1) != other_status.get(label, -1)
            )
            if other_kept - kept >= slack:
                return False
            if kept - other_kept >= slack:
                del nxt[other_state]
                continue
            keep.append(other)
        keep.append((state, status))
        self.rivals[key] = keep
        return True

    def assign(
        self, units: tuple[Unit, ...], suit_runs: SuitRuns, final: bool, mark: bool = False
    ) -> list[Assigned]:
        """:func:`_assign`, memoised for both passes."""
        key = (units, suit_runs, final, mark)
        found = self.caches.assign.get(key)
        if found is None:
            found = _assign(units, suit_runs[0], suit_runs[1], self.seq_kind, final, mark)
            self.caches.assign[key] = found
        return found

    def placed(
        self, units: tuple[Unit, ...], suit_runs: SuitRuns, suit: int, mark: bool
    ) -> list[Placed]:
        """:meth:`assign` (not at the high end) with what the states need ready-made: the
        suit's runs after, and the pooled cards as the pool's (suit, old group) keys."""
        key = (units, suit_runs, suit, mark)
        found = self.caches.placed.get(key)
        if found is None:
            group_kind = self.group_kind
            found = self.caches.placed[key] = [
                (
                    (new_runs, used),
                    tuple((suit, o if o >= 0 and group_kind[o] else -1) for _, o in pooled),
                    kept,
                    ext,
                    new,
                    pooled,
                )
                for new_runs, used, pooled, kept, ext, new in self.assign(
                    units, suit_runs, False, mark
                )
            ]
        return found


def _relaxed(problem: _Problem) -> Relaxed:
    """The label-free programme of the same position (the bound on points and cards)."""
    places = [[Place() for _ in range(SUITS)]]
    for position in range(1, RANKS + 1):
        places.append(
            [
                Place(
                    len(problem.table_units.get((position, s), ())),
                    len(problem.joker_units.get((position, s), ())),
                    problem.hand_counts.get((position, s), 0),
                    problem.decks - problem.room.get((position, s), 0),
                )
                for s in range(SUITS)
            ]
        )
    weights = [0] + [
        _weight(problem.points_of[rank], 1, problem.objective) for rank in range(1, RANKS + 1)
    ]
    return Relaxed(
        places,
        weights,
        _weight(JOKER_POINTS, 1, problem.objective),
        problem.max_wild,
        problem.hand_jokers,
    )


_RUN_INDEX_OF: dict[RunState, int] = {}
"""Labelled open sequences -> the relaxed programme's run index (filled as met)."""


def _project(state: State, rooms: list[int], index: int) -> int:
    """The relaxed programme's state for ``state`` before layer ``index``."""
    runs, pool, wild_used, freed_total, back, lows = state
    packed = (wild_used << 24) | (freed_total << 26)
    for suit in range(SUITS):
        open_runs = runs[suit][0]
        index_of = _RUN_INDEX_OF.get(open_runs)
        if index_of is None:
            index_of = _RUN_INDEX_OF[open_runs] = RUN_INDEX[
                tuple(sorted(min(length, 3) for length, _ in open_runs))
            ]
        packed |= index_of << (4 * suit)
        if index <= HIGH_ACES + suit:  # (a suit's aces kept back are used up at its layer)
            kept_back = len(back[suit])
            packed |= kept_back << (28 + 2 * suit)
            if rooms[suit]:
                packed |= (rooms[suit] - lows[suit] - kept_back) << (36 + 2 * suit)
    for suit, _ in pool:
        packed += 1 << (16 + 2 * suit)
    return packed


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def nearby_melds(table: Table, hand: Hand, limit: int = 3) -> tuple[int, ...]:
    """The ``limit`` melds most touched by hand cards (same rank, or same suit within two).

    Rearranging only these is a quick search (bots, hints); it can miss a longer chain of
    moves, so :func:`best_play` over the whole table remains the exact answer.
    """
    touched = []
    for index, meld in enumerate(table.melds):
        count = sum(
            1
            for slot in meld
            for c in hand.cards
            if c.rank is slot.card.rank or (c.suit is slot.card.suit and _gap(c, slot.card) <= 2)
        )
        if count:
            touched.append((-count, index))
    return tuple(sorted(index for _, index in sorted(touched)[:limit]))


def _gap(a: Card, b: Card) -> int:
    x, y = a.rank.number, b.rank.number
    return min(abs(x - y), abs(rank_order(x, True) - rank_order(y, True)))


def best_play(
    table: Table,
    hand: Hand,
    decks: int = 2,
    rules: CarouselRules = STANDARD,
    *,
    first_meld: bool = False,
    only: Iterable[int] | None = None,
    method: Method = Method.AUTO,
) -> Play | None:
    """The best play of ``hand`` onto ``table``, or ``None`` if no card can be placed.

    ``first_meld``: the opening meld rule applies, so only new melds of the hand's own cards
    may be laid down and the table is not touched. ``only``: rearrange just these melds (by
    index), keeping the others as they are (see :func:`nearby_melds`). ``method``: which
    exact algorithm (:class:`Method`); both find plays equal in points, cards and moves.
    """
    verify_counts(table, [hand], decks)
    if decks not in (1, 2):
        raise CardError("Carousel uses one or two decks, got {decks}", decks=decks)
    if first_meld:
        chosen: tuple[int, ...] = ()
    elif only is None:
        chosen = tuple(range(len(table.melds)))
    else:
        chosen = tuple(sorted(set(only)))
    used = Table(tuple(table.melds[i] for i in chosen))
    outside = [meld for i, meld in enumerate(table.melds) if i not in set(chosen)]
    backend = None
    budget = None
    if method is Method.AUTO and only is None and used.card_count >= HIGHS_FROM:
        if used.card_count < DP_FIRST_UNDER:
            budget = DP_BUDGET if _highs_installed() else None
        else:
            backend = _highs()
    elif method is Method.HIGHS:
        from gintutor.engine.carousel import highs as backend
    play: Play | None = None
    if backend is None:
        problem = _problem(used, hand, decks, rules.objective, outside)
        try:
            solved = _solve(problem, budget)
        except _OverBudget:
            backend = _highs()
        else:
            if solved is None or solved[0] < FIELD:
                return None
            play = _rebuild(used, hand, problem, solved[1])
    if play is None:
        assert backend is not None  # a budget is set only where highspy is installed
        room = {rank - 1 + RANKS * suit: n for (rank, suit), n in _shown(outside).items()}
        found = backend.solve(used, hand, decks, rules.objective, room)
        if found is None:
            return None
        play = _from_melds(used, hand, found.placed, found.melds)
    if len(chosen) == len(table.melds):
        return play
    # Map the sub-table's continuations back and add the melds left untouched.
    merged: list[tuple[Meld, int | None]] = [
        (meld, None if label is None else chosen[label])
        for meld, label in zip(play.table.melds, play.continued, strict=True)
    ]
    merged += [(meld, i) for i, meld in enumerate(table.melds) if i not in set(chosen)]
    merged.sort(key=lambda pair: pair[0].sort_key())
    return Play(
        play.placed,
        Table(tuple(m for m, _ in merged)),
        play.moves,
        play.hand_after,
        tuple(label for _, label in merged),
    )


def _highs_installed() -> bool:
    """Whether ``highspy`` can be imported (found without importing it: no numpy yet)."""
    if "highspy" in sys.modules:
        return sys.modules["highspy"] is not None
    return find_spec("highspy") is not None


def _highs() -> Any:
    """The HiGHS backend module, or ``None`` when ``highspy`` is not installed."""
    try:
        from gintutor.engine.carousel import highs
    except ImportError:
        return None
    return highs


def _from_melds(
    table: Table,
    hand: Hand,
    placed: Hand,
    melds: Iterable[tuple[Meld, int | None, tuple[tuple[Slot, int, Slot | None], ...]]],
) -> Play:
    """A play from its new melds (each with the old meld it continues and, per slot, the old
    meld the card came from and a freed joker's old slot): canonical order, and the moves."""
    built = sorted(melds, key=lambda item: (item[0].sort_key(), item[0].slots))
    moves: list[Move] = []
    for meld, label, slots in built:
        for slot, origin, before in slots:
            if origin < 0:
                continue
            if before is not None:
                moves.append(Move(MoveKind.FREED, slot, before, table.melds[origin], meld))
            elif origin != label:
                moves.append(Move(MoveKind.MOVED, slot, slot, table.melds[origin], meld))
    return Play(
        placed,
        Table(tuple(m for m, _, _ in built)),
        tuple(moves),
        hand - placed,
        tuple(label for _, label, _ in built),
    )


class _Run:
    def __init__(self, label: int, low_ace: bool = False) -> None:
        self.label = label
        self.low_ace = low_ace  # begins at the low ace, in a suit whose runs are so marked
        self.items: list[tuple[int, int, Unit]] = []  # (position, suit, unit)

    def key(self) -> tuple[int, int]:
        """The run as the programme's state holds it: (length code, label)."""
        if self.low_ace and len(self.items) >= 3:
            return (LOW_ACE_RUN, self.label)
        return (min(len(self.items), 3), self.label)


def _rebuild(
    table: Table, hand: Hand, problem: _Problem, steps: Iterable[_Step | GroupStep]
) -> Play:
    """Replay the programme's steps into melds, moves and the hand left."""
    runs: list[list[_Run]] = [[], [], [], []]
    finished: list[tuple[list[tuple[int, int, Unit]], int, MeldKind]] = []
    pooled: list[tuple[tuple[int, int], tuple[int, int, Unit]]] = []
    backs: dict[int, list[Unit]] = {}
    freed: list[int] = []
    group_kind = [kind is MeldKind.GROUP for kind in problem.kinds]
    for step in steps:
        if isinstance(step, _Step):
            suit = step.suit
            current = sorted(runs[suit], key=_Run.key)
            assert tuple(r.key() for r in current) == step.old_runs
            survivors: list[_Run] = []
            for j, run in enumerate(current):
                ext = step.extend[j] if j < len(step.extend) else None
                if ext is None:
                    finished.append((run.items, run.label, MeldKind.SEQUENCE))
                    continue
                run.items.append((step.position, suit, ext[1]))
                run.label = ext[2]
                survivors.append(run)
            for unit, label in step.new_runs:
                run = _Run(label, step.position == 1 and problem.mark_low_ace[suit])
                run.items.append((step.position, suit, unit))
                survivors.append(run)
            for unit in step.pooled:
                origin = unit[1] if unit[1] >= 0 and group_kind[unit[1]] else -1
                pooled.append(((suit, origin), (step.position, suit, unit)))
            if step.position == 1:
                backs[suit] = list(step.deferred)
            freed += step.freed
            if step.position == ACE_HIGH:
                for run in survivors:
                    finished.append((run.items, run.label, MeldKind.SEQUENCE))
                survivors = []
            runs[suit] = survivors
        else:
            _, parts, pool = step
            pooled.sort(key=lambda item: item[0])
            assert tuple(key for key, _ in pooled) == pool
            groups = [[pooled[i][1] for i in members] for members in parts]
            all_counts = []
            for items in groups:
                counts: dict[int, int] = {}
                for _, _, (_, origin) in items:
                    if origin >= 0 and group_kind[origin]:
                        counts[origin] = counts.get(origin, 0) + 1
                all_counts.append(counts)
            labels = group_labels(all_counts)[1] if groups else ()
            for items, label in zip(groups, labels, strict=True):
                finished.append((items, label, MeldKind.GROUP))
            pooled = []
    freed_queue = _freed_jokers(table, freed)
    placed_cards: list[Card] = []
    hand_jokers = 0
    built: list[tuple[Meld, int | None, tuple[tuple[Slot, int, Slot | None], ...]]] = []
    for items, label, _ in finished:
        slots: list[tuple[Slot, int, Slot | None]] = []  # (slot, origin, before for freed)
        for position, suit, (kind, origin) in items:
            before: Slot | None = None
            rank = 1 if position == ACE_HIGH else position
            card = Card.from_index(suit * RANKS + rank - 1)
            if kind == _TABLE:
                slots.append((Slot(card), origin, None))
            elif kind == _HAND:
                placed_cards.append(card)
                slots.append((Slot(card), -1, None))
            elif kind == _KEPT_JOKER:
                slots.append((Slot(card, joker=True), origin, None))
            elif freed_queue:
                old_origin, old_slot = freed_queue.pop(0)
                before = old_slot
                slots.append((Slot(card, joker=True), old_origin, before))
            else:
                hand_jokers += 1
                slots.append((Slot(card, joker=True), -1, None))
        meld = make_meld(slot for slot, _, _ in slots)
        built.append((meld, None if label < 0 else label, tuple(slots)))
    return _from_melds(table, hand, Hand.of(placed_cards, hand_jokers), built)


def _freed_jokers(table: Table, freed: list[int]) -> list[tuple[int, Slot]]:
    """The freed jokers as (old meld, old slot), in the order they were freed."""
    out = []
    taken: set[tuple[int, int]] = set()
    for origin in freed:
        for i, slot in enumerate(table.melds[origin]):
            if slot.joker and (origin, i) not in taken:
                taken.add((origin, i))
                out.append((origin, slot))
                break
    return out


def verify_play(table: Table, hand: Hand, new_table: Table, decks: int = 2) -> Hand:
    """Check that ``new_table`` is a legal result of playing from ``hand`` onto ``table``;
    return the hand cards placed. Raises :class:`~gintutor.errors.IllegalError` with the reason.

    Every old table card is still there, at least one hand card was added, the melds are valid
    (a :class:`Table` holds only valid melds), and a joker shows another card than before only
    if a real copy of its old card lies on the new table to replace it.
    """

    def real(t: Table) -> Counter[Card]:
        return Counter(slot.card for slot in t.slots() if not slot.joker)

    def jokers(t: Table) -> Counter[Card]:
        return Counter(slot.card for slot in t.slots() if slot.joker)

    before, after = real(table), real(new_table)
    gone = before - after
    if gone:
        raise IllegalError(
            "{cards} left the table: no card goes from the table to a hand",
            cards=" ".join(c.code for c in sorted(gone.elements())),
        )
    old_jokers, new_jokers = jokers(table), jokers(new_table)
    added_jokers = sum(new_jokers.values()) - sum(old_jokers.values())
    if added_jokers < 0:
        raise IllegalError("a joker left the table: a freed joker must be used again")
    placed = Hand.of((after - before).elements(), added_jokers)
    if not len(placed):
        raise IllegalError("a play adds at least one card from your hand")
    try:
        hand - placed
    except CardError as error:
        raise IllegalError(error.template, **error.params) from None
    for card, count in old_jokers.items():
        freed = count - new_jokers[card]
        if freed > after[card]:
            raise IllegalError(
                "the joker standing for {card} changed without the real {card} replacing it",
                card=card.code,
            )
    verify_counts(new_table, [], decks)
    return placed
