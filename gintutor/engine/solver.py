"""The meld solver: least deadwood, every optimal arrangement, the best discard of 11 cards.

Hot paths take a hand as a 52-bit mask (bit ``suit * 13 + rank - 1``, suits C D H S). Runs never
cross suits, so the least deadwood of the cards left after choosing sets is a sum of four
per-suit table look-ups (:data:`RUN_DEADWOOD`, 8192 entries); sets are enumerated only for the
ranks held three or four times. A greedy "biggest meld first" is wrong (RULES.md §4 E1):

>>> solve(CardSet.parse("7C 7D 7H 5H 6H 8H AS 2S 3S KD")).deadwood
24
>>> min_deadwood_mask(CardSet.parse("7C 7D 7H 7S 5H 6H 8H AS 2S 3S").mask)
0
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gintutor.engine.cards import CARD_POINTS, CARDS, SUIT_BITS, Card, CardSet
from gintutor.engine.melds import MELDS_THROUGH, Meld, merge_runs, sorted_melds
from gintutor.errors import CardError, IllegalError

_NO_DISCARD = 10_000
"""Sentinel gain for an empty suit: nothing there can be discarded."""


def _run_deadwood_table() -> list[int]:
    """Least deadwood of each 13-bit suit mask when only runs may be melded."""
    table = [0] * (1 << SUIT_BITS)
    for mask in range(1, 1 << SUIT_BITS):
        low = mask & -mask
        rank = low.bit_length() - 1
        # The lowest card is either deadwood or the bottom of a run of length 3 or more.
        best = min(rank + 1, 10) + table[mask ^ low]
        run = top = low
        while mask & (top := top << 1):
            run |= top
            if run.bit_count() >= 3:
                best = min(best, table[mask ^ run])
        table[mask] = best
    return table


RUN_DEADWOOD: list[int] = _run_deadwood_table()
"""``RUN_DEADWOOD[m]``: least deadwood of the cards of one suit (13-bit mask ``m``) in runs."""


def _discard_gain_table() -> list[int]:
    """How much a suit's run deadwood drops at best by discarding one of its cards."""
    gain = [-_NO_DISCARD] * (1 << SUIT_BITS)
    for mask in range(1, 1 << SUIT_BITS):
        rest = mask
        best_after = _NO_DISCARD
        while rest:
            low = rest & -rest
            best_after = min(best_after, RUN_DEADWOOD[mask ^ low])
            rest ^= low
        gain[mask] = RUN_DEADWOOD[mask] - best_after
    return gain


DISCARD_GAIN: list[int] = _discard_gain_table()
"""``DISCARD_GAIN[m]``: the best drop in ``RUN_DEADWOOD[m]`` from discarding one card of ``m``."""


def _set_choices(c: int, d: int, h: int, s: int, triple: int) -> list[tuple[int, int, int, int]]:
    """The suit masks left after each way of melding sets from the ranks in ``triple``.

    A rank held three times is melded as a set or not at all; a rank held four times as the
    set of four, any set of three (freeing the fourth card for a run), or not at all.
    """
    choices = [(c, d, h, s)]
    while triple:
        bit = triple & -triple
        triple ^= bit
        held = [bool(x & bit) for x in (c, d, h, s)]
        removals: list[tuple[bool, bool, bool, bool]] = [(held[0], held[1], held[2], held[3])]
        if all(held):
            removals += [
                (i != 0, i != 1, i != 2, i != 3) for i in range(4)
            ]
        more = []
        for cc, dd, hh, ss in choices:
            for rc, rd, rh, rs in removals:
                more.append(
                    (
                        cc & ~bit if rc else cc,
                        dd & ~bit if rd else dd,
                        hh & ~bit if rh else hh,
                        ss & ~bit if rs else ss,
                    )
                )
        choices += more
    return choices


def min_deadwood_mask(mask: int) -> int:
    """Least deadwood of a hand given as a mask (any number of cards; 10 in normal play).

    >>> min_deadwood_mask(CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D KS").mask)
    10
    """
    # The suit split and the test for ranks held three times are inlined here and in
    # best_discard_deadwood_mask: this is the hot path, and a helper call costs a third.
    c = mask & 0x1FFF
    d = mask >> 13 & 0x1FFF
    h = mask >> 26 & 0x1FFF
    s = mask >> 39
    triple = c & d & (h | s) | h & s & (c | d)
    t = RUN_DEADWOOD
    if not triple:
        return t[c] + t[d] + t[h] + t[s]
    return min(t[a] + t[b] + t[e] + t[f] for a, b, e, f in _set_choices(c, d, h, s, triple))


def best_discard_deadwood_mask(mask: int) -> int:
    """Least deadwood after the best discard from a hand (11 cards after drawing).

    Every card may be discarded; callers with a forbidden card use :func:`discard_deadwoods`.

    >>> best_discard_deadwood_mask(CardSet.parse("5D 6S 3D 5S 4S 6C 6D 2H 4D 2S 5H").mask)
    9
    """
    c = mask & 0x1FFF
    d = mask >> 13 & 0x1FFF
    h = mask >> 26 & 0x1FFF
    s = mask >> 39
    triple = c & d & (h | s) | h & s & (c | d)
    t = RUN_DEADWOOD
    g = DISCARD_GAIN
    if not triple:
        return t[c] + t[d] + t[h] + t[s] - max(g[c], g[d], g[h], g[s])
    return min(
        t[a] + t[b] + t[e] + t[f] - max(g[a], g[b], g[e], g[f])
        for a, b, e, f in _set_choices(c, d, h, s, triple)
    )


def discard_deadwoods(mask: int, forbidden: int = 0) -> list[tuple[int, int]]:
    """``(card index, least deadwood after discarding it)`` for every legal discard, in card order.

    ``forbidden`` is the mask of the card just taken from the discard pile (it may not be
    discarded this turn), or 0.
    """
    out = []
    rest = mask & ~forbidden
    while rest:
        low = rest & -rest
        out.append((low.bit_length() - 1, min_deadwood_mask(mask ^ low)))
        rest ^= low
    return out


def packings(mask: int, max_deadwood: int) -> list[tuple[tuple[int, ...], int]]:
    """Every way to meld cards of ``mask`` leaving at most ``max_deadwood`` points unmelded.

    Returns ``(meld masks in canonical merged form, deadwood mask)``, each arrangement once:
    touching runs of a suit count as one run. Melds are optional, so an arrangement that
    leaves a meld unspread is listed too (a knocker may spread less to block layoffs).
    """
    found: dict[tuple[int, ...], int] = {}

    def search(rest: int, melds: list[int], dead: int, dead_points: int) -> None:
        if not rest:
            key = tuple(sorted(merge_runs(melds)))
            found[key] = dead
            return
        low = rest & -rest
        index = low.bit_length() - 1
        points = CARD_POINTS[index]
        if dead_points + points <= max_deadwood:
            search(rest ^ low, melds, dead | low, dead_points + points)
        for meld in MELDS_THROUGH[index]:
            if meld & rest == meld:
                melds.append(meld)
                search(rest ^ meld, melds, dead, dead_points)
                melds.pop()

    search(mask, [], 0, 0)
    return [(melds, dead) for melds, dead in found.items()]


@dataclass(frozen=True)
class Arrangement:
    """One way to lay out a hand: melds (canonical order, touching runs merged) and deadwood."""

    melds: tuple[Meld, ...]
    deadwood_cards: CardSet

    @property
    def deadwood(self) -> int:
        """Deadwood count: the points of the unmelded cards."""
        return self.deadwood_cards.points

    @property
    def melded(self) -> CardSet:
        """The cards in melds."""
        mask = 0
        for meld in self.melds:
            mask |= meld.mask
        return CardSet(mask)

    def sort_key(self) -> tuple[object, ...]:
        """Canonical order: fewest deadwood points, then by melds."""
        return (self.deadwood, [meld.sort_key() for meld in self.melds])

    @classmethod
    def from_masks(cls, meld_masks: Iterable[int], deadwood_mask: int) -> Arrangement:
        """An arrangement from raw masks (runs are merged into canonical form)."""
        return cls(sorted_melds(merge_runs(meld_masks)), CardSet(deadwood_mask))


def arrangements_mask(mask: int, max_deadwood: int) -> tuple[Arrangement, ...]:
    """Every arrangement with at most ``max_deadwood`` points of deadwood, best first."""
    found = [Arrangement.from_masks(melds, dead) for melds, dead in packings(mask, max_deadwood)]
    return tuple(sorted(found, key=Arrangement.sort_key))


@dataclass(frozen=True)
class Solution:
    """The best arrangements of a hand: the least deadwood and every arrangement reaching it."""

    hand: CardSet
    deadwood: int
    arrangements: tuple[Arrangement, ...]

    @property
    def best(self) -> Arrangement:
        """The first optimal arrangement in canonical order."""
        return self.arrangements[0]


def solve(hand: CardSet | Iterable[Card]) -> Solution:
    """Least deadwood of a hand and every arrangement that reaches it (canonical order).

    >>> solution = solve(CardSet.parse("7C 7D 7H 5H 6H 8H AS 2S 3S KD"))
    >>> solution.deadwood, [m.text() for m in solution.best.melds]
    (24, ['5H 6H 7H 8H', 'AS 2S 3S'])
    """
    cards = hand if isinstance(hand, CardSet) else CardSet.from_cards(hand)
    best = min_deadwood_mask(cards.mask)
    return Solution(cards, best, arrangements_mask(cards.mask, best))


@dataclass(frozen=True)
class DiscardOption:
    """What discarding one card of an 11-card hand leaves: the least deadwood after it."""

    card: Card
    deadwood: int


def discard_options(
    hand: CardSet, taken_from_discard: Card | None = None
) -> tuple[DiscardOption, ...]:
    """Every legal discard of an 11-card hand with the deadwood after it, best first.

    The card just taken from the discard pile may not be discarded (RULES.md §1).

    >>> options = discard_options(CardSet.parse("5D 6S 3D 5S 4S 6C 6D 2H 4D 2S 5H"))
    >>> [(option.card.code, option.deadwood) for option in options[:2]]
    [('6C', 9), ('5H', 10)]
    """
    if len(hand) != 11:
        raise CardError(f"a hand after drawing has 11 cards, got {len(hand)}")
    forbidden = 0
    if taken_from_discard is not None:
        if taken_from_discard not in hand:
            raise CardError(f"{taken_from_discard.code} was taken from the discard pile "
                            "but is not in the hand")
        forbidden = taken_from_discard.mask
    options = [
        DiscardOption(CARDS[index], deadwood)
        for index, deadwood in discard_deadwoods(hand.mask, forbidden)
    ]
    return tuple(sorted(options, key=lambda o: (o.deadwood, o.card.index)))


def best_discards(options: Iterable[DiscardOption]) -> tuple[Card, ...]:
    """The discards that leave the least deadwood."""
    options = tuple(options)
    best = min(option.deadwood for option in options)
    return tuple(option.card for option in options if option.deadwood == best)


def is_big_gin_mask(mask: int) -> bool:
    """True when all the cards (11 after drawing) are melded."""
    return min_deadwood_mask(mask) == 0


def verify_discard(hand: CardSet, card: Card, taken_from_discard: Card | None = None) -> None:
    """Raise :class:`IllegalError` when ``card`` may not be discarded from ``hand``."""
    if card not in hand:
        raise IllegalError(f"you don't hold {card.code}")
    if taken_from_discard is not None and card == taken_from_discard:
        raise IllegalError(
            f"{card.code} was just taken from the discard pile: it may not be discarded this turn"
        )


__all__ = [
    "DISCARD_GAIN",
    "RUN_DEADWOOD",
    "Arrangement",
    "DiscardOption",
    "Solution",
    "arrangements_mask",
    "best_discard_deadwood_mask",
    "best_discards",
    "discard_deadwoods",
    "discard_options",
    "is_big_gin_mask",
    "min_deadwood_mask",
    "packings",
    "solve",
    "verify_discard",
]
