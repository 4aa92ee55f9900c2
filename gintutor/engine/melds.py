"""Melds: sets (3 or 4 cards of a rank) and runs (3+ consecutive cards of a suit, ace low).

Every meld of the deck is listed once at import as a mask (:data:`MELD_MASKS`), with the melds
through each card (:data:`MELDS_THROUGH`) for the solver's search.

>>> Meld.parse("5H 6H 7H 8H")
Meld.parse('5H 6H 7H 8H')
>>> Meld.parse("QS KS AS")
Traceback (most recent call last):
...
gintutor.errors.CardError: QS KS AS is not a meld: a run is 3+ consecutive cards of one suit ...
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import NoReturn

from gintutor.engine.cards import (
    RANK_MASKS,
    SUIT_BITS,
    Card,
    CardSet,
    Rank,
    Suit,
    mask_cards,
    mask_of,
    mask_points,
    parse_cards,
)
from gintutor.errors import CardError


class MeldKind(Enum):
    """The two kinds of meld; sets sort before runs."""

    SET = "set"
    RUN = "run"


def _run_masks() -> list[int]:
    masks = []
    for suit in range(4):
        for length in range(3, SUIT_BITS + 1):
            for low in range(SUIT_BITS - length + 1):
                masks.append(((1 << length) - 1) << (suit * SUIT_BITS + low))
    return masks


def _set_masks() -> list[int]:
    masks = []
    for rank, four in enumerate(RANK_MASKS):
        masks.append(four)
        masks.extend(four ^ (1 << (suit * SUIT_BITS + rank)) for suit in range(4))
    return masks


SET_MASKS: tuple[int, ...] = tuple(_set_masks())
RUN_MASKS: tuple[int, ...] = tuple(_run_masks())
MELD_MASKS: tuple[int, ...] = SET_MASKS + RUN_MASKS
"""Every meld of the deck: 65 sets and 264 runs."""
_MELD_KIND: dict[int, MeldKind] = {m: MeldKind.SET for m in SET_MASKS} | {
    m: MeldKind.RUN for m in RUN_MASKS
}
MELDS_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in MELD_MASKS if m >> i & 1) for i in range(52)
)
"""For each card index, the masks of every meld that contains it."""


def melds_within(mask: int) -> list[int]:
    """Masks of every meld made of cards in ``mask``."""
    return [m for m in MELD_MASKS if m & mask == m]


def _not_a_meld(cards: Iterable[Card]) -> NoReturn:
    text = " ".join(card.code for card in cards)
    raise CardError(
        "{cards} is not a meld: a run is 3+ consecutive cards of one suit "
        "(ace is low: A-2-3, never Q-K-A) and a set is 3 or 4 cards of one rank",
        cards=text,
    )


@dataclass(frozen=True)
class Meld:
    """A set or a run, as a mask of its cards. Create with :meth:`parse` or :meth:`from_mask`."""

    mask: int

    def __post_init__(self) -> None:
        if self.mask not in _MELD_KIND:
            _not_a_meld(list(mask_cards(self.mask)))

    @classmethod
    def from_mask(cls, mask: int) -> Meld:
        """The meld of a mask; :class:`CardError` if the cards form no meld."""
        return cls(mask)

    @classmethod
    def parse(cls, text: str | Iterable[Card | str]) -> Meld:
        """Read a meld from text such as ``"7C 7D 7S"``."""
        cards = parse_cards(text)
        mask = mask_of(cards)
        if mask not in _MELD_KIND:
            _not_a_meld(cards)
        return cls(mask)

    @property
    def kind(self) -> MeldKind:
        """Set or run."""
        return _MELD_KIND[self.mask]

    @property
    def is_set(self) -> bool:
        """True for a set of one rank."""
        return self.kind is MeldKind.SET

    @property
    def is_run(self) -> bool:
        """True for a run in one suit."""
        return self.kind is MeldKind.RUN

    @property
    def cards(self) -> CardSet:
        """The cards, in canonical order."""
        return CardSet(self.mask)

    def __iter__(self) -> Iterator[Card]:
        return mask_cards(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    @property
    def points(self) -> int:
        """The value the meld's cards would count as deadwood."""
        return mask_points(self.mask)

    @property
    def rank(self) -> Rank:
        """The rank of a set, or the lowest rank of a run."""
        return next(iter(self)).rank

    @property
    def suit(self) -> Suit | None:
        """The suit of a run; ``None`` for a set."""
        return next(iter(self)).suit if self.is_run else None

    def sort_key(self) -> tuple[int, int, int, int]:
        """Canonical order: sets by rank, then runs by suit and lowest rank."""
        first = next(iter(self))
        if self.is_set:
            return (0, first.rank.number, 0, self.mask)
        return (1, first.suit.index, first.rank.number, len(self))

    def text(self) -> str:
        """Canonical text of the cards, e.g. ``5H 6H 7H``."""
        return self.cards.text()

    def display(self, *, ascii_only: bool = False) -> str:
        """Display text: ``5♥ 6♥ 7♥``."""
        return self.cards.display(ascii_only=ascii_only)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Meld.parse({self.text()!r})"


def merge_runs(meld_masks: Iterable[int]) -> list[int]:
    """Canonical meld masks: runs of a suit that touch become one run; sets stay as they are.

    A long run split into two touching runs is the same arrangement, so arrangements are
    compared (and shown) in this merged form.

    >>> low, high = Meld.parse("3H 4H 5H"), Meld.parse("6H 7H 8H")
    >>> [Meld(m).text() for m in merge_runs([low.mask, high.mask])]
    ['3H 4H 5H 6H 7H 8H']
    """
    sets: list[int] = []
    by_suit = [0, 0, 0, 0]
    for mask in meld_masks:
        if _MELD_KIND[mask] is MeldKind.SET:
            sets.append(mask)
        else:
            suit = (mask.bit_length() - 1) // SUIT_BITS
            by_suit[suit] |= mask
    runs: list[int] = []
    for suit, bits in enumerate(by_suit):
        bits >>= suit * SUIT_BITS
        while bits:
            block = _block_from(bits, bits & -bits)
            runs.append(block << (suit * SUIT_BITS))
            bits &= ~block
    return sets + runs


def _block_from(bits: int, low: int) -> int:
    """The consecutive block of ``bits`` that starts at the single bit ``low``."""
    block = 0
    bit = low
    while bits & bit:
        block |= bit
        bit <<= 1
    return block


def sorted_melds(meld_masks: Iterable[int]) -> tuple[Meld, ...]:
    """Melds in canonical order."""
    return tuple(sorted((Meld(m) for m in meld_masks), key=Meld.sort_key))
