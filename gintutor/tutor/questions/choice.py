"""Choice questions: pick the option(s) for which an engine predicate holds.

The engine is imported when the options are judged, not with the module (measured: see
:mod:`gintutor.tutor.questions.hands`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

from gintutor.engine.cards import Card, CardSet
from gintutor.errors import GinError
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.i18n import _
from gintutor.tutor.questions.base import (
    LONGEST_NUMBER,
    PLAIN,
    AnswerError,
    Feedback,
    Question,
    Solved,
    facts,
    quoted,
)


class Predicate(Enum):
    """What a choice question's correct options have in common (decided by the engine)."""

    MELD = "meld"
    """The option's cards form a meld."""
    NOT_MELD = "not-meld"
    """The option's cards do not form a meld."""
    CAN_KNOCK = "can-knock"
    """The option (a hand) may knock under the question's rules."""
    LEAST_DEADWOOD = "least-deadwood"
    """The option (a hand) has the least deadwood of all the options."""
    SAFE = "safe"
    """The option (a card) makes no meld with the cards the opponent is known to hold."""
    LEGAL_DISCARD = "legal-discard"
    """The option (a card of the hand) may be discarded this turn."""


Option = tuple[Card, ...]
"""One option: a group of cards, in the order the author wrote them."""


def option_label(index: int) -> str:
    """The letter of option ``index`` (``a`` for 0)."""
    return chr(ord("a") + index)


def gives_meld(card_mask: int, known_mask: int) -> bool:
    """True when the card completes a meld with cards the opponent is known to hold."""
    from gintutor.engine.melds import melds_within

    return any(meld & card_mask for meld in melds_within(known_mask | card_mask))


@dataclass(frozen=True)
class OptionVerdict:
    """What the engine finds about one option: whether the predicate holds, and why."""

    holds: bool
    why: str


def _meld_verdict(option: Option, predicate: Predicate) -> OptionVerdict:
    from gintutor.engine.melds import Meld

    try:
        meld = Meld.parse(option)
    except GinError:
        return OptionVerdict(predicate is Predicate.NOT_MELD, _("not a meld"))
    return OptionVerdict(predicate is Predicate.MELD, _("a set") if meld.is_set else _("a run"))


@dataclass(frozen=True, kw_only=True)
class ChoiceQuestion(Question):
    """Pick an option for which ``predicate`` holds (at least one does, checked on load).

    ``hand`` and ``taken`` serve ``legal-discard``; ``upcard`` ``can-knock``;
    ``opponent_known`` ``safe``.
    """

    kind: ClassVar[str] = "choice"
    options: tuple[Option, ...]
    predicate: Predicate
    hand: CardSet | None = None
    upcard: Card | None = None
    taken: Card | None = None
    opponent_known: CardSet = field(default_factory=lambda: CardSet(0))

    def verdicts(self, style: Style = PLAIN) -> list[OptionVerdict]:
        """The engine's verdict on every option, in order."""
        hands = [CardSet.from_cards(option) for option in self.options]
        predicate = self.predicate
        if predicate in (Predicate.MELD, Predicate.NOT_MELD):
            return [_meld_verdict(option, predicate) for option in self.options]
        if predicate is Predicate.CAN_KNOCK:
            from gintutor.engine.knocking import knock_verdict
            from gintutor.text.explain import knock_sentence

            knocks = [knock_verdict(cards, self.rules, self.upcard) for cards in hands]
            return [OptionVerdict(v.can_knock, knock_sentence(v, self.rules)) for v in knocks]
        if predicate is Predicate.LEAST_DEADWOOD:
            from gintutor.engine.solver import min_deadwood_mask

            counts = [min_deadwood_mask(cards.mask) for cards in hands]
            return [
                OptionVerdict(count == min(counts), _("{count} deadwood", count=count))
                for count in counts
            ]
        if predicate is Predicate.SAFE:
            known = self.opponent_known.mask
            unsafe = [gives_meld(cards.mask, known) for cards in hands]
            return [
                OptionVerdict(not u, _("gives the opponent a meld") if u else _("safe"))
                for u in unsafe
            ]
        return [self._discard_verdict(option) for option in self.options]

    def _discard_verdict(self, option: Option) -> OptionVerdict:
        if self.hand is None:
            raise GinError("a legal-discard question needs a hand")
        if len(option) != 1:
            raise GinError("a legal-discard option is one card")
        card = option[0]
        from gintutor.engine.solver import verify_discard

        try:
            verify_discard(self.hand, card, self.taken)
        except GinError:
            why = (
                _("not in the hand")
                if card not in self.hand
                else _("just taken from the discard pile: not this turn")
            )
            return OptionVerdict(False, why)
        return OptionVerdict(True, _("may be discarded"))

    def correct_options(self) -> list[int]:
        """The indices of the options for which the predicate holds."""
        return [index for index, verdict in enumerate(self.verdicts()) if verdict.holds]

    def _reasons(self, style: Style) -> list[Line]:
        return [
            Line(f"{option_label(i)}) {style.cards(option)}: {verdict.why}", 1)
            for i, (option, verdict) in enumerate(
                zip(self.options, self.verdicts(style), strict=True)
            )
        ]

    def solve(self, style: Style = PLAIN) -> Solved:
        right = self.correct_options()
        if not right:
            raise GinError("no option is correct: the engine finds none that fits the predicate")
        labels = ", ".join(option_label(i) for i in right)
        return Solved(
            option_label(right[0]),
            (Line(_("Correct: {labels}.", labels=labels)), *self._reasons(style)),
        )

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        index = self._read_choice(text)
        why = self._reasons(style)[index].text.rstrip(".")
        if self.verdicts()[index].holds:
            return Feedback(True, _("Right: {why}.", why=why))
        return Feedback(False, _("Not that one: {why}.", why=why))

    def _read_choice(self, text: str) -> int:
        """The option a learner names by its letter (or its number, from 1)."""
        word = text.strip().lower()
        count = len(self.options)
        if len(word) == 1 and "a" <= word <= option_label(count - 1):
            return ord(word) - ord("a")
        if (
            word.isascii()
            and word.isdigit()
            and len(word) <= LONGEST_NUMBER
            and (1 <= int(word) <= count)
        ):
            return int(word) - 1
        raise AnswerError(
            "{text}: answer with a letter from a to {last}",
            text=quoted(text.strip()),
            last=option_label(count - 1),
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return [
            *facts(
                style,
                self.rules,
                hand=self.hand,
                taken=self.taken,
                upcard=self.upcard,
                opponent_known=self.opponent_known,
            ),
            *(
                Line(f"{option_label(i)}) {style.cards(option)}", 1)
                for i, option in enumerate(self.options)
            ),
        ]

    def completions(self) -> list[str]:
        return [option_label(i) for i in range(len(self.options))]
