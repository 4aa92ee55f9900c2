"""Carousel questions: melds with two decks, placing cards, the best play, jokers, knocking,
scoring. Every answer comes from the Carousel engine (its melds, solver and scoring).

Each kind reads its lesson keys with :meth:`CarouselQuestion.read_field` (tables, hands and
melds in the Carousel notation, e.g. ``JK=7H``), and plays the source text's rules.

>>> q = CarouselMeldQuestion(prompt="?", rules=GIN, cards=parse_slots("KS AS 2S"))
>>> q.solve().answer
'corner'
>>> q.judge("valid").correct, q.judge("corner").correct
(False, True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any, ClassVar

from gintutor.engine.cards import Card, Rank
from gintutor.engine.carousel.cards import (
    MIN_MELD,
    Hand,
    MeldKind,
    Slot,
    Table,
    decks_for,
    make_meld,
    parse_hand_cards,
    parse_slots,
    parse_table,
    verify_counts,
)
from gintutor.engine.carousel.game import GameSheet, Phase, Round, score_game
from gintutor.engine.carousel.rules import STANDARD, CarouselRules
from gintutor.engine.carousel.solver import Play, best_play, verify_play
from gintutor.engine.rules import PRESETS
from gintutor.errors import CardError, GinError, IllegalError
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.carousel import (
    explain_play,
    explain_round,
    explain_sheet,
    hand_text,
    table_lines,
)
from gintutor.text.i18n import N_, _, error_text, ngettext
from gintutor.tutor.carouselrounds import parse_rounds
from gintutor.tutor.questions.base import (
    PLAIN,
    AnswerError,
    Feedback,
    Question,
    Solved,
    quoted,
    read_number,
    read_yes_no,
    yes_no,
)

GIN = PRESETS["standard"]
"""The (unused) gin rule set every question carries; Carousel questions play
:data:`~gintutor.engine.carousel.rules.STANDARD`."""

EMPTY = Table()
"""The empty table (nobody has melded yet)."""
_NONE_WORDS = frozenset({"none", "nothing", "pass", "-", "ingen", "nenhuma", "nada"})
_LONGEST_ANSWER = 400


def read_table(text: str) -> Table:
    """A table typed by the learner (melds separated by ``|``); :class:`AnswerError` if not."""
    if len(text) > _LONGEST_ANSWER:
        raise AnswerError("{text} is far too long for a table", text=quoted(text.strip()))
    try:
        return parse_table(text)
    except GinError as error:
        raise AnswerError(
            "{error} (write melds like 7H 8H 9H | JK=7C 7D 7S)", error=error
        ) from None


def read_hand(text: str) -> Hand:
    """Cards typed by the learner (``JK`` for a joker); :class:`AnswerError` if not cards."""
    if len(text) > _LONGEST_ANSWER:
        raise AnswerError("{text} is far too long for cards", text=quoted(text.strip()))
    try:
        return parse_hand_cards(text)
    except GinError as error:
        raise AnswerError(error.template, **error.params) from None


def _players(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardError("{value!r}: expected a number of players, 2 to 5", value=value)
    decks_for(value)
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise CardError("{value!r}: expected true or false", value=value)
    return value


@dataclass(frozen=True, kw_only=True)
class CarouselQuestion(Question):
    """A question about Carousel: the kind's keys are read by :meth:`read_field`."""

    game: ClassVar[str] = "carousel"
    """The game the question is about (lessons holding it say ``game: carousel``)."""

    @property
    def carousel_rules(self) -> CarouselRules:
        """The source text's Carousel rules."""
        return STANDARD

    @classmethod
    def read_field(cls, key: str, value: Any) -> Any:
        """The value of lesson key ``key`` as the field holds it; :class:`GinError` if bad."""
        if key in ("table", "after"):
            if value is None:
                return Table()
            if not isinstance(value, str):
                raise CardError('expected melds like "7H 8H 9H | JK=7C 7D 7S"')
            return parse_table(value)
        if key == "hand":
            if not isinstance(value, str):
                raise CardError('expected cards like "7C 7D JK"')
            return parse_hand_cards(value)
        if key == "cards":
            if not isinstance(value, str):
                raise CardError('expected cards like "7H 8H JK=9H"')
            return parse_slots(value)
        if key == "players":
            return _players(value)
        if key in ("first_meld", "play"):
            return _flag(value)
        if key == "drawn":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise CardError(
                    "{value!r}: expected the cards drawn this turn, 1 or more", value=value
                )
            return value
        if key == "rounds":
            if not isinstance(value, list) or not value:
                raise CardError('expected a list of rounds like ["A knock 3, B 12, C 20"]')
            return tuple(str(item) for item in value)
        if key == "player":
            return str(value)
        if key == "want":
            try:
                return ScoreAsk(value)
            except ValueError:
                choices = ", ".join(member.value for member in ScoreAsk)
                raise CardError(
                    "unknown value {value!r} (use {choices})", value=value, choices=choices
                ) from None
        raise CardError("{key!r} is not a key of this question", key=key)


# --- melds -----------------------------------------------------------------------------------


class MeldFault(Enum):
    """What keeps cards from being a Carousel meld (the learner's word is the value)."""

    SHORT = "short"
    """Fewer than three cards."""
    IDENTICAL = "identical"
    """Two identical cards (two decks): never in one group, never in one sequence."""
    SUIT = "suit"
    """A group holding two cards of one suit."""
    CORNER = "corner"
    """A sequence turning the corner, K-A-2: the ace is high or low, not both."""
    GAP = "gap"
    """Cards of one suit that are not consecutive."""
    MIXED = "mixed"
    """Neither one rank nor one suit."""

    @property
    def broken(self) -> str:
        """What the cards do when this is their fault, in the active language."""
        return _(_BROKEN[self])

    @property
    def meaning(self) -> str:
        """The rule the fault breaks, in the active language."""
        return _(_MEANING[self])


_BROKEN = {
    MeldFault.SHORT: N_("fewer than three cards"),
    MeldFault.IDENTICAL: N_("two identical cards"),
    MeldFault.SUIT: N_("a group with two cards of one suit"),
    MeldFault.CORNER: N_("a sequence round the corner (K-A-2)"),
    MeldFault.GAP: N_("a sequence with a gap"),
    MeldFault.MIXED: N_("neither one rank nor one suit"),
}
"""What the cards are when a fault is theirs (the end of "these cards are not ...")."""

_MEANING = {
    MeldFault.SHORT: N_("a meld has at least three cards"),
    MeldFault.IDENTICAL: N_("two identical cards never go in one meld"),
    MeldFault.SUIT: N_("a group has one card of each suit at most"),
    MeldFault.CORNER: N_("the ace is high (Q-K-A) or low (A-2-3), never both (K-A-2)"),
    MeldFault.GAP: N_("a sequence has no gaps"),
    MeldFault.MIXED: N_("a meld is one rank (a group) or one suit (a sequence)"),
}
"""The rule each fault breaks."""


_VALID_WORDS = frozenset({"valid", "yes", "ok", "meld"})


def meld_faults(slots: tuple[Slot, ...]) -> frozenset[MeldFault]:
    """Everything wrong with these cards as a meld (empty when they form one).

    Agrees with :func:`~gintutor.engine.carousel.cards.make_meld`: empty exactly when it
    builds a meld (a test holds them equal).

    >>> sorted(f.value for f in meld_faults(parse_slots("8S 8S 8H")))
    ['identical', 'suit']
    >>> meld_faults(parse_slots("QH KH AH"))
    frozenset()
    """
    faults: set[MeldFault] = set()
    if len(slots) < MIN_MELD:
        faults.add(MeldFault.SHORT)
    cards = [slot.card for slot in slots]
    if len(cards) != len(set(cards)):
        faults.add(MeldFault.IDENTICAL)
    ranks = {card.rank for card in cards}
    suits = {card.suit for card in cards}
    if len(ranks) == 1:
        if len(suits) != len(cards):
            faults.add(MeldFault.SUIT)
    elif len(suits) == 1:
        numbers = sorted({card.rank.number for card in cards})
        high = sorted(14 if n == 1 else n for n in numbers)
        if not (_consecutive(numbers) or _consecutive(high)):
            faults.add(MeldFault.CORNER if _turns_corner(numbers) else MeldFault.GAP)
    else:
        faults.add(MeldFault.MIXED)
    return frozenset(faults)


def _consecutive(numbers: list[int]) -> bool:
    return numbers == list(range(numbers[0], numbers[0] + len(numbers)))


def _turns_corner(numbers: list[int]) -> bool:
    """True when the ranks run on round the corner (K-A-2): consecutive counting 13-1-2."""
    if Rank.ACE.number not in numbers or Rank.KING.number not in numbers:
        return False
    shifted = sorted((n + 13 if n <= 6 else n) for n in numbers)
    return _consecutive(shifted)


@dataclass(frozen=True, kw_only=True)
class CarouselMeldQuestion(CarouselQuestion):
    """Is this a valid meld, and if not, what is wrong (``valid`` or a :class:`MeldFault`)."""

    kind: ClassVar[str] = "carousel-meld"
    cards: tuple[Slot, ...]

    def faults(self) -> frozenset[MeldFault]:
        """What is wrong with the cards (empty: a valid meld)."""
        return meld_faults(self.cards)

    def _shown(self, style: Style) -> str:
        return " ".join(slot.display(ascii_only=style.ascii_only) for slot in self.cards)

    def solve(self, style: Style = PLAIN) -> Solved:
        faults = self.faults()
        shown = self._shown(style)
        if not faults:
            meld = make_meld(self.cards)
            if meld.kind is MeldKind.GROUP:
                valid = _("{cards} is a valid group.", cards=shown)
            else:
                valid = _("{cards} is a valid sequence.", cards=shown)
            return Solved("valid", (Line(valid),))
        first = next(fault for fault in MeldFault if fault in faults)
        lines = [Line(_("{cards} is not a meld:", cards=shown))]
        lines += [
            Line(_("{fault}: {rule}.", fault=f.value, rule=f.meaning), 1)
            for f in MeldFault
            if f in faults
        ]
        return Solved(first.value, tuple(lines))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        word = text.strip().lower()
        words = {fault.value: fault for fault in MeldFault}
        if word not in _VALID_WORDS and word not in words:
            raise AnswerError(
                "{text}: answer valid, or what is wrong: {words}",
                text=quoted(text.strip()),
                words=", ".join(words),
            )
        faults = self.faults()
        if word in _VALID_WORDS:
            if not faults:
                return Feedback(True, _("Right: a valid meld."))
            return Feedback(False, _("Not valid: one of the meld rules is broken. Which one?"))
        fault = words[word]
        if fault in faults:
            return Feedback(True, _("Right: {rule}.", rule=fault.meaning))
        return Feedback(
            False,
            _(
                "Not {fault}: these cards are not {what}. Look again.",
                fault=fault.value,
                what=fault.broken,
            ),
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return [
            Line(_("Cards: {cards}", cards=self._shown(style))),
            Line(
                _(
                    "Answer valid, or what is wrong: {words}",
                    words=", ".join(f.value for f in MeldFault),
                )
            ),
        ]

    def completions(self) -> list[str]:
        return ["valid", *(fault.value for fault in MeldFault)]


# --- positions: a table and a hand -----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class _Position(CarouselQuestion):
    """A question about a table and your hand (``players`` sets one deck or two)."""

    table: Table = EMPTY
    hand: Hand
    players: int = 3

    @property
    def decks(self) -> int:
        """One deck for two players, two for more."""
        return decks_for(self.players)

    def verify(self) -> None:
        verify_counts(self.table, [self.hand], self.decks)
        super().verify()

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return [
            Line(
                ngettext(
                    "Table ({players} players, {decks} deck):",
                    "Table ({players} players, {decks} decks):",
                    self.decks,
                    players=self.players,
                    decks=self.decks,
                )
            ),
            *table_lines(self.table, style),
            Line(
                _(
                    "Your hand: {cards} ({points} points)",
                    cards=hand_text(self.hand, style),
                    points=self.hand.points,
                )
            ),
        ]

    def completions(self) -> list[str]:
        codes = {slot.code for slot in self.table.slots()} | set(self.hand.codes())
        return [*sorted(codes), "|", "none"]

    def _read_held(self, text: str) -> Hand:
        typed = read_hand(text)
        try:
            self.hand - typed
        except CardError as error:
            raise AnswerError("you don't hold {cards}", **error.params) from None
        return typed


@dataclass(frozen=True, kw_only=True)
class CarouselPlaceQuestion(_Position):
    """Which cards of your hand could you place as a play of their own (one card each)?"""

    kind: ClassVar[str] = "carousel-place"

    def plays(self) -> dict[str, Play | None]:
        """Each distinct card of the hand (``JK`` a joker) and its best play alone, if any."""
        return _placements(self.table, self.hand, self.decks)

    def placeable(self) -> set[str]:
        """The codes of the cards that can be placed alone."""
        return {code for code, play in self.plays().items() if play is not None}

    def solve(self, style: Style = PLAIN) -> Solved:
        plays = self.plays()
        good = [code for code in self.hand.codes() if plays[code] is not None]
        answer = " ".join(dict.fromkeys(good)) or "none"
        lines: list[Block] = []
        for code, play in plays.items():
            card = hand_text(parse_hand_cards(code), style)
            if play is None:
                lines.append(Line(_("{card}: nowhere, whatever you rearrange.", card=card)))
                continue
            table = " | ".join(m.display(ascii_only=style.ascii_only) for m in play.table)
            if not play.moves:
                lines.append(Line(_("{card}: {table}.", card=card, table=table)))
                continue
            moved = ngettext(
                "{card}: {table}, moving {count} table card.",
                "{card}: {table}, moving {count} table cards.",
                len(play.moves),
                card=card,
                table=table,
                count=len(play.moves),
            )
            lines.append(Line(moved))
        return Solved(answer, tuple(lines))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        said = set() if text.strip().lower() in _NONE_WORDS else set(self._read_held(text).codes())
        right = self.placeable()
        if said == right:
            return Feedback(True, _("Right.") if right else _("Right: none of them."))
        wrong = sorted(said - right)
        if wrong:
            card = hand_text(parse_hand_cards(wrong[0]), style)
            return Feedback(
                False,
                _(
                    "{card} cannot be placed on its own: no rearrangement leaves every table "
                    "card in a meld with it.",
                    card=card,
                ),
            )
        return Feedback(
            False,
            _("You can place more: look for a card that fits once the table is rearranged."),
        )


def _placements(table: Table, hand: Hand, decks: int) -> dict[str, Play | None]:
    found: dict[str, Play | None] = {}
    for code in dict.fromkeys(hand.codes()):
        found[code] = best_play(table, parse_hand_cards(code), decks)
    return found


def check_play(
    table: Table, hand: Hand, new_table: Table, decks: int, first_meld: bool = False
) -> Hand:
    """The hand cards ``new_table`` places; :class:`IllegalError` with the reason if the play
    is illegal (the engine's play rules, and under the first meld the old table untouched)."""
    placed = verify_play(table, hand, new_table, decks)
    if first_meld and Counter(table.melds) - Counter(new_table.melds):
        raise IllegalError(
            "the first meld of the round is made of your own cards: leave the table as it is"
        )
    return placed


@dataclass(frozen=True, kw_only=True)
class CarouselPlayQuestion(_Position):
    """Make the best play: a new table that is legal and places as many points as the best.

    The learner types the whole new table (or ``none`` when nothing can be placed).
    """

    kind: ClassVar[str] = "carousel-play"
    first_meld: bool = False

    @cached_property
    def best(self) -> Play | None:
        """The solver's best play (points, then cards, then fewest moves)."""
        return best_play(
            self.table, self.hand, self.decks, self.carousel_rules, first_meld=self.first_meld
        )

    def solve(self, style: Style = PLAIN) -> Solved:
        best = self.best
        blocks = explain_play(self.table, self.hand, best, self.carousel_rules, style)
        return Solved("none" if best is None else best.table.text(), tuple(blocks))

    def check(self, new_table: Table) -> Hand:
        """The cards ``new_table`` places; :class:`IllegalError` with the reason if illegal."""
        return check_play(self.table, self.hand, new_table, self.decks, self.first_meld)

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        best = self.best
        if text.strip().lower() in _NONE_WORDS:
            if best is None:
                return Feedback(True, _("Right: no card of your hand can be placed."))
            return Feedback(False, _("You can place something: look again."))
        new_table = read_table(text)
        try:
            placed = self.check(new_table)
        except GinError as error:
            return Feedback(False, _("Not legal: {error}.", error=error_text(error)))
        points = placed.points
        if best is not None and points >= best.points_placed:
            return Feedback(
                True,
                ngettext(
                    "Right: you place {points} point, the most.",
                    "Right: you place {points} points, the most.",
                    points,
                    points=points,
                ),
            )
        return Feedback(
            False,
            ngettext(
                "Legal, but it places {points} point ({cards}): a better play places more.",
                "Legal, but it places {points} points ({cards}): a better play places more.",
                points,
                points=points,
                cards=hand_text(placed, style),
            ),
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        blocks = super().facts(style)
        if self.first_meld:
            blocks.append(Line(_("Nobody has melded yet: your first meld is of your own cards.")))
        blocks.append(Line(_("Type the whole new table, melds separated by |, or none.")))
        return blocks


@dataclass(frozen=True, kw_only=True)
class CarouselJokerQuestion(_Position):
    """May you make this play (``after``: the new table)? The joker rules decide it."""

    kind: ClassVar[str] = "carousel-joker"
    after: Table

    def verdict(self) -> tuple[bool, str]:
        """Whether the play is legal, and why (the engine's reason when not)."""
        try:
            placed = verify_play(self.table, self.hand, self.after, self.decks)
        except GinError as error:
            return False, error_text(error)
        return True, _(
            "it places {cards} and every table card is in a meld", cards=hand_text(placed, PLAIN)
        )

    def verify(self) -> None:
        has_joker = any(slot.joker for slot in self.table.slots()) or self.hand.jokers
        if not has_joker:
            raise GinError("a joker question needs a joker on the table or in the hand")
        super().verify()

    def solve(self, style: Style = PLAIN) -> Solved:
        legal, why = self.verdict()
        text = _("Legal: {why}.", why=why) if legal else _("Not legal: {error}.", error=why)
        return Solved(yes_no(legal), (Line(text),))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        said = read_yes_no(text)
        legal, _why = self.verdict()
        if said == legal:
            return Feedback(True, _("Right."))
        return Feedback(
            False,
            _(
                "Not quite: you said {answer}. Check each joker: what it stands for, what "
                "replaced it, and where it ends up.",
                answer=yes_no(said),
            ),
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return [
            *super().facts(style),
            Line(_("The play proposed leaves this table:")),
            *table_lines(self.after, style),
            Line(_("May you play it? (yes or no)")),
        ]

    def completions(self) -> list[str]:
        return ["yes", "no"]


@dataclass(frozen=True, kw_only=True)
class CarouselKnockQuestion(_Position):
    """May you knock (after your best play, with ``play: true``)?"""

    kind: ClassVar[str] = "carousel-knock"
    play: bool = False
    first_meld: bool = False

    def left(self) -> tuple[Hand, Play | None]:
        """The hand you would knock with, and the best play made first (if ``play``)."""
        if not self.play:
            return self.hand, None
        found = best_play(
            self.table, self.hand, self.decks, self.carousel_rules, first_meld=self.first_meld
        )
        return (self.hand if found is None else found.hand_after), found

    def may_knock(self) -> bool:
        """True when the hand left holds at most the knock limit."""
        return self.left()[0].points <= self.carousel_rules.knock_limit

    def solve(self, style: Style = PLAIN) -> Solved:
        hand, found = self.left()
        limit = self.carousel_rules.knock_limit
        blocks: list[Block] = []
        if self.play:
            blocks += explain_play(self.table, self.hand, found, self.carousel_rules, style)
        values = {"cards": hand_text(hand, style), "points": hand.points, "limit": limit}
        if hand.points <= limit:
            kept = ngettext(
                "You would keep {cards}: {points} point, the limit is {limit}: you may knock.",
                "You would keep {cards}: {points} points, the limit is {limit}: you may knock.",
                hand.points,
                **values,
            )
        else:
            kept = ngettext(
                "You would keep {cards}: {points} point, the limit is {limit}: you may not knock.",
                "You would keep {cards}: {points} points, the limit is {limit}: you may not knock.",
                hand.points,
                **values,
            )
        blocks.append(Line(kept))
        return Solved(yes_no(self.may_knock()), tuple(blocks))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        said = read_yes_no(text)
        if said == self.may_knock():
            return Feedback(True, _("Right."))
        return Feedback(
            False,
            _(
                "Not quite: you said {answer}. Count what stays in your hand (a joker 25, "
                "J Q K 10, an ace 1) and compare it with the knock limit.",
                answer=yes_no(said),
            ),
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        if not self.play:
            return [
                Line(_("Your hand after your turn: {cards}", cards=hand_text(self.hand, style)))
            ]
        return super().facts(style)

    def completions(self) -> list[str]:
        return ["yes", "no"]


# --- the turn --------------------------------------------------------------------------------


class TurnAction(Enum):
    """What a player may do next in a Carousel turn (the learner's word is the value)."""

    MELD = "meld"
    """Play onto the table now."""
    DRAW = "draw"
    """Do not play: draw another card."""
    END = "end"
    """The turn is over (knock if the hand allows it, or let the next player draw)."""


_ACTION_JOINERS = frozenset({"or", "and", ","})


@dataclass(frozen=True, kw_only=True)
class CarouselTurnQuestion(_Position):
    """What may you do now, ``drawn`` cards into your turn (the last one is in ``hand``)?

    The answer is every :class:`TurnAction` the engine's round allows at that point (a play
    only if your hand and the table make one), typed in any order.
    """

    kind: ClassVar[str] = "carousel-turn"
    drawn: int
    first_meld: bool = False

    def verify(self) -> None:
        limit = self.carousel_rules.draws_per_turn
        if not 1 <= self.drawn <= limit:
            raise CardError(
                "drawn: {drawn}; a turn draws 1 to {limit} cards", drawn=self.drawn, limit=limit
            )
        if len(self.hand) < self.drawn:
            raise CardError(
                "drawn: {drawn}; the hand holds only {count} cards",
                drawn=self.drawn,
                count=len(self.hand),
            )
        super().verify()

    def round(self) -> Round:
        """The engine's round at this point: your hand dealt without the cards you drew, the
        stock giving them back one per draw, and a pass after each draw but the last."""
        drawn = parse_hand_cards(self.hand.codes()[len(self.hand) - self.drawn :])
        # A joker stays under the drawn cards so the stock does not run out (which would start
        # the last turns, a different state).
        stock: list[Card | None] = [None] * (1 + drawn.jokers) + list(drawn.cards)[::-1]
        melded = set() if self.first_meld else {0, 1}
        round_ = Round(
            self.carousel_rules,
            self.decks,
            [self.hand - drawn, Hand()],
            stock,
            self.table,
            has_melded=melded,
        )
        for number in range(self.drawn):
            if number:
                round_.pass_turn()
            round_.draw()
        return round_

    def play(self) -> Play | None:
        """The best play you could make now (None if the hand and table make none)."""
        return best_play(
            self.table, self.hand, self.decks, self.carousel_rules, first_meld=self.first_meld
        )

    def actions(self) -> list[TurnAction]:
        """What you may do now, in the order of :class:`TurnAction`."""
        round_ = self.round()
        found: list[TurnAction] = []
        if round_.can_play() and self.play() is not None:
            found.append(TurnAction.MELD)
        if round_.can_play() and round_.stock:
            found.append(TurnAction.DRAW)
        if round_.phase is Phase.TURN_OVER:
            found.append(TurnAction.END)
        return found

    def solve(self, style: Style = PLAIN) -> Solved:
        actions = self.actions()
        limit = self.carousel_rules.draws_per_turn
        blocks: list[Block] = []
        if self.drawn >= limit:
            blocks.append(
                Line(
                    _(
                        "That was draw {drawn} of {limit}: after the last draw of a turn you "
                        "may not meld, and the turn is over. There is no discard.",
                        drawn=self.drawn,
                        limit=limit,
                    )
                )
            )
        else:
            found = self.play()
            if found is None:
                blocks.append(
                    Line(
                        _(
                            "Draw {drawn} of {limit}: nothing in your hand can go on the table, "
                            "so you draw again.",
                            drawn=self.drawn,
                            limit=limit,
                        )
                    )
                )
            else:
                blocks += explain_play(self.table, self.hand, found, self.carousel_rules, style)
                blocks.append(
                    Line(
                        _(
                            "Draw {drawn} of {limit}: you may meld now (and your turn ends), "
                            "or keep your cards and draw again.",
                            drawn=self.drawn,
                            limit=limit,
                        )
                    )
                )
        return Solved(" ".join(action.value for action in actions), tuple(blocks))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        words = text.lower().replace(",", " , ").split()
        said: set[TurnAction] = set()
        for word in words:
            if word in _ACTION_JOINERS:
                continue
            try:
                said.add(TurnAction(word))
            except ValueError:
                raise AnswerError(
                    "{word} is not a move here: type meld, draw or end (or several)",
                    word=quoted(word),
                ) from None
        if not said:
            raise AnswerError("type meld, draw or end (or several)")
        right = set(self.actions())
        if said == right:
            return Feedback(True, _("Right."))
        limit = self.carousel_rules.draws_per_turn
        if TurnAction.MELD in said - right:
            reason = (
                _("after draw {limit}, the last of a turn, you may not meld", limit=limit)
                if self.drawn >= limit
                else _("nothing in your hand can go on the table")
            )
            return Feedback(False, _("Not quite: {reason}.", reason=reason))
        if TurnAction.DRAW in said - right:
            return Feedback(False, _("Not quite: a turn draws at most {limit} cards.", limit=limit))
        if TurnAction.END in said - right:
            return Feedback(
                False,
                _(
                    "Not quite: a turn ends after a meld or after draw {limit}; there is no "
                    "discard to end it.",
                    limit=limit,
                ),
            )
        return Feedback(False, _("Not quite: you may do more than that now."))

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return [
            *super().facts(style),
            Line(
                _(
                    "Cards drawn this turn: {drawn} of {limit}",
                    drawn=self.drawn,
                    limit=self.carousel_rules.draws_per_turn,
                )
            ),
        ]

    def completions(self) -> list[str]:
        return [action.value for action in TurnAction]


# --- scoring ---------------------------------------------------------------------------------


class ScoreAsk(Enum):
    """Which number a score question asks for."""

    ROUND = "round"
    """The player's score in the last round given."""
    TOTAL = "total"
    """The player's running total after the rounds (no end-of-game bonus)."""
    FINAL = "final"
    """The player's final score: the game is over, bonuses included."""


@dataclass(frozen=True, kw_only=True)
class CarouselScoreQuestion(CarouselQuestion):
    """A player's score from round results (``A knock 3, B 12, C 20``), 2 to 5 players."""

    kind: ClassVar[str] = "carousel-score"
    rounds: tuple[str, ...]
    player: str
    want: ScoreAsk = ScoreAsk.ROUND

    def sheet(self) -> tuple[list[str], GameSheet]:
        """The players' names and the score sheet of the rounds."""
        names, results = parse_rounds(list(self.rounds))
        return names, score_game(results, self.carousel_rules)

    def number(self) -> int:
        """The number the question asks for."""
        names, sheet = self.sheet()
        lowered = [name.lower() for name in names]
        if self.player.lower() not in lowered:
            raise GinError(
                "player {player!r} is not in the rounds ({names})",
                player=self.player,
                names=", ".join(names),
            )
        index = lowered.index(self.player.lower())
        if self.want is ScoreAsk.ROUND:
            return sheet.rounds[-1].scores[index]
        if self.want is ScoreAsk.TOTAL:
            return sheet.running[-1][index]
        if not sheet.over:
            raise GinError("a final score needs a finished game (someone reaching the target)")
        return sheet.finals[index]

    def solve(self, style: Style = PLAIN) -> Solved:
        number = self.number()
        names, sheet = self.sheet()
        blocks = explain_round(sheet.rounds[-1], names)
        if len(sheet.rounds) > 1 or self.want is not ScoreAsk.ROUND:
            blocks += explain_sheet(sheet, names)
        return Solved(str(number), tuple(blocks))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        typed = read_number(text)
        if typed == self.number():
            return Feedback(True, _("Right: {value}.", value=typed))
        advice = {
            ScoreAsk.ROUND: N_(
                "Not {value}: the lowest hand scores the difference to each other player, "
                "summed, plus any undercut or going-out bonus; the others score nothing."
            ),
            ScoreAsk.TOTAL: N_("Not {value}: add the player's scores round by round."),
            ScoreAsk.FINAL: N_(
                "Not {value}: add the rounds, then the game bonus for reaching the target, or "
                "the bonus per round won for everyone else."
            ),
        }[self.want]
        return Feedback(False, _(advice, value=typed))

    def facts(self, style: Style = PLAIN) -> list[Block]:
        asked = {
            ScoreAsk.ROUND: N_("Asked: the last round's score of {player}."),
            ScoreAsk.TOTAL: N_("Asked: the total of {player}."),
            ScoreAsk.FINAL: N_("Asked: the final score of {player}."),
        }[self.want]
        blocks: list[Block] = [Line(_("Rounds (points left in hand):"))]
        blocks += [Line(f"{n}. {text}", 1) for n, text in enumerate(self.rounds, start=1)]
        blocks.append(Line(_(asked, player=self.player)))
        return blocks


CAROUSEL_KINDS: tuple[type[CarouselQuestion], ...] = (
    CarouselMeldQuestion,
    CarouselPlaceQuestion,
    CarouselPlayQuestion,
    CarouselJokerQuestion,
    CarouselKnockQuestion,
    CarouselTurnQuestion,
    CarouselScoreQuestion,
)
"""The Carousel question kinds, in the order the lesson format lists them."""
