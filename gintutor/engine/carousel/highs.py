"""The Carousel solver as an integer programme over every possible meld, solved by HiGHS.

The one engine module that imports a third-party package (``highspy``, HiGHS' own bindings):
:func:`gintutor.engine.carousel.solver.best_play` imports it for tables of ``HIGHS_FROM`` cards
or more when it is installed, and uses the pure dynamic programme otherwise, which stays the
tests' oracle.

The model (after den Hertog & Hulshof's Rummikub programme, every meld a variable):

* ``y[m, L]``: how many times meld ``m`` lies on the new table continuing old meld ``L`` of the
  same kind, or none (``L = -1``). A meld continuing none is a group or a sequence of 3 to 5
  (a longer one is pieces of these); one continuing ``L`` is any meld sharing a card with
  ``L`` that cannot be cut into three cards none of ``L``'s and a rest. An old meld is
  continued by at most one new meld.
* Per card ``c``: the places of ``c`` in the new melds are filled by the table's real copies,
  the copies placed from hand ``h[c]``, the table jokers standing for ``c`` not freed and the
  wild jokers ``w[c]``; at most the decks' copies are shown (less those of melds left out).
* A table joker is freed (``f[j] = 1``) only if a real copy of its card lies on the new table;
  the freed jokers and the hand jokers placed are the wild jokers, each standing for a card.
* Kept in place: each real card of ``L`` in the meld continuing ``L`` (a term of ``y[m, L]``'s
  weight), and a table joker ``k[j]`` when a place of its card is in that meld and it is not
  freed. Copies of a real card are alike, so the decoding can always put ``L``'s own copy there.

One integer objective folds the order of the rules: points (or cards) placed, then cards (or
points), then the table cards kept in place (the fewest moved); HiGHS solves it to optimality.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader
from importlib.util import find_spec, module_from_spec, spec_from_file_location
from types import ModuleType

from gintutor.engine.cards import Card
from gintutor.engine.carousel.cards import (
    ACE_HIGH,
    DECK_CARDS,
    JOKER_POINTS,
    MIN_MELD,
    RANKS,
    SUITS,
    Hand,
    Meld,
    MeldKind,
    Slot,
    Table,
    make_meld,
)
from gintutor.engine.carousel.rules import Objective


def _bindings() -> ModuleType:
    """HiGHS' compiled bindings, ``highspy._core``, loaded without ``highspy/__init__.py``.

    That file imports numpy for highspy's array API (``import highspy``: 150-190 ms CPU, about
    half the minimal Typer + Rich app's whole start); the extension alone loads in ~14 ms and,
    given its model as a file (:meth:`_Model.solve`), never touches numpy. Measured with
    ``benchmarks/bench_startup.py --only 60-card``: ``carousel analyze`` on a 60-card table
    was ~1.45x the minimal app with ``import highspy``. Where ``highspy`` is imported already
    (or its layout is not the one expected) the package is imported as usual.
    """
    name = "highspy._core"
    if name in sys.modules or "highspy" in sys.modules:
        import highspy._core

        return highspy._core
    spec = find_spec("highspy")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("highspy is not installed", name="highspy")
    for folder in spec.submodule_search_locations:
        for suffix in EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_core" + suffix)
            if os.path.isfile(path):
                loader = ExtensionFileLoader(name, path)
                found = spec_from_file_location(name, path, loader=loader)
                if found is None:
                    continue
                module = module_from_spec(found)
                sys.modules[name] = module  # ``import highspy`` later takes this one
                try:
                    loader.exec_module(module)
                except BaseException:
                    del sys.modules[name]
                    raise
                return module
    import highspy._core

    return highspy._core


_core = _bindings()

_INF = 1e30
OPTIONS: dict[str, bool | int | float | str] = {
    "output_flag": False,
    "threads": 1,
    "mip_rel_gap": 0.0,
    "mip_abs_gap": 0.5,  # the objective is integral: the optimum, not one within a gap
    # Measured on the benchmark's 65 positions (CPU): HiGHS' presolve and its feasibility-jump
    # heuristic cost more than they save on these small, nearly integral models (median
    # 23 -> 6 ms, worst 94 -> 62 ms without them).
    "presolve": "off",
    "mip_heuristic_run_feasibility_jump": False,
}
"""The HiGHS options every solve uses."""

_LONGEST_PIECE = 2 * MIN_MELD - 1
"""The longest sequence a new meld continuing no old meld needs: one of six or more is two
sequences side by side (:func:`_joined` puts them back together)."""
_GROUPS_PER_RANK = SUITS + 1
"""Groups of one rank: the one of all four suits, and four of three (one suit missing)."""


def _sequence(suit: int, start: int, end: int) -> tuple[int, ...]:
    """The card indices of a sequence from position ``start`` to ``end`` (ace 1 or ACE_HIGH)."""
    return tuple(suit * RANKS + (p if p <= RANKS else 1) - 1 for p in range(start, end + 1))


def _templates() -> list[tuple[MeldKind, tuple[int, ...]]]:
    """Every group, and every sequence of 3 to 5 cards (a longer one is pieces of these)."""
    found: list[tuple[MeldKind, tuple[int, ...]]] = []
    for rank in range(RANKS):
        for missing in range(-1, SUITS):  # -1: the group of all four suits
            suits = [s for s in range(SUITS) if s != missing]
            found.append((MeldKind.GROUP, tuple(s * RANKS + rank for s in suits)))
    for suit in range(SUITS):
        for start in range(1, RANKS):
            for end in range(start + 2, min(start + _LONGEST_PIECE - 1, ACE_HIGH) + 1):
                found.append((MeldKind.SEQUENCE, _sequence(suit, start, end)))
    return found


TEMPLATES = _templates()
"""The melds a new meld continuing no old meld can be made of, built once at import."""


SEQUENCES = [
    [
        _sequence(suit, start, end)
        for start in range(1, RANKS)
        for end in range(start + 2, ACE_HIGH + 1)
        if not (start == 1 and end == ACE_HIGH)  # the ace is high or low, never both
    ]
    for suit in range(SUITS)
]
"""Every sequence per suit, built once at import."""


def _continuations(meld: Meld) -> list[tuple[int, ...]]:
    """The melds that may continue ``meld`` (as card indices), up to pieces split off.

    A group: the groups of its rank. A sequence: those sharing a card with it, but none of six
    cards or more whose three first (or last) cards are not the old meld's: such a meld is a
    sequence of three plus a shorter meld keeping the same old cards.
    """
    if meld.kind is MeldKind.GROUP:
        rank = meld.slots[0].card.rank.number - 1
        return [
            cards for _, cards in TEMPLATES[rank * _GROUPS_PER_RANK : (rank + 1) * _GROUPS_PER_RANK]
        ]
    own = {slot.card.index for slot in meld}
    return [
        cards
        for cards in SEQUENCES[meld.suit.index]
        if not own.isdisjoint(cards)
        and (
            len(cards) <= _LONGEST_PIECE
            or (not own.isdisjoint(cards[:MIN_MELD]) and not own.isdisjoint(cards[-MIN_MELD:]))
        )
    ]


@dataclass(frozen=True)
class Solved:
    """The optimum found: the new melds (with the old meld each continues), the hand placed."""

    melds: tuple[tuple[Meld, int | None, tuple[tuple[Slot, int, Slot | None], ...]], ...]
    """(meld, old meld continued or None, per slot: (slot, origin or -1, old slot if freed))."""
    placed: Hand


def solve(
    table: Table,
    hand: Hand,
    decks: int,
    objective: Objective,
    room: dict[int, int],
) -> Solved | None:
    """The best rearrangement of ``table`` with ``hand``'s cards; ``None`` if none places a card.

    ``room``: per card index, copies already shown by melds outside ``table``.
    """
    if not len(hand):
        return None
    real = [0] * DECK_CARDS
    jokers: list[tuple[int, int, Slot]] = []  # (card, old meld, slot) of table jokers
    for index, meld in enumerate(table.melds):
        for slot in meld:
            if slot.joker:
                jokers.append((slot.card.index, index, slot))
            else:
                real[slot.card.index] += 1
    held = [0] * DECK_CARDS
    for card in hand.cards:
        held[card.index] += 1
    declared = [0] * DECK_CARDS
    for c, _, _ in jokers:
        declared[c] += 1
    freeable = [j for j, (c, _, _) in enumerate(jokers) if real[c] + held[c] > 0]
    wild_max = hand.jokers + len(freeable)
    cap = [decks - room.get(c, 0) for c in range(DECK_CARDS)]
    source = [real[c] + held[c] + declared[c] for c in range(DECK_CARDS)]
    model = _Model()

    # The objective's weights: a kept table card 1, then cards (or points) above every count of
    # kept cards, then points (or cards) above every sum of those.
    second = table.card_count + 1
    if objective is Objective.POINTS_THEN_CARDS:
        first = second * (len(hand) + 1)
    else:
        first = second * (hand.points + 1)

    def weight(points: int) -> float:
        if objective is Objective.POINTS_THEN_CARDS:
            return float(points * first + second)
        return float(first + points * second)

    # Per card: its places in new melds = table copies + declared jokers kept + hand + wild.
    balance = [
        model.row(real[c] + declared[c], real[c] + declared[c]) if source[c] or wild_max else -1
        for c in range(DECK_CARDS)
    ]
    meld_columns: list[tuple[int, tuple[int, ...], int]] = []  # (column, cards, label)
    places: dict[tuple[int, int], list[int]] = {}  # (old meld, card) -> its labelled columns

    def add_meld(cards: tuple[int, ...], label: int, kept: int) -> None:
        if sum(1 for c in cards if not source[c]) > wild_max or min(cap[c] for c in cards) <= 0:
            return
        most = 1 if label >= 0 else min(cap[c] for c in cards)
        col = model.column(float(kept), 0.0, float(most), True)
        meld_columns.append((col, cards, label))
        for c in cards:
            model.put(balance[c], col, 1.0)
            if label >= 0:
                places.setdefault((label, c), []).append(col)

    for _, cards in TEMPLATES:
        add_meld(cards, -1, 0)
    for index, meld in enumerate(table.melds):
        own = {slot.card.index for slot in meld if not slot.joker}
        start = len(meld_columns)
        for cards in _continuations(meld):
            add_meld(cards, index, sum(1 for c in cards if c in own))
        # An old meld is continued by at most one new meld.
        label_row = model.row(-_INF, 1.0)
        for col, _, _ in meld_columns[start:]:
            model.put(label_row, col, 1.0)
    hand_columns: list[tuple[int, int]] = []
    for c in range(DECK_CARDS):
        if held[c] and balance[c] >= 0:
            col = model.column(weight(Card.from_index(c).points), 0.0, float(held[c]), True)
            hand_columns.append((col, c))
            model.put(balance[c], col, -1.0)
    wild_row = model.row(0.0, 0.0)
    wild_columns: list[tuple[int, int]] = []
    if wild_max:
        for c in range(DECK_CARDS):
            if cap[c] > 0:
                col = model.column(0.0, 0.0, float(min(wild_max, cap[c])), True)
                wild_columns.append((col, c))
                model.put(balance[c], col, -1.0)
                model.put(wild_row, col, 1.0)
    free_columns: list[tuple[int, int]] = []
    for j in freeable:
        col = model.column(0.0, 0.0, 1.0, True)
        free_columns.append((col, j))
        model.put(balance[jokers[j][0]], col, 1.0)
        model.put(wild_row, col, -1.0)
    hand_joker_column = -1
    if hand.jokers:
        hand_joker_column = model.column(weight(JOKER_POINTS), 0.0, float(hand.jokers), True)
        model.put(wild_row, hand_joker_column, -1.0)
    for c in range(DECK_CARDS):
        freed = [col for col, j in free_columns if jokers[j][0] == c]
        if freed:
            # A joker is freed only by a real copy of its card on the new table.
            r = model.row(-_INF, float(real[c]))
            for col in freed:
                model.put(r, col, 1.0)
            for col, held_card in hand_columns:
                if held_card == c:
                    model.put(r, col, -1.0)
        more = [col for col, held_card in hand_columns if held_card == c]
        more += [col for col, wild_card in wild_columns if wild_card == c]
        if more and cap[c] - real[c] - declared[c] < held[c] + wild_max:
            # At most the decks' copies of a card are shown (jokers standing for it included).
            r = model.row(-_INF, float(cap[c] - real[c] - declared[c]))
            for col in more:
                model.put(r, col, 1.0)
            for col in freed:
                model.put(r, col, -1.0)
    # A table joker kept in place: a place of its card in the meld continuing its old meld,
    # and the joker not freed.
    free_of = {j: col for col, j in free_columns}
    for j, (c, origin, _) in enumerate(jokers):
        col = model.column(1.0, 0.0, 1.0, False)
        r = model.row(-_INF, 0.0)
        model.put(r, col, 1.0)
        for y in places.get((origin, c), ()):
            model.put(r, y, -1.0)
        if j in free_of:
            r = model.row(-_INF, 1.0)
            model.put(r, col, 1.0)
            model.put(r, free_of[j], 1.0)
    x = model.solve()
    hand_placed = {c: x[col] for col, c in hand_columns if x[col]}
    hand_jokers = x[hand_joker_column] if hand_joker_column >= 0 else 0
    if not hand_placed and not hand_jokers:
        return None
    freed_jokers = [j for col, j in free_columns if x[col]]
    wild = {c: x[col] for col, c in wild_columns if x[col]}
    instances = [(cards, label) for col, cards, label in meld_columns for _ in range(x[col])]
    return _decode(table, _joined(instances), hand_placed, freed_jokers, wild, jokers, hand_jokers)


def _joined(instances: list[tuple[tuple[int, ...], int]]) -> list[tuple[tuple[int, ...], int]]:
    """The melds with abutting sequences of a suit joined while at most one continues an old
    meld (the model cuts long sequences into pieces; the same cards then stay in place).

    >>> [cards for cards, _ in _joined([(_sequence(2, 5, 7), -1), (_sequence(2, 2, 4), 3)])]
    [(27, 28, 29, 30, 31, 32)]
    """
    groups = [item for item in instances if item[0][0] // RANKS != item[0][1] // RANKS]
    runs: list[tuple[int, int, int, int]] = []  # (suit, start, end, label)
    for cards, label in instances:
        if cards[0] // RANKS == cards[1] // RANKS:
            start = cards[0] % RANKS + 1
            runs.append((cards[0] // RANKS, start, start + len(cards) - 1, label))
    joined = True
    while joined:
        joined = False
        runs.sort()
        for a, (suit, start, end, label) in enumerate(runs):
            for b, (suit_b, start_b, end_b, label_b) in enumerate(runs):
                if (
                    suit_b == suit
                    and start_b == end + 1
                    and min(label, label_b) < 0
                    and not (start == 1 and end_b == ACE_HIGH)
                ):
                    runs[a] = (suit, start, end_b, max(label, label_b))
                    del runs[b]
                    joined = True
                    break
            if joined:
                break
    return groups + [(_sequence(suit, start, end), label) for suit, start, end, label in runs]


class _Model:
    """A mixed-integer programme built column by column (maximised), solved by HiGHS."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.integer: list[int] = []
        self.entries: list[list[tuple[int, float]]] = []
        self.row_lower: list[float] = []
        self.row_upper: list[float] = []

    def column(self, cost: float, low: float, high: float, integer: bool) -> int:
        self.cost.append(cost)
        self.lower.append(low)
        self.upper.append(high)
        self.integer.append(1 if integer else 0)
        self.entries.append([])
        return len(self.cost) - 1

    def row(self, low: float, high: float) -> int:
        self.row_lower.append(low)
        self.row_upper.append(high)
        return len(self.row_lower) - 1

    def put(self, row: int, column: int, value: float) -> None:
        self.entries[column].append((row, value))

    def solve(self) -> list[int]:
        """The optimal values of the columns (rounded: every column is integral at the optimum)."""
        highs = _core._Highs()
        for name, value in OPTIONS.items():
            highs.setOptionValue(name, value)
        # Passed as a file: highspy's array arguments would import numpy (see _bindings).
        with tempfile.TemporaryDirectory(prefix="gintutor-") as folder:
            path = os.path.join(folder, "model.mps")
            with open(path, "w", encoding="ascii") as file:
                file.write(self.mps())
            read = highs.readModel(path)
        if read == _core.HighsStatus.kError:
            raise RuntimeError("HiGHS could not read the model")
        highs.run()
        status = highs.getModelStatus()
        if status != _core.HighsModelStatus.kOptimal:
            raise RuntimeError(f"HiGHS: {highs.modelStatusToString(status)}")
        values = highs.getSolution().col_value
        if len(values) != len(self.cost):
            raise RuntimeError("HiGHS read another model than the one written")
        return [round(v) for v in values]

    def mps(self) -> str:
        """The programme in free MPS format: columns ``c0...`` in order, rows ``r0...``."""
        lines = ["NAME gintutor", "OBJSENSE", "    MAX", "ROWS", " N obj"]
        rhs: list[str] = []
        ranges: list[str] = []
        for r, (low, high) in enumerate(zip(self.row_lower, self.row_upper, strict=True)):
            if low == high:
                lines.append(f" E r{r}")
                value = high
            elif low <= -_INF:
                lines.append(f" L r{r}")
                value = high
            else:
                lines.append(f" G r{r}")
                value = low
                if high < _INF:
                    ranges.append(f"    rng r{r} {high - low!r}")
            if value:
                rhs.append(f"    rhs r{r} {value!r}")
        lines.append("COLUMNS")
        bounds: list[str] = []
        integral = False
        for c, entries in enumerate(self.entries):
            if self.integer[c] != integral:
                integral = not integral
                marker = "INTORG" if integral else "INTEND"
                lines.append(f"    m{c} 'MARKER' '{marker}'")
            lines.append(f"    c{c} obj {self.cost[c]!r}")
            lines.extend(f"    c{c} r{r} {v!r}" for r, v in entries)
            if self.lower[c]:
                bounds.append(f" LO bnd c{c} {self.lower[c]!r}")
            if self.upper[c] < _INF:
                bounds.append(f" UP bnd c{c} {self.upper[c]!r}")
        if integral:
            lines.append(f"    m{len(self.entries)} 'MARKER' 'INTEND'")
        lines += ["RHS", *rhs]
        if ranges:
            lines += ["RANGES", *ranges]
        lines += ["BOUNDS", *bounds, "ENDATA", ""]
        return "\n".join(lines)


# What fills a place of a chosen meld (:func:`_decode`).
_FILL_TABLE = 0
"""A real table card."""
_FILL_KEPT_JOKER = 1
"""A table joker left standing for its card."""
_FILL_HAND = 2
"""A real card from the hand."""
_FILL_FREED_JOKER = 3
"""A table joker freed by its real card, now standing for this one."""
_FILL_HAND_JOKER = 4
"""A joker from the hand."""


def _decode(
    table: Table,
    instances: list[tuple[tuple[int, ...], int]],
    hand_placed: dict[int, int],
    freed: list[int],
    wild: dict[int, int],
    jokers: list[tuple[int, int, Slot]],
    hand_jokers: int,
) -> Solved:
    """Fill the chosen melds' places with the table's cards, the hand's and the jokers."""
    # Fillers per card: (kind, origin, old slot), the kinds _FILL_TABLE ... _FILL_HAND_JOKER.
    fillers: dict[int, list[tuple[int, int, Slot | None]]] = {}
    for index, meld in enumerate(table.melds):
        for slot in meld:
            if not slot.joker:
                fillers.setdefault(slot.card.index, []).append((_FILL_TABLE, index, None))
    freed_set = set(freed)
    for j, (c, origin, slot) in enumerate(jokers):
        if j not in freed_set:
            fillers.setdefault(c, []).append((_FILL_KEPT_JOKER, origin, slot))
    for c, n in hand_placed.items():
        fillers.setdefault(c, []).extend([(_FILL_HAND, -1, None)] * n)
    wild_queue: list[tuple[int, int, Slot | None]] = [
        (_FILL_FREED_JOKER, jokers[j][1], jokers[j][2]) for j in freed
    ] + [(_FILL_HAND_JOKER, -1, None)] * hand_jokers
    for c in sorted(wild):
        fillers.setdefault(c, []).extend(wild_queue[: wild[c]])
        del wild_queue[: wild[c]]
    places: list[list[tuple[Slot, int, Slot | None] | None]] = [
        [None] * len(cards) for cards, _ in instances
    ]
    # Labelled places first take their own old meld's card (kept in place).
    for order in (True, False):
        for i, (cards, label) in enumerate(instances):
            for p, c in enumerate(cards):
                if places[i][p] is not None:
                    continue
                pool = fillers[c]
                pick = -1
                for n, (kind, origin, _) in enumerate(pool):
                    if order and origin == label and kind in (_FILL_TABLE, _FILL_KEPT_JOKER):
                        pick = n
                        break
                if order and pick < 0:
                    continue
                if pick < 0:
                    pick = 0
                kind, origin, old = pool.pop(pick)
                card = Card.from_index(c)
                slot = Slot(
                    card, joker=kind in (_FILL_KEPT_JOKER, _FILL_FREED_JOKER, _FILL_HAND_JOKER)
                )
                places[i][p] = (slot, origin, old if kind == _FILL_FREED_JOKER else None)
    melds = []
    for i, (_, label) in enumerate(instances):
        slots = tuple(s for s in places[i] if s is not None)
        meld = make_meld(s for s, _, _ in slots)
        kept = any(origin == label and old is None for _, origin, old in slots)
        melds.append((meld, label if label >= 0 and kept else None, slots))
    placed = [Card.from_index(c) for c, n in hand_placed.items() for _ in range(n)]
    return Solved(tuple(melds), Hand.of(placed, hand_jokers))
