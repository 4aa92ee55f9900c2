"""The points-and-cards optimum of a Carousel play, without the moved-cards tie-break.

Dropping the question of which old meld a new one continues makes every card of a place
interchangeable: a place (position, suit) holds a *count* of units (table cards, jokers kept,
hand cards placed, wild jokers), and a suit's open sequences are a multiset of lengths capped
at 3 ("3 or more" is one state). This is the value-by-value programme of van Rijn, Takes & Vis
(2015) for Rummikub: positions 1 (ace low) to 14 (ace high), suit by suit, a position's groups
checked once its four suits are done. The whole state is packed in one int.

:func:`Relaxed.suffix` is the best (points, cards) still reachable from a state; the exact
solver uses it as a bound (it is exact for points and cards, and only too high in nothing).

State bits (``S`` is a suit 0-3):

* runs of suit S: 4 bits at ``4 * S`` (an index into :data:`RUN_STATES`);
* cards of suit S put aside for this position's groups: 2 bits at ``16 + 2 * S``;
* wild jokers used: 2 bits at 24; table jokers freed: 2 bits at 26;
* aces of suit S kept back for Q-K-A: 2 bits at ``28 + 2 * S``; ace places left at the high
  end: 2 bits at ``36 + 2 * S``. Both stay 0 where they cannot matter (no Q-K-A possible in
  the suit; no wild joker for the room), which keeps the states few.
"""

from __future__ import annotations

from itertools import combinations, permutations, product
from typing import NamedTuple

from gintutor.engine.carousel.cards import ACE_HIGH, RANKS, SUITS

STEPS = SUITS + 1
"""Layers per position: one per suit (steps 0-3), then its groups (:data:`GROUPS_STEP`)."""
GROUPS_STEP = SUITS
"""The step of a position where its groups are checked, once its four suits are placed."""
LAYERS = ACE_HIGH * STEPS
"""Layers of the programme: :func:`layer_of` for positions 1 to ``ACE_HIGH``. The aces at the
high end have no groups, so their groups' layer is :data:`LAST_LAYER`, every place played."""
LAST_LAYER = LAYERS - 1
"""The layer after every place: only the jokers' count is left to check."""


def layer_of(position: int, step: int) -> int:
    """The layer that plays ``step`` (a suit, or :data:`GROUPS_STEP`) of ``position``.

    >>> layer_of(1, 0), layer_of(1, GROUPS_STEP), layer_of(ACE_HIGH, 0), layer_of(ACE_HIGH, 3)
    (0, 4, 65, 68)
    """
    return (position - 1) * STEPS + step


HIGH_ACES = layer_of(ACE_HIGH, 0)
"""The first layer of the aces at the high end (Q-K-A): suit ``s`` at ``HIGH_ACES + s``."""
NEVER = 99
FIELD = 1 << 9
"""Packed value fields: ``(points * FIELD + cards) * FIELD + kept``; each stays below 512."""

RUN_STATES: tuple[tuple[int, ...], ...] = (
    (),
    (1,),
    (2,),
    (3,),
    (1, 1),
    (1, 2),
    (1, 3),
    (2, 2),
    (2, 3),
    (3, 3),
)
RUN_INDEX = {runs: i for i, runs in enumerate(RUN_STATES)}
_POOL, _WILD, _FREED, _BACK, _ROOM = 16, 24, 26, 28, 36
_POOL_MASK = 0xFF << _POOL
_ENDS_MASK = 0xFFFF  # aces kept back and ace room, from bit _BACK
_SPLIT = layer_of(2, 0)  # the layer after position 1 (where the aces kept back are known)
_NONE: dict[int, int] = {}  # the vector of a dead end (shared: never changed)


def _transitions(runs: tuple[int, ...], units: int) -> list[tuple[int, int]]:
    """Every (runs after, cards put aside for groups) for ``units`` cards at one place.

    Each unit extends an open sequence, starts a new one, or goes to the groups; an open
    sequence not extended must already hold 3 or more cards (it ends here).
    """
    out: set[tuple[int, int]] = set()
    for extended in range(min(units, len(runs)) + 1):
        for chosen in set(combinations(range(len(runs)), extended)):
            if any(runs[j] < 3 for j in range(len(runs)) if j not in chosen):
                continue
            after = [min(runs[j] + 1, 3) for j in chosen]
            for new in range(units - extended + 1):
                pooled = units - extended - new
                if len(after) + new > 2 or pooled > 2:
                    continue
                out.add((RUN_INDEX[tuple(sorted(after + [1] * new))], pooled))
    # A choice whose open sequences another choice with the same cards pooled dominates can
    # never do better: leave it out (fewer states, same optimum).
    return sorted(
        (after, pooled)
        for after, pooled in out
        if not any(
            other != after and pooled == p and dominates(RUN_STATES[other], RUN_STATES[after])
            for other, p in out
        )
    )


def dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """True if open sequences ``a`` can follow every continuation of ``b`` (lengths 1-3).

    Each sequence of ``b`` matches one of ``a`` at least as long, and the rest of ``a`` are
    long enough (3) to end at any time.

    >>> dominates((3,), ()), dominates((2, 3), (1,)), dominates((1,), ())
    (True, True, False)
    """
    for order in permutations(range(len(a)), len(b)):
        if all(a[j] >= b[i] for i, j in enumerate(order)) and all(
            a[j] == 3 for j in range(len(a)) if j not in order
        ):
            return True
    return False


def _closes(runs: tuple[int, ...], units: int) -> bool:
    """True if ``units`` aces at the high end can end every open sequence validly."""
    if units > len(runs):
        return False
    for chosen in combinations(range(len(runs)), units):
        if all(runs[j] >= (2 if j in chosen else 3) for j in range(len(runs))):
            return True
    return False


TRANSITIONS = tuple(tuple(_transitions(runs, u) for u in range(5)) for runs in RUN_STATES)
CLOSES = tuple(tuple(_closes(runs, u) for u in range(5)) for runs in RUN_STATES)
CLOSE_RANGE = tuple(
    (row.index(True), 4 - row[::-1].index(True)) if True in row else None for row in CLOSES
)
"""Per open sequences, the (fewest, most) aces at the high end that end them all, or None:
every count between closes them too (checked by the tests)."""


def _groups_ok(counts: tuple[int, ...]) -> bool:
    """True if cards of one rank, ``counts[s]`` of suit s, split into groups of 3-4 suits."""
    total = sum(counts)
    if total == 0:
        return True
    doubles = sum(1 for c in counts if c == 2)
    singles = sum(1 for c in counts if c == 1)
    if doubles == 0 and 3 <= singles <= 4:
        return True
    # Two groups: each double suit in both, the singles shared out.
    return any(
        3 <= doubles + x <= 4 and 3 <= doubles + singles - x <= 4 for x in range(singles + 1)
    )


_GROUPED = {
    counts[0] | counts[1] << 2 | counts[2] << 4 | counts[3] << 6
    for counts in product(range(3), repeat=4)  # at most 2 copies of a card
    if _groups_ok(counts)
}
GROUPS_OK = tuple(pool in _GROUPED for pool in range(256))
_GROUPED_POOLS = sorted(_GROUPED)


class Place(NamedTuple):
    """What one (position, suit) holds: table cards, table jokers, hand copies, copies allowed."""

    table: int = 0
    jokers: int = 0
    hand: int = 0
    room: int = 2


class Relaxed:
    """The relaxed programme for one position of play; :meth:`suffix` is memoised per layer.

    ``places[p][s]`` for positions 1-13; ``max_wild`` bounds the wild jokers (freed ones and
    the hand's), ``hand_jokers`` the ones the hand may add. (A plain class, like
    :class:`Place` a named tuple: a dataclass costs most of a millisecond at import, and every
    ``carousel analyze`` imports this module.)
    """

    def __init__(
        self,
        places: list[list[Place]],
        card_weight: list[int],
        joker_weight: int,
        max_wild: int,
        hand_jokers: int,
    ) -> None:
        self.places = places
        self.card_weight = card_weight
        self.joker_weight = joker_weight
        self.max_wild = max_wild
        self.hand_jokers = hand_jokers
        self.memo: list[dict[int, int]] = [{} for _ in range(LAYERS)]
        self.vectors: list[dict[int, dict[int, int]]] = [{} for _ in range(LAYERS)]
        self._deltas: dict[int, list[tuple[int, int, int]]] = {}
        self._ends: dict[int, int] | None = None
        # Aces kept back for Q-K-A only where a Q and a K can be there; the ace room at the
        # high end only matters to wild jokers.
        self.high = [
            sum(
                1
                for p in (RANKS - 1, RANKS)  # a queen and a king
                if self.places[p][s].table + self.places[p][s].jokers + self.places[p][s].hand
            )
            + min(self.max_wild, 2)
            >= 2
            for s in range(SUITS)
        ]
        self.rooms = [
            self.places[1][s].room if self.high[s] and self.max_wild else 0 for s in range(SUITS)
        ]
        positions = range(RANKS + 1)  # 0 (before the first) to the king
        self._options = [[self._place_options(p, s) for s in range(SUITS)] for p in positions]
        self._units = [[self._unit_range(p, s) for s in range(SUITS)] for p in positions]
        self._pools = [self._pool_prefixes(p) for p in positions]
        # Per (position, suit): the counts of that suit the position's full pools can hold.
        self._pooled_ok = [
            [{(pool >> (2 * s)) & 3 for pool in self._pools[p][3]} for s in range(SUITS)]
            for p in positions
        ]
        self._need: dict[int, int] = {}
        self._least = [-1] * (
            len(positions) * SUITS * 16
        )  # least_need by (position * 4 + suit) * 16 + runs
        # Per suit layer of positions 2-13: (shift, least_need index less runs, position,
        # suit) of the other suits, at the position each has reached.
        self._others = [
            [
                (4 * other, (p * 4 + other) * 16, p, other)
                for other in range(SUITS)
                if other != layer % STEPS
                for p in [layer // STEPS + 1 if other < layer % STEPS else layer // STEPS]
            ]
            for layer in range(LAYERS)
        ]
        self._reached: dict[int, tuple[tuple[int, int], ...]] = {}
        self._closings = [
            [self._closing(runs, back, room) for runs in range(len(RUN_STATES))]
            for back in range(4)
            for room in range(4)
        ]
        self._least_closing = [
            min(self._closing(runs, b, r) for b in range(3) for r in range(3))
            for runs in range(len(RUN_STATES))
        ]

    def _unit_range(self, position: int, suit: int) -> tuple[int, int]:
        """Fewest and most real units a place can hold (jokers freed where they can be)."""
        if position == 0:
            return (0, 0)
        place = self.places[position][suit]
        low = place.table + place.jokers - min(place.jokers, place.table + place.hand)
        high = min(place.room, place.table + place.jokers + place.hand)
        return (low, high)

    def _pool_prefixes(self, position: int) -> list[set[int]]:
        """Per suit S, the groups' cards of suits 0..S that the later suits can complete."""
        if position == 0:
            return [set(), set(), set(), set()]
        most = [
            min(2, self._units[position][s][1] + self.max_wild, self.places[position][s].room)
            for s in range(SUITS)
        ]
        full = [
            pool
            for pool in _GROUPED_POOLS
            if pool & 3 <= most[0]
            and (pool >> 2) & 3 <= most[1]
            and (pool >> 4) & 3 <= most[2]
            and pool >> 6 <= most[3]
        ]
        return [{pool & ((1 << (2 * s + 2)) - 1) for pool in full} for s in range(SUITS)]

    def _reach(self, position: int, suit: int, runs: int) -> tuple[tuple[int, int], ...]:
        """(open sequences after position 13, fewest wild jokers on the way) for every way
        the suit's open sequences ``runs`` after ``position`` can go on (the other suits
        always completing the groups)."""
        key = (position * 4 + suit) * 16 + runs
        found = self._reached.get(key)
        if found is not None:
            return found
        if position == RANKS:
            found = ((runs, 0),)
        else:
            best: dict[int, int] = {}
            low, high = self._units[position + 1][suit]
            pooled_ok = self._pooled_ok[position + 1][suit]
            limit = min(self.places[position + 1][suit].room, high + self.max_wild)
            for units in range(low, limit + 1):
                wild = max(0, units - high)
                for after, pooled in TRANSITIONS[runs][units]:
                    if pooled and pooled not in pooled_ok:
                        continue
                    for end, more in self._reach(position + 1, suit, after):
                        if wild + more < best.get(end, NEVER):
                            best[end] = wild + more
            found = tuple(best.items())
        self._reached[key] = found
        return found

    def _closing(self, runs: int, back: int, room: int) -> int:
        """The fewest wild jokers (as aces, at most ``room``) that with ``back`` aces kept
        back end every open sequence ``runs`` at the high end (:data:`NEVER` if none do)."""
        for extra in range(min(room, self.max_wild) + 1):
            if back + extra <= 4 and CLOSES[runs][back + extra]:
                return extra
        return NEVER

    def need(self, position: int, suit: int, runs: int, back: int, room: int) -> int:
        """The fewest wild jokers the suit still needs so that its open sequences after
        ``position`` all end validly (:data:`NEVER` if impossible). A relaxation: the other
        suits always complete the groups."""
        key = (((position * 4 + suit) * 16 + runs) * 4 + back) * 4 + room  # one int: quick
        found = self._need.get(key)
        if found is None:
            found = NEVER
            closing = self._closings[back * 4 + room]
            for end, wild in self._reach(position, suit, runs):
                if wild + closing[end] < found:
                    found = wild + closing[end]
            self._need[key] = found
        return found

    def least_need(self, position: int, suit: int, runs: int, back: int, room: int) -> int:
        """:meth:`need` at the most favourable aces kept back and ace room (0-2 each)."""
        key = (position * 4 + suit) * 16 + runs
        found = self._least[key]
        if found < 0:
            found = NEVER
            closing = self._least_closing
            for end, wild in self._reach(position, suit, runs):
                if wild + closing[end] < found:
                    found = wild + closing[end]
            self._least[key] = found
        return found

    def _place_options(self, position: int, suit: int) -> list[tuple[int, int, int, int, int]]:
        """(wild, freed, units, gain, kept back) choices at a place (positions 1-13)."""
        if position == 0:
            return []
        place = self.places[position][suit]
        out = []
        for placed in range(place.hand + 1):
            for freed in range(min(place.jokers, place.table + placed) + 1):
                real = place.table + placed + place.jokers - freed
                for wild in range(self.max_wild + 1):
                    units = real + wild
                    if units > place.room:
                        break
                    gain = placed * self.card_weight[position]
                    if position != 1:
                        out.append((wild, freed, units, gain, 0))
                        continue
                    for back in range(real + 1 if self.high[suit] else 1):
                        out.append((wild, freed, units - back, gain, back))
        return out

    def start(self) -> int:
        """The state before position 1: ace room at the high end per suit."""
        state = 0
        for s in range(SUITS):
            state |= self.rooms[s] << (_ROOM + 2 * s)
        return state

    def suffix(self, layer: int, state: int) -> int:
        """The best packed (points, cards) value still reachable, or -1 if none."""
        if _SPLIT <= layer < HIGH_ACES:
            if self._ends is None:
                self._ends = self._collect_ends()
            index = self._ends.get((state >> _BACK) & _ENDS_MASK)
            if index is not None:
                return self.vector(layer, state & ~(_ENDS_MASK << _BACK)).get(index, -1)
        memo = self.memo[layer]
        found = memo.get(state)
        if found is not None:
            return found
        best = -1
        if layer == LAST_LAYER:
            wild = (state >> _WILD) & 3
            freed = (state >> _FREED) & 3
            if freed <= wild <= freed + self.hand_jokers:
                best = (wild - freed) * self.joker_weight
        else:
            for gain, nxt in self.moves(layer, state):
                value = self.suffix(layer + 1, nxt)
                if value >= 0 and value + gain > best:
                    best = value + gain
        memo[state] = best
        return best

    def _collect_ends(self) -> dict[int, int]:
        """The (aces kept back, ace room) bits met after position 1, each with its index."""
        layer = {self.start()}
        for index in range(_SPLIT):
            layer = {nxt for state in layer for _, nxt in self.moves(index, state)}
        ends = sorted({(state >> _BACK) & _ENDS_MASK for state in layer})
        return {end: i for i, end in enumerate(ends)}

    def _finish(self, state: int, end: int) -> int:
        """:meth:`suffix` after position 13 (the aces at the high end), for ace ending
        ``end``: each suit's open sequences end with its aces kept back and some wild
        jokers as aces; the jokers used in all must be the freed ones and some of the hand's.

        The wild jokers a suit may add are a range (:data:`CLOSE_RANGE`), so the totals are
        one too: the sum of the suits' ranges, at most ``max_wild``.
        """
        low = high = (state >> _WILD) & 3
        for suit in range(SUITS):
            closing = CLOSE_RANGE[(state >> (4 * suit)) & 15]
            if closing is None:
                return -1
            back = (end >> (2 * suit)) & 3
            room = (end >> (_ROOM - _BACK + 2 * suit)) & 3
            least, most = max(0, closing[0] - back), min(room, self.max_wild, closing[1] - back)
            if least > most:
                return -1
            low, high = low + least, high + most
        freed = (state >> _FREED) & 3
        best = min(high, self.max_wild, freed + self.hand_jokers)
        return -1 if best < max(low, freed) else (best - freed) * self.joker_weight

    def vector(self, layer: int, state: int) -> dict[int, int]:
        """:meth:`suffix` of ``state`` (its ace bits clear) for every ace ending at once, as
        {ending index: value} (endings that cannot be reached left out: a table may have a
        hundred endings and reach a few from a state).

        Between position 2 and 13 the aces kept back and the ace room do not change the
        moves, only the end: one pass serves every ending. The dicts are shared between
        states: never changed once made.
        """
        memo = self.vectors[layer]
        found = memo.get(state)
        if found is not None:
            return found
        assert self._ends is not None
        result: dict[int, int] = _NONE
        if layer == HIGH_ACES:
            result = {}
            for end, index in self._ends.items():
                value = self._finish(state, end)
                if value >= 0:
                    result[index] = value
        elif layer % STEPS == GROUPS_STEP:
            if GROUPS_OK[(state >> _POOL) & 0xFF]:
                result = self.vector(layer + 1, state & ~_POOL_MASK)
        else:
            # The lenient moves (the ace bits unknown: prune only what no ace ending could
            # finish), inlined: this is the hot loop.
            others = 0
            if self.max_wild:
                least = self._least
                for shift, index, position, suit in self._others[layer]:
                    runs = (state >> shift) & 15
                    wild = least[index + runs]
                    if wild < 0:
                        wild = self.least_need(position, suit, runs, 0, 0)
                    others += wild
            if others <= self.max_wild:
                suit = layer % STEPS
                key = (layer * 16 + ((state >> (4 * suit)) & 15)) * 4096 + (
                    (state >> _POOL) & 0xFFF  # the pool, jokers used and jokers freed
                )
                deltas = self._deltas.get(key)
                if deltas is None:
                    deltas = self._deltas[key] = self._lenient_deltas(layer, state)
                base = state & ~(15 << (4 * suit))
                room = self.max_wild - others
                if len(deltas) == 1:  # the usual case
                    parts = (
                        [(deltas[0][0], self.vector(layer + 1, base + deltas[0][1]))]
                        if deltas[0][2] <= room
                        else []
                    )
                else:
                    parts = [
                        (gain, self.vector(layer + 1, base + delta))
                        for gain, delta, wild in deltas
                        if wild <= room
                    ]
                if len(parts) == 1:
                    gain, values = parts[0]
                    result = {i: v + gain for i, v in values.items()} if gain else values
                elif parts:
                    result = {}
                    get = result.get
                    for gain, values in parts:
                        for i, value in values.items():
                            value += gain
                            if value > get(i, -1):
                                result[i] = value
        memo[state] = result
        return result

    def _lenient_deltas(self, layer: int, state: int) -> list[tuple[int, int, int]]:
        """The lenient moves of a suit's layer (positions 2-13) as (gain, delta, wild jokers
        then used or still needed by this suit): the next state is the state without this
        suit's runs plus ``delta``, if the other suits' least need leaves room for ``wild``.
        They depend on this suit's runs, the jokers used and freed and the pool only."""
        position, suit = layer // STEPS + 1, layer % STEPS
        out: list[tuple[int, int, int]] = []
        runs = (state >> (4 * suit)) & 15
        wild_used = (state >> _WILD) & 3
        wild_left = self.max_wild - wild_used
        freed_now = (state >> _FREED) & 3
        pool_ok = self._pools[position][suit]
        pool_now = (state >> _POOL) & 0xFF
        need = self.least_need
        for wild, freed, units, gain, _ in self._options[position][suit]:
            if wild > wild_left or freed_now + freed > 3:
                continue
            head = (wild << _WILD) + (freed << _FREED)
            wild_head = wild_used + wild
            for after, pooled in TRANSITIONS[runs][units]:
                if (pool_now | (pooled << (2 * suit))) not in pool_ok:
                    continue
                wild_after = wild_head + need(position, suit, after, 0, 0)
                if wild_after > self.max_wild:
                    continue
                delta = head + (after << (4 * suit)) + (pooled << (_POOL + 2 * suit))
                out.append((gain, delta, wild_after))
        return out

    def moves(self, layer: int, state: int) -> list[tuple[int, int]]:
        """(gain, next state) for every way to play the layer's place (the lenient moves of a
        state whose ace bits are unknown are :meth:`vector`'s, from :meth:`_lenient_deltas`)."""
        out: list[tuple[int, int]] = []
        if layer >= HIGH_ACES:
            suit = layer - HIGH_ACES
            runs = (state >> (4 * suit)) & 15
            back = (state >> (_BACK + 2 * suit)) & 3
            room = (state >> (_ROOM + 2 * suit)) & 3
            wild = (state >> _WILD) & 3
            cleared = state & ~(
                (15 << (4 * suit)) | (3 << (_BACK + 2 * suit)) | (3 << (_ROOM + 2 * suit))
            )
            for extra in range(min(room, self.max_wild - wild) + 1):
                if CLOSES[runs][back + extra]:
                    out.append((0, cleared + (extra << _WILD)))
            return out
        position, step = divmod(layer, STEPS)
        position += 1
        if step == GROUPS_STEP:
            if GROUPS_OK[(state >> _POOL) & 0xFF]:
                out.append((0, state & ~_POOL_MASK))
            return out
        suit = step
        runs = (state >> (4 * suit)) & 15
        wild_left = self.max_wild - ((state >> _WILD) & 3)
        freed_now = (state >> _FREED) & 3
        base = state & ~(15 << (4 * suit))
        pool_ok = self._pools[position][suit]
        pool_now = (state >> _POOL) & 0xFF
        back_now = (state >> (_BACK + 2 * suit)) & 3
        room_now = (state >> (_ROOM + 2 * suit)) & 3
        need = self.need
        # The wild jokers the other suits still need: the same for every move of this suit.
        others = 0
        if self.max_wild and position > 1:
            for other in range(SUITS):
                if other != suit:
                    others += need(
                        position if other < suit else position - 1,
                        other,
                        (state >> (4 * other)) & 15,
                        (state >> (_BACK + 2 * other)) & 3,
                        (state >> (_ROOM + 2 * other)) & 3,
                    )
        for wild, freed, units, gain, back in self._options[position][suit]:
            if wild > wild_left or freed_now + freed > 3:
                continue
            head = base + (wild << _WILD) + (freed << _FREED)
            if position == 1:
                room = self.places[1][suit].room - units - back
                if room < 0:
                    continue
                if not self.rooms[suit]:
                    room = 0
                head = (
                    (head & ~(3 << (_ROOM + 2 * suit)))
                    + (back << (_BACK + 2 * suit))
                    + (room << (_ROOM + 2 * suit))
                )
            else:
                back, room = back_now, room_now
            wild_head = (head >> _WILD) & 3
            for after, pooled in TRANSITIONS[runs][units]:
                if (pool_now | (pooled << (2 * suit))) not in pool_ok:
                    continue
                wild_after = wild_head + need(position, suit, after, back, room)
                if wild_after > self.max_wild or wild_after + others > self.max_wild:
                    continue
                out.append((gain, head + (after << (4 * suit)) + (pooled << (_POOL + 2 * suit))))
        return out
