"""Carousel cards, melds and the table notation.

A Carousel card is a real card (one of 52, with one or two deck copies) or a joker. On the table
every joker stands for a declared card, written ``JK=7H``; in a hand a joker is just ``JK``.
Melds are separated by ``|``. Parsing is as forgiving as gin's (``10♦``, ``td``, commas) and
every error names the token.

>>> table = parse_table("7h 8h 9h | jk=7c 7d 7s")
>>> table.text()
'JK=7C 7D 7S | 7H 8H 9H'
>>> parse_hand_cards("JK 2c 10d").text()
'2C TD JK'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from gintutor.engine.cards import CARDS, Card, Rank, Suit
from gintutor.errors import CardError, Phrase

JOKER_POINTS = 25
"""A joker left in hand counts 25."""
MIN_MELD = 3
"""The fewest cards of a meld."""
RANKS = len(Rank)
"""Ranks in a suit: ace (1) to king (13)."""
SUITS = len(Suit)
"""Suits in a deck (indices 0-3: clubs, diamonds, hearts, spades)."""
DECK_CARDS = SUITS * RANKS
"""Real cards in one deck; a card's index is ``suit * RANKS + rank - 1``."""
ACE_HIGH = RANKS + 1
"""The ace's position at the high end of a sequence (Q-K-A); at the low end (A-2-3) it is 1."""
_JOKER_WORDS = frozenset({"JK", "JOKER", "J*", "*", "🃏"})


def decks_for(players: int) -> int:
    """One 53-card deck for two players, two for three to five.

    >>> decks_for(2), decks_for(5)
    (1, 2)
    """
    if not 2 <= players <= 5:
        raise CardError("Carousel is for 2 to 5 players, got {players}", players=players)
    return 1 if players == 2 else 2


class MeldKind(Enum):
    """A group (one rank, different suits) or a sequence (one suit, consecutive ranks)."""

    GROUP = "group"
    SEQUENCE = "sequence"


@dataclass(frozen=True, order=True)
class Slot:
    """One card on the table: the card it is (or, for a joker, stands for) and whether a joker.

    Slots sort by card, the real card before a joker standing for the same card.
    """

    card: Card
    joker: bool = False

    @property
    def code(self) -> str:
        """``7H`` or ``JK=7H``."""
        return f"JK={self.card.code}" if self.joker else self.card.code

    def display(self, *, ascii_only: bool = False) -> str:
        """``7♥`` or ``JK=7♥``."""
        text = self.card.display(ascii_only=ascii_only)
        return f"JK={text}" if self.joker else text

    @property
    def points(self) -> int:
        """Value in hand: a joker 25, else the card's."""
        return JOKER_POINTS if self.joker else self.card.points


def rank_order(rank_number: int, high_ace: bool) -> int:
    """Position in a sequence: the ace is 1, or 14 when the sequence runs Q-K-A."""
    return ACE_HIGH if high_ace and rank_number == 1 else rank_number


@dataclass(frozen=True)
class Meld:
    """A valid group or sequence of slots, in canonical order (a sequence low to high).

    Build one with :func:`make_meld`, which checks the rules.
    """

    kind: MeldKind
    slots: tuple[Slot, ...]

    def __iter__(self) -> Iterator[Slot]:
        return iter(self.slots)

    def __len__(self) -> int:
        return len(self.slots)

    @property
    def suit(self) -> Suit:
        """The suit of a sequence (of the first card for a group)."""
        return self.slots[0].card.suit

    @property
    def high_ace(self) -> bool:
        """True for a sequence ending Q-K-A."""
        return (
            self.kind is MeldKind.SEQUENCE
            and self.slots[-1].card.rank is Rank.ACE
            and len(self.slots) > 1
            and self.slots[-2].card.rank is Rank.KING
        )

    @property
    def jokers(self) -> int:
        """How many jokers the meld holds."""
        return sum(slot.joker for slot in self.slots)

    def text(self) -> str:
        """Canonical notation: ``7H 8H 9H`` or ``7D 7S JK=7C``."""
        return " ".join(slot.code for slot in self.slots)

    def display(self, *, ascii_only: bool = False) -> str:
        """Display text: ``7♥ 8♥ 9♥``."""
        return " ".join(slot.display(ascii_only=ascii_only) for slot in self.slots)

    def sort_key(self) -> tuple[int, int, int, int]:
        """Canonical table order: groups first by rank, then sequences by suit and first rank."""
        first = self.slots[0].card
        if self.kind is MeldKind.GROUP:
            return (0, first.rank.number, 0, len(self.slots))
        return (1, first.suit.index, rank_order(first.rank.number, False), len(self.slots))

    def __str__(self) -> str:
        return self.text()


def make_meld(slots: Iterable[Slot]) -> Meld:
    """The meld these slots form, in canonical order; :class:`CardError` says why if none.

    A group is 3 or 4 cards of one rank and different suits (never two identical cards); a
    sequence is 3 or more consecutive cards of one suit, the ace low (A-2-3) or high (Q-K-A)
    but never both (K-A-2 turns the corner).

    >>> make_meld(parse_slots("KS AS QS")).text()
    'QS KS AS'
    >>> make_meld(parse_slots("KS AS 2S"))
    Traceback (most recent call last):
    ...
    gintutor.errors.CardError: 'KS AS 2S': not a group or a sequence (an ace is high or low)
    """
    given = tuple(slots)
    items = sorted(given)
    text = " ".join(slot.code for slot in given)
    if len(items) < MIN_MELD:
        raise CardError("{meld!r}: {why}", meld=text, why=Phrase("a meld has at least 3 cards"))
    ranks = {slot.card.rank for slot in items}
    suits = [slot.card.suit for slot in items]
    if len(ranks) == 1:
        if len(set(suits)) != len(items):
            raise CardError(
                "{meld!r}: {why}",
                meld=text,
                why=Phrase("a group may not hold two cards of the same suit"),
            )
        return Meld(MeldKind.GROUP, tuple(items))
    if len(set(suits)) == 1:
        numbers = sorted(slot.card.rank.number for slot in items)
        for high in (False, True):
            order = sorted(rank_order(n, high) for n in numbers)
            if order == list(range(order[0], order[0] + len(order))):
                ordered = sorted(items, key=lambda s: rank_order(s.card.rank.number, high))
                return Meld(MeldKind.SEQUENCE, tuple(ordered))
    raise CardError(
        "{meld!r}: {why}",
        meld=text,
        why=Phrase("not a group or a sequence (an ace is high or low)"),
    )


def _clean(token: str) -> str:
    return token.strip().replace("\ufe0f", "")


def is_joker_word(token: str) -> bool:
    """True for ``JK``, ``joker``, ``*`` or 🃏."""
    return _clean(token).upper() in _JOKER_WORDS


def parse_slot(token: str) -> Slot:
    """One table card: ``7H`` or a joker with the card it stands for, ``JK=7H``.

    >>> parse_slot("joker=10♦").code
    'JK=TD'
    >>> parse_slot("JK")
    Traceback (most recent call last):
    ...
    gintutor.errors.CardError: 'JK': a joker on the table says which card it stands for, e.g. JK=7H
    """
    text = _clean(token)
    if "=" in text:
        word, _, card = text.partition("=")
        if not is_joker_word(word):
            raise CardError("{token!r}: only a joker is written with '=', e.g. JK=7H", token=token)
        try:
            return Slot(Card.parse(card), joker=True)
        except CardError as error:
            raise CardError("{token!r}: {error}", token=token, error=error) from None
    if is_joker_word(text):
        raise CardError(
            "{token!r}: a joker on the table says which card it stands for, e.g. JK=7H",
            token=token,
        )
    return Slot(Card.parse(text))


def _tokens(text: str) -> list[str]:
    return text.replace(",", " ").split()


def parse_slots(text: str) -> tuple[Slot, ...]:
    """The slots of one meld's text, in the order given."""
    return tuple(parse_slot(token) for token in _tokens(text))


@dataclass(frozen=True)
class Hand:
    """A Carousel hand: real cards (copies allowed with two decks) and jokers, canonically sorted.

    ``cards`` holds the real cards sorted by suit then rank; ``jokers`` counts the jokers.
    """

    cards: tuple[Card, ...] = ()
    jokers: int = 0

    @classmethod
    def of(cls, cards: Iterable[Card], jokers: int = 0) -> Hand:
        """A hand of these cards (any order) and jokers."""
        return cls(tuple(sorted(cards)), jokers)

    def __len__(self) -> int:
        return len(self.cards) + self.jokers

    @property
    def points(self) -> int:
        """What the hand counts: jokers 25, J Q K 10, 2-10 face value, ace 1."""
        return sum(card.points for card in self.cards) + JOKER_POINTS * self.jokers

    def counts(self) -> Counter[Card]:
        """How many of each real card."""
        return Counter(self.cards)

    def text(self) -> str:
        """Canonical notation: ``2C TD JK``."""
        return " ".join([card.code for card in self.cards] + ["JK"] * self.jokers)

    def display(self, *, ascii_only: bool = False) -> str:
        """Display text: ``2♣ 10♦ JK``."""
        return " ".join(
            [c.display(ascii_only=ascii_only) for c in self.cards] + ["JK"] * self.jokers
        )

    def codes(self) -> list[str]:
        """Codes of the cards, jokers last as ``JK``."""
        return [card.code for card in self.cards] + ["JK"] * self.jokers

    def __add__(self, other: Hand) -> Hand:
        return Hand.of(self.cards + other.cards, self.jokers + other.jokers)

    def __sub__(self, other: Hand) -> Hand:
        """This hand without ``other``'s cards; :class:`CardError` if it does not hold them."""
        left = self.counts()
        left.subtract(other.counts())
        missing = [card.code for card, n in left.items() if n < 0]
        if missing or other.jokers > self.jokers:
            what = ", ".join(missing + (["JK"] if other.jokers > self.jokers else []))
            raise CardError("the hand does not hold {cards}", cards=what)
        return Hand.of(left.elements(), self.jokers - other.jokers)

    def __str__(self) -> str:
        return self.text()


def parse_hand_cards(text: str | Iterable[str]) -> Hand:
    """Read a hand: cards and ``JK`` jokers, any order; copies are checked by :func:`verify_counts`.

    >>> parse_hand_cards("7c 7c JK").codes()
    ['7C', '7C', 'JK']
    """
    tokens = _tokens(text) if isinstance(text, str) else list(text)
    cards: list[Card] = []
    jokers = 0
    for token in tokens:
        if is_joker_word(token):
            jokers += 1
        elif "=" in token:
            raise CardError(
                "{token!r}: a joker in hand stands for nothing yet: write JK", token=token
            )
        else:
            cards.append(Card.parse(_clean(token)))
    return Hand.of(cards, jokers)


@dataclass(frozen=True)
class Table:
    """The melds on the table, in canonical order."""

    melds: tuple[Meld, ...] = ()

    @classmethod
    def of(cls, melds: Iterable[Meld]) -> Table:
        """A table of these melds, sorted canonically."""
        return cls(tuple(sorted(melds, key=Meld.sort_key)))

    def __iter__(self) -> Iterator[Meld]:
        return iter(self.melds)

    def __len__(self) -> int:
        return len(self.melds)

    def slots(self) -> list[Slot]:
        """Every card on the table."""
        return [slot for meld in self.melds for slot in meld]

    @property
    def card_count(self) -> int:
        """How many cards (jokers included) lie on the table."""
        return sum(len(meld) for meld in self.melds)

    def text(self) -> str:
        """Canonical notation, melds separated by ``|`` (empty text for an empty table)."""
        return " | ".join(meld.text() for meld in self.melds)

    def __str__(self) -> str:
        return self.text()


def parse_table(text: str) -> Table:
    """Read a table: melds separated by ``|``, each a valid group or sequence.

    >>> parse_table("")
    Table(melds=())
    >>> parse_table("7H 8H | 2C 2D 2S")
    Traceback (most recent call last):
    ...
    gintutor.errors.CardError: meld 1: '7H 8H': a meld has at least 3 cards
    """
    melds = []
    parts = [part for part in text.split("|")]
    if not text.strip():
        return Table()
    for number, part in enumerate(parts, start=1):
        if not part.strip():
            raise CardError("meld {number} is empty (melds are separated by '|')", number=number)
        try:
            melds.append(make_meld(parse_slots(part)))
        except CardError as error:
            raise CardError("meld {number}: {error}", number=number, error=error) from None
    return Table.of(melds)


def verify_counts(table: Table, hands: Iterable[Hand], decks: int) -> None:
    """Raise :class:`CardError` if any card is held more often than ``decks`` copies allow.

    A joker is the card it stands for, so a table never shows more copies of a card than the
    decks hold, real and joker together (with one deck a joker and its real card never lie on
    the table at once: the real card replaces the joker).

    >>> verify_counts(parse_table("7H 8H 9H"), [parse_hand_cards("7H")], decks=1)
    Traceback (most recent call last):
    ...
    gintutor.errors.CardError: 7H is there 2 times; 1 deck has 1
    """
    real: Counter[Card] = Counter()
    shown: Counter[Card] = Counter()
    jokers = 0
    for slot in table.slots():
        shown[slot.card] += 1
        if slot.joker:
            jokers += 1
        else:
            real[slot.card] += 1
    for hand in hands:
        real.update(hand.cards)
        jokers += hand.jokers
    for card in CARDS:
        if real[card] > decks:
            raise CardError(
                "{card} is there {count} times; 1 deck has 1"
                if decks == 1
                else "{card} is there {count} times; {decks} decks have {decks}",
                card=card.code,
                count=real[card],
                decks=decks,
            )
        if shown[card] > decks:
            raise CardError(
                "the table shows {card} {count} times (jokers included); 1 deck has 1"
                if decks == 1
                else "the table shows {card} {count} times (jokers included); "
                "{decks} decks have {decks}",
                card=card.code,
                count=shown[card],
                decks=decks,
            )
    if jokers > decks:
        raise CardError(
            "{jokers} jokers; 1 deck has 1"
            if decks == 1
            else "{jokers} jokers; {decks} decks have {decks}",
            jokers=jokers,
            decks=decks,
        )
