"""What every question shares: the prompt, the rules, the hints, and how answers are read.

A question kind is a small frozen class (:class:`Question`'s subclasses) that knows how to
judge a learner's answer (:meth:`Question.judge` raises :class:`AnswerError` for input that is
not an answer at all, e.g. a card not held), the engine's answer with its explanation
(:meth:`Question.solve`), what the learner sees before answering and what to offer for
completion. The answer is never typed into content: the engine computes it.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from gintutor.engine.cards import Card, CardSet, parse_cards
from gintutor.engine.rules import RuleSet
from gintutor.errors import GinError
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.i18n import _, pgettext

PLAIN = Style()
"""Cards written with suit symbols."""

LONGEST_NUMBER = 6
"""Digits in the longest number an answer may be (no answer in a lesson comes near it)."""


class AnswerError(GinError):
    """Input that is not an answer to the question (checked before it counts as a try)."""


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: right or wrong, and what the answer means.

    A wrong answer's message never states the engine's answer: that is the last hint level.
    """

    correct: bool
    message: str


@dataclass(frozen=True)
class Solved:
    """The engine's answer: as a learner would type it, and the explanation behind it."""

    answer: str
    explanation: tuple[Block, ...]


@dataclass(frozen=True, kw_only=True)
class Question(ABC):
    """One question: a prompt under a rule set, with up to two hints and the author's notes.

    Subclasses add the fields their kind needs (every field without a default is required in a
    lesson file) and answer through the engine.
    """

    kind: ClassVar[str]
    """The kind's name in lesson files (``question: deadwood``)."""

    prompt: str
    rules: RuleSet
    hints: tuple[str, ...] = ()
    explanation: str | None = None

    @abstractmethod
    def solve(self, style: Style = PLAIN) -> Solved:
        """The engine's answer to the question and the explanation of it."""

    @abstractmethod
    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        """Whether ``text`` answers the question correctly, and what it means if not.

        Raises :class:`AnswerError` when ``text`` is not an answer at all.
        """

    def facts(self, style: Style = PLAIN) -> list[Block]:
        """What the learner sees before answering: the hands, the cards known, the options."""
        return facts(style, self.rules)

    def completions(self) -> list[str]:
        """What to offer for completion (cards that make sense, option letters, yes/no)."""
        return []

    def verify(self) -> None:
        """Raise :class:`GinError` if the engine cannot answer the question as set."""
        self.solve()

    def accepts(self, expected: str) -> bool:
        """True when ``expected`` (the content's ``expect:``) is judged correct by the engine."""
        try:
            return self.judge(expected).correct
        except AnswerError:
            return False


def facts(
    style: Style,
    rules: RuleSet,
    *,
    hand: CardSet | None = None,
    taken: Card | None = None,
    upcard: Card | None = None,
    opponent_known: CardSet | None = None,
) -> list[Block]:
    """The lines setting out a question, in the one order every kind uses."""
    blocks: list[Block] = []
    if hand is not None:
        blocks.append(Line(_("Hand: {cards}", cards=style.cards(hand))))
    if taken is not None:
        blocks.append(
            Line(_("{card} was just taken from the discard pile.", card=style.card(taken)))
        )
    if upcard is not None:
        blocks.append(Line(_("First upcard: {card}.", card=style.card(upcard))))
    if opponent_known:
        known = style.cards(opponent_known)
        blocks.append(Line(_("The opponent is known to hold {cards}.", cards=known)))
    if rules.name != "standard":
        blocks.append(Line(_("Rules: {rules}.", rules=rules.name)))
    return blocks


def quoted(text: str, limit: int = 24) -> str:
    """``text`` quoted for a message, cut short if long (a pasted page is not echoed back).

    >>> quoted("5" * 30)
    "'555555555555555555555555…'"
    """
    shown = text if len(text) <= limit else text[:limit] + "…"
    return repr(shown)


_LONGEST_MESSAGE = 100
_INTEGER = re.compile(r"-?[0-9]+")
_YES = {"y", "yes", "true", "knock", "1", "ya", "ja", "j", "bank", "banke", "sim", "bater"}
_NO = {"n", "no", "false", "0", "tidak", "nei", "não", "nao"}
"""English answers in every language, plus the translated lessons' own words (Indonesian
``ya``/``tidak``, Norwegian ``ja``/``nei``, Portuguese ``sim``/``não``) where they cannot be
confused with another answer."""


def read_number(text: str) -> int:
    """A whole number typed in ASCII digits, at most :data:`LONGEST_NUMBER` of them.

    >>> read_number(" 24 ")
    24
    >>> read_number("²")
    Traceback (most recent call last):
    ...
    gintutor.tutor.questions.base.AnswerError: '²' is not a number: type a whole number like 14
    """
    cleaned = text.strip()
    if not _INTEGER.fullmatch(cleaned):
        raise AnswerError(
            _("{text} is not a number: type a whole number like 14", text=quoted(cleaned))
        )
    if len(cleaned.lstrip("-")) > LONGEST_NUMBER:
        raise AnswerError(
            _(
                "{text} is far too big: no answer here has more than {digits} digits",
                text=quoted(cleaned),
                digits=LONGEST_NUMBER,
            )
        )
    return int(cleaned)


def read_yes_no(text: str) -> bool:
    """``yes`` (``y``, ``true``, ``knock``, ``1``, ``ya``, ``ja``, ``j``, ``banke``, ``sim``,
    ``bater``) or ``no`` (``n``, ``false``, ``0``, ``tidak``, ``nei``, ``não``, ``nao``).

    >>> read_yes_no(" Ya "), read_yes_no("tidak"), read_yes_no("Ja"), read_yes_no("nei")
    (True, False, True, False)
    >>> read_yes_no("Sim"), read_yes_no("NÃO")
    (True, False)
    """
    word = text.strip().lower()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise AnswerError(_("{text}: answer yes or no", text=quoted(text.strip())))


def yes_no(value: bool) -> str:
    """A yes/no answer as a learner types it (in the active language: Indonesian ``ya``;
    :func:`read_yes_no` reads both)."""
    return pgettext("answer", "yes") if value else pgettext("answer", "no")


def read_cards(text: str) -> tuple[Card, ...]:
    """Cards typed by the learner, read by the engine's one card reader."""
    try:
        return parse_cards(text)
    except GinError as error:
        if len(str(error)) > 2 * _LONGEST_MESSAGE:
            # The engine quotes the bad input whole: a pasted page is not echoed back.
            raise AnswerError(
                "{text} is not cards: write cards like 7C or 10♦", text=quoted(text.strip())
            ) from None
        raise AnswerError(error.template, **error.params) from None


def read_held(text: str, held: CardSet, whose: str = "you") -> tuple[Card, ...]:
    """Cards typed by the learner that ``whose`` must hold (``you``, ``the defender``)."""
    cards = read_cards(text)
    for card in cards:
        if card not in held:
            if whose == "you":
                raise AnswerError(_("you don't hold {card}", card=card.code))
            if whose == "the defender":
                raise AnswerError(_("the defender doesn't hold {card}", card=card.code))
            raise AnswerError(_("{who} doesn't hold {card}", who=whose, card=card.code))
    return cards
