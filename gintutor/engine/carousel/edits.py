"""A Carousel play built edit by edit: add, move, new, split on a numbered table.

A :class:`Draft` is the table while a turn's play is being made. Its melds keep their numbers
for the whole turn (the turn's table in order, new melds after them; an emptied meld keeps its
number and is dropped when the play is made). A meld may be short or mixed *during* the play,
as when a card is moved out of it before another comes in: :meth:`Draft.problems` says which
melds are not valid yet, and :meth:`Draft.table` refuses to finish until every one is. Each
edit is checked at once against what it names: the card is in your hand (or in the meld it is
moved from), the meld exists; an illegal edit raises :class:`~gintutor.errors.IllegalError`
and leaves the draft as it was (drafts are immutable, so undo is the previous draft).

Jokers follow the source text: a real card put into a meld where a joker stands for that card
replaces it, and the freed joker stays on the table: it is placed again (``JK=9S``) before the
play can be finished. A joker from hand or a freed one is written with the card it stands for.

>>> from gintutor.engine.carousel.cards import parse_hand_cards, parse_table
>>> draft = Draft.begin(parse_table("5S 6S 7S 8S"), parse_hand_cards("4S 8C 8D"))
>>> draft = draft.add(["4S"], 1).move(["8S"], 1, None).add(["8C", "8D"], 2)
>>> draft.table().text(), draft.hand.text()
('8C 8D 8S | 4S 5S 6S 7S', '')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from gintutor.engine.carousel.cards import (
    Hand,
    Meld,
    MeldKind,
    Slot,
    Table,
    is_joker_word,
    make_meld,
    parse_slot,
)
from gintutor.errors import CardError, IllegalError, Phrase

DraftMeld = tuple[Slot, ...]


def meld_problem(slots: Sequence[Slot]) -> Phrase | None:
    """Why these cards are not a meld yet (``None`` when they are one), without the cards:
    the reason :func:`make_meld` gives after the cards it quotes."""
    if not slots:
        return None
    try:
        make_meld(slots)
    except CardError as error:
        why = error.params["why"]
        assert isinstance(why, Phrase)
        return why
    return None


def ordered(slots: Sequence[Slot]) -> DraftMeld:
    """The meld's cards in table order when they form a meld, else sorted."""
    try:
        return make_meld(slots).slots
    except CardError:
        return tuple(sorted(slots))


@dataclass(frozen=True)
class ShownMeld:
    """One meld of a draft as the table view shows it: its number, its cards in order, the
    meld they form (``None`` while they form none) and why not."""

    number: int
    slots: DraftMeld
    meld: Meld | None
    problem: Phrase | None


@dataclass(frozen=True)
class Draft:
    """The table during a play: numbered melds (maybe not valid yet), the hand left, and the
    jokers freed by their real card that must be placed again."""

    start: Table
    start_hand: Hand
    melds: tuple[DraftMeld, ...]
    hand: Hand
    freed: int = 0

    @classmethod
    def begin(cls, table: Table, hand: Hand) -> Draft:
        """The draft of a turn that starts with ``table`` and ``hand``: nothing changed yet."""
        return cls(table, hand, tuple(meld.slots for meld in table), hand)

    @property
    def changed(self) -> bool:
        """True once an edit was made."""
        return (
            self.melds != tuple(meld.slots for meld in self.start) or self.hand != self.start_hand
        )

    @property
    def placed(self) -> Hand:
        """The hand cards placed so far."""
        return self.start_hand - self.hand

    def numbers(self) -> list[int]:
        """The numbers (from 1) of the melds that hold cards."""
        return [number for number, meld in enumerate(self.melds, start=1) if meld]

    def meld(self, number: int) -> DraftMeld:
        """Meld ``number`` (from 1); raises if there is none."""
        if not 1 <= number <= len(self.melds) or not self.melds[number - 1]:
            shown = self.numbers()
            if not shown:
                raise IllegalError("there is no meld {number}: the table is empty", number=number)
            if len(shown) == 1:
                raise IllegalError(
                    "there is no meld {number}: the table has meld {shown}",
                    number=number,
                    shown=shown[0],
                )
            raise IllegalError(
                "there is no meld {number}: the melds are {listed} and {last}",
                number=number,
                listed=", ".join(str(n) for n in shown[:-1]),
                last=shown[-1],
            )
        return self.melds[number - 1]

    def shown(self) -> list[ShownMeld]:
        """The melds that hold cards, numbered, each with the meld it forms or why not."""
        return [
            ShownMeld(number, slots, meld_of(slots), meld_problem(slots))
            for number, slots in enumerate(self.melds, start=1)
            if slots
        ]

    def problems(self) -> list[tuple[int, str]]:
        """``(number, why)`` for each meld that is not valid yet."""
        return [(number, str(why)) for number, why in self._problems()]

    def _problems(self) -> list[tuple[int, Phrase]]:
        """:meth:`problems` with each reason as the phrase to translate."""
        found = []
        for number, meld in enumerate(self.melds, start=1):
            why = meld_problem(meld)
            if why is not None:
                found.append((number, why))
        return found

    # --- edits -------------------------------------------------------------------------------

    def add(self, tokens: Sequence[str], number: int) -> Draft:
        """Put hand cards (``4S``, a joker as ``JK=4S``) into meld ``number``."""
        self.meld(number)
        slots, draft = self._from_hand(tokens)
        return draft._put(slots, number)

    def new(self, tokens: Sequence[str]) -> Draft:
        """Lay hand cards down as a new meld (the next number)."""
        slots, draft = self._from_hand(tokens)
        grown = replace(draft, melds=(*draft.melds, ()))
        return grown._put(slots, len(grown.melds))

    def move(self, tokens: Sequence[str], source: int, target: int | None) -> Draft:
        """Move table cards from meld ``source`` to meld ``target`` (``None``: a new meld)."""
        if target == source:
            raise IllegalError("the cards are in meld {source} already", source=source)
        meld = list(self.meld(source))
        if target is not None:
            self.meld(target)
        if not tokens:
            raise IllegalError("name the cards to move, e.g. move 5S from 1 to 4")
        taken = []
        for token in tokens:
            slot = _table_slot(token)
            if slot not in meld:
                raise IllegalError(
                    "{card} is not in meld {source} ({cards})",
                    card=slot.code,
                    source=source,
                    cards=" ".join(s.code for s in meld),
                )
            meld.remove(slot)
            taken.append(slot)
        melds = list(self.melds)
        melds[source - 1] = ordered(meld)
        if target is None:
            melds.append(())
            target = len(melds)
        return replace(self, melds=tuple(melds))._put(taken, target)

    def split(self, number: int, token: str) -> Draft:
        """Cut sequence ``number`` in two before ``token``; the upper part becomes a new meld."""
        slots = self.meld(number)
        slot = _table_slot(token)
        if slot not in slots:
            raise IllegalError("{card} is not in meld {number}", card=slot.code, number=number)
        try:
            meld = make_meld(slots)
        except CardError:
            meld = None
        if meld is None or meld.kind is not MeldKind.SEQUENCE:
            raise IllegalError(
                "meld {number} is not a sequence: split cuts a sequence in two", number=number
            )
        at = meld.slots.index(slot)
        if at == 0:
            raise IllegalError(
                "{card} is the first card of meld {number}: split at a card inside it",
                card=slot.code,
                number=number,
            )
        melds = list(self.melds)
        melds[number - 1] = meld.slots[:at]
        melds.append(meld.slots[at:])
        return replace(self, melds=tuple(melds))

    # --- the play ----------------------------------------------------------------------------

    def table(self) -> Table:
        """The finished table; raises naming the first meld that is not valid, or a freed
        joker not placed again."""
        for number, why in self._problems():
            cards = " ".join(slot.code for slot in self.melds[number - 1])
            raise IllegalError(
                "meld {number} ({cards}) is not a meld yet: {why}",
                number=number,
                cards=cards,
                why=why,
            )
        if self.freed:
            raise IllegalError(
                "a freed joker stays on the table: place it again, e.g. add JK=9S to 2"
                if self.freed == 1
                else "{freed} freed jokers stay on the table: place each again, e.g. "
                "add JK=9S to 2",
                freed=self.freed,
            )
        return Table.of(make_meld(meld) for meld in self.melds if meld)

    def _from_hand(self, tokens: Sequence[str]) -> tuple[list[Slot], Draft]:
        """The slots these hand tokens place, and the draft without them in hand."""
        if not tokens:
            raise IllegalError("name the cards from your hand, e.g. add 4S to 3")
        hand, freed = self.hand, self.freed
        slots = []
        for token in tokens:
            if is_joker_word(token):
                raise IllegalError(
                    "{token!r}: say which card the joker stands for, e.g. JK=7H", token=token
                )
            try:
                slot = parse_slot(token)
            except CardError as error:
                raise IllegalError(error.template, **error.params) from None
            if slot.joker:
                if freed:
                    freed -= 1
                else:
                    hand = _take(hand, Hand((), 1), Phrase("a joker"))
            else:
                hand = _take(hand, Hand((slot.card,)), slot.card.code)
            slots.append(slot)
        return slots, replace(self, hand=hand, freed=freed)

    def _put(self, slots: Iterable[Slot], number: int) -> Draft:
        """Add slots to meld ``number``; a real card replaces a joker standing for it there."""
        meld = list(self.melds[number - 1])
        freed = self.freed
        for slot in slots:
            stand_in = Slot(slot.card, joker=True)
            if not slot.joker and stand_in in meld:
                meld.remove(stand_in)
                freed += 1
            meld.append(slot)
        melds = list(self.melds)
        melds[number - 1] = ordered(meld)
        return replace(self, melds=tuple(melds), freed=freed)


def _table_slot(token: str) -> Slot:
    try:
        return parse_slot(token)
    except CardError as error:
        raise IllegalError(error.template, **error.params) from None


def _take(hand: Hand, cards: Hand, name: str | Phrase) -> Hand:
    try:
        return hand - cards
    except CardError:
        raise IllegalError("your hand does not hold {name}", name=name) from None


def meld_of(slots: DraftMeld) -> Meld | None:
    """The meld these cards form, or ``None`` while they form none."""
    try:
        return make_meld(slots)
    except CardError:
        return None
