"""Cards, their notation and card sets as 52-bit masks.

A card's bit index is ``suit * 13 + rank - 1`` with suits in the order clubs, diamonds, hearts,
spades and ranks ace = 1 ... king = 13, so a hand is a plain ``int`` inside the engine and a
:class:`CardSet` at the edges.

>>> hand = parse_cards("7c, 7♦ 10s")
>>> [card.code for card in hand]
['7C', '7D', 'TS']
>>> CardSet.from_cards(hand)
CardSet.parse('7C 7D TS')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from gintutor.errors import CardError

SUIT_BITS = 13
"""Bits per suit in a hand mask (and ranks per suit)."""
SUIT_MASK = (1 << SUIT_BITS) - 1
"""The 13 bits of one suit at the bottom of a mask: ``mask >> suit.index * SUIT_BITS & SUIT_MASK``
is that suit's cards, ace at bit 0."""
FULL_SUIT = SUIT_MASK
"""Another name for :data:`SUIT_MASK`."""
DECK_MASK = (1 << 52) - 1
"""All 52 cards."""
DIAMONDS_SHIFT = SUIT_BITS
"""Where the diamonds start in a mask (clubs start at 0)."""
HEARTS_SHIFT = 2 * SUIT_BITS
"""Where the hearts start in a mask."""
SPADES_SHIFT = 3 * SUIT_BITS
"""Where the spades start in a mask."""
RANK_MASKS: tuple[int, ...] = tuple(
    sum(1 << (suit * SUIT_BITS + rank) for suit in range(4)) for rank in range(SUIT_BITS)
)
"""``RANK_MASKS[rank - 1]``: the four cards of a rank (ace first)."""


def iter_bits(mask: int) -> Iterator[int]:
    """The one-bit masks of ``mask``, lowest first (the engine's one way to walk a mask).

    >>> list(iter_bits(0b10110))
    [2, 4, 16]
    """
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def bit_index(bit: int) -> int:
    """The index of a one-bit mask: ``bit_index(1 << i) == i`` (for cards, the card index).

    >>> bit_index(1 << 51)
    51
    """
    return bit.bit_length() - 1


class Suit(Enum):
    """A suit; the value is its notation letter. Declaration order is the canonical order."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def index(self) -> int:
        """0 for clubs ... 3 for spades: the suit's block of 13 bits in a hand mask."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol, e.g. ``♣``."""
        return _SUIT_SYMBOL[self]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(Enum):
    """A rank; the value is its notation character (``T`` for ten). Ace is low only."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def number(self) -> int:
        """1 for the ace ... 13 for the king: the order in a run."""
        return _RANK_NUMBER[self]

    @property
    def points(self) -> int:
        """Deadwood value: ace 1, two to ten face value, jack, queen and king 10."""
        return min(self.number, 10)

    @property
    def label(self) -> str:
        """Display text: ``10`` for the ten, else the notation character."""
        return "10" if self is Rank.TEN else self.value


_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
_SUIT_SYMBOL = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_RANK_NUMBER = {rank: i + 1 for i, rank in enumerate(Rank)}
SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)


@dataclass(frozen=True, order=False)
class Card:
    """One playing card. Cards sort by suit, then rank (the canonical order)."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        """Bit index in a hand mask: ``suit * 13 + rank - 1``.

        >>> Card.parse("AC").index, Card.parse("KS").index
        (0, 51)
        """
        return self.suit.index * SUIT_BITS + self.rank.number - 1

    @property
    def mask(self) -> int:
        """The one-card mask ``1 << index``."""
        return 1 << self.index

    @property
    def points(self) -> int:
        """Deadwood value of the card."""
        return self.rank.points

    @property
    def code(self) -> str:
        """Canonical text, two characters: ``7C``, ``TD``."""
        return self.rank.value + self.suit.value

    def display(self, *, ascii_only: bool = False) -> str:
        """Display text: ``10♦``, or ``10D`` with ``ascii_only``."""
        return self.rank.label + (self.suit.value if ascii_only else self.suit.symbol)

    @classmethod
    def at(cls, index: int) -> Card:
        """The card with bit index ``index`` (0-51).

        >>> Card.at(0).code, Card.at(51).code
        ('AC', 'KS')
        """
        return CARDS[index]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card, forgivingly: ``7c``, ``10D``, ``T♦``, ``7♥️``.

        >>> Card.parse("10♦️")
        Card.parse('TD')
        >>> Card.parse("1X")
        Traceback (most recent call last):
        ...
        gintutor.errors.CardError: '1X': unknown suit 'X' (use C, D, H, S or ♣ ♦ ♥ ♠)
        """
        known = _CARD_BY_TOKEN.get(token)
        if known is not None:
            return known
        text = token.strip().replace("\ufe0f", "")
        if len(text) < 2:
            raise CardError("{token!r}: a card is a rank and a suit, e.g. 7C or 10♦", token=token)
        suit = _SUIT_BY_TEXT.get(text[-1].upper())
        if suit is None:
            raise CardError(
                "{token!r}: unknown suit {suit!r} (use C, D, H, S or ♣ ♦ ♥ ♠)",
                token=token,
                suit=text[-1],
            )
        rank = _RANK_BY_TEXT.get(text[:-1].upper())
        if rank is None:
            raise CardError(
                "{token!r}: unknown rank {rank!r} (use A, 2-9, T or 10, J, Q, K)",
                token=token,
                rank=text[:-1],
            )
        return CARDS[suit.index * SUIT_BITS + rank.number - 1]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card at a bit index (0 ... 51)."""
        return CARDS[index]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_SUIT_BY_TEXT: dict[str, Suit] = {suit.value: suit for suit in Suit}
_SUIT_BY_TEXT.update({suit.symbol: suit for suit in Suit})
# White (outline) suit symbols are common on phone keyboards too.
_SUIT_BY_TEXT.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})
_RANK_BY_TEXT: dict[str, Rank] = {rank.value: rank for rank in Rank}
_RANK_BY_TEXT["10"] = Rank.TEN

CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""All 52 cards in canonical order; ``CARDS[i]`` has bit index ``i``."""
# The tokens packs and learners write most (7C, 7c, 10C, 7♣), looked up without parsing: the
# puzzle pack's ~32,000 cards made reading it on a first start ~20% slower.
_CARD_BY_TOKEN: dict[str, Card] = {
    rank + suit: card
    for card in CARDS
    for rank in {card.rank.value, card.rank.label, card.rank.value.lower()}
    for suit in (card.suit.value, card.suit.value.lower(), card.suit.symbol)
}
CARD_POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)
"""Deadwood value by bit index."""


def _tokens(text: str) -> list[str]:
    return text.replace(",", " ").split()


def parse_cards(text: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Read cards from text (separated by spaces and/or commas) or an iterable of cards or codes.

    The order is kept; a card given twice is an error.

    >>> parse_cards("AS, 2s 3♠")
    (Card.parse('AS'), Card.parse('2S'), Card.parse('3S'))
    >>> parse_cards("7C 7c")
    Traceback (most recent call last):
    ...
    gintutor.errors.CardError: 7C appears twice
    """
    items: Iterable[Card | str] = _tokens(text) if isinstance(text, str) else text
    cards: list[Card] = []
    seen = 0
    for item in items:
        card = item if isinstance(item, Card) else Card.parse(item)
        bit = card.mask
        if seen & bit:
            raise CardError("{card} appears twice", card=card.code)
        seen |= bit
        cards.append(card)
    return tuple(cards)


def parse_hand(text: str | Iterable[Card | str], sizes: Iterable[int] = (10, 11)) -> CardSet:
    """Read a hand and check its size is one of ``sizes``.

    >>> parse_hand("7C 7D 7S")
    Traceback (most recent call last):
    ...
    gintutor.errors.CardError: a hand here has 10 or 11 cards, got 3
    """
    cards = parse_cards(text)
    allowed = tuple(sizes)
    if len(cards) not in allowed:
        if len(allowed) == 1:
            raise CardError(
                "a hand here has {size} cards, got {count}", size=allowed[0], count=len(cards)
            )
        raise CardError(
            "a hand here has {sizes} or {last} cards, got {count}",
            sizes=", ".join(str(n) for n in allowed[:-1]),
            last=allowed[-1],
            count=len(cards),
        )
    return CardSet.from_cards(cards)


def mask_cards(mask: int) -> Iterator[Card]:
    """The cards of a mask in canonical order (suit, then rank)."""
    return (CARDS[bit.bit_length() - 1] for bit in iter_bits(mask))


def mask_points(mask: int) -> int:
    """Total deadwood value of the cards in a mask."""
    return sum(CARD_POINTS[bit.bit_length() - 1] for bit in iter_bits(mask))


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of some cards."""
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


@dataclass(frozen=True)
class CardSet:
    """An immutable set of cards backed by a 52-bit mask; iterates in canonical order."""

    mask: int

    def __post_init__(self) -> None:
        if not 0 <= self.mask <= DECK_MASK:
            raise CardError("{mask:#x} is not a 52-bit card mask", mask=self.mask)

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> CardSet:
        """The set of the given cards."""
        return cls(mask_of(cards))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read a card set from text; duplicates are an error."""
        return cls.from_cards(parse_cards(text))

    def __iter__(self) -> Iterator[Card]:
        return mask_cards(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.mask)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    @property
    def points(self) -> int:
        """Total deadwood value of the cards."""
        return mask_points(self.mask)

    @property
    def codes(self) -> list[str]:
        """Canonical codes of the cards, in canonical order."""
        return [card.code for card in self]

    def text(self) -> str:
        """Canonical text: codes separated by single spaces."""
        return " ".join(self.codes)

    def display(self, *, ascii_only: bool = False) -> str:
        """Display text: ``7♣ 10♦``."""
        return " ".join(card.display(ascii_only=ascii_only) for card in self)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"CardSet.parse({self.text()!r})"
