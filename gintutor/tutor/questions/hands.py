"""Questions about one hand: its deadwood, its melds, whether it may knock, its best discard.

The engine is imported when a question is solved or judged, not with the module: a lesson
shows its first question without loading the solver. Measured with the engine imported at the
top of the question modules (this one, ``choice``, ``showdowns``, ``sheets``): ``learn 1`` (to
its first question) 1.13x and 1.12x the bare Typer + Rich app's least CPU, against 1.00x and
1.03x (``benchmarks/bench_startup.py``, 2x4 rounds, load ~9).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from gintutor.engine.cards import Card, CardSet, mask_of
from gintutor.errors import GinError
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.i18n import _, either
from gintutor.tutor.questions.base import (
    PLAIN,
    AnswerError,
    Feedback,
    Question,
    Solved,
    facts,
    read_cards,
    read_held,
    read_number,
    read_yes_no,
    yes_no,
)

if TYPE_CHECKING:
    from gintutor.engine.melds import Meld

_GROUP_SPLIT = re.compile(r"[|;/]")


@dataclass(frozen=True, kw_only=True)
class _MeldingQuestion(Question):
    """A question about how a hand melds, explained by its least-deadwood arrangements."""

    hand: CardSet

    def _arrangements(self, style: Style) -> tuple[Block, ...]:
        """Every least-deadwood arrangement of the hand, numbered when there are several."""
        from gintutor.engine.solver import solve
        from gintutor.text.explain import arrangement_lines

        solution = solve(self.hand)
        blocks: list[Block] = []
        for number, arrangement in enumerate(solution.arrangements, start=1):
            if len(solution.arrangements) > 1:
                blocks.append(Line(_("arrangement {number}", number=number)))
            blocks += arrangement_lines(arrangement, style)
        return tuple(blocks)

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return facts(style, self.rules, hand=self.hand)


@dataclass(frozen=True, kw_only=True)
class DeadwoodQuestion(_MeldingQuestion):
    """The least deadwood count of a hand (any number of cards)."""

    kind: ClassVar[str] = "deadwood"

    def solve(self, style: Style = PLAIN) -> Solved:
        from gintutor.engine.solver import solve

        return Solved(str(solve(self.hand).deadwood), self._arrangements(style))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        from gintutor.engine.solver import min_deadwood_mask

        value = read_number(text)
        best = min_deadwood_mask(self.hand.mask)
        if value == best:
            return Feedback(True, _("Right: {value}.", value=best))
        return Feedback(False, self._meaning(value, best, style))

    def _meaning(self, value: int, best: int, style: Style) -> str:
        """What a wrong count means, without giving the least count away."""
        if value == self.hand.points:
            return _("{value} counts every card; melded cards are not deadwood.", value=value)
        if value < best:
            return _(
                "{value} is too low: no arrangement of these cards leaves that little.",
                value=value,
            )
        from gintutor.engine.solver import arrangements_mask

        for arrangement in arrangements_mask(self.hand.mask, value):
            if arrangement.deadwood == value and arrangement.melds:
                shown = ", ".join(style.meld(meld) for meld in arrangement.melds)
                return _(
                    "{value} is what is left after melds such as {melds}; a better arrangement "
                    "leaves less.",
                    value=value,
                    melds=shown,
                )
        return _("Not {value}: count the unmelded cards again.", value=value)


def read_melds(text: str, hand: CardSet) -> list[Meld]:
    """Melds typed as card groups separated by ``|``, ``;`` or ``/`` (or ``none``, ``ingen``,
    ``nenhuma``)."""
    if text.strip().lower() in ("none", "-", "no melds", "ingen", "nenhuma"):
        return []
    from gintutor.engine.melds import Meld

    melds: list[Meld] = []
    used = 0
    for group in _GROUP_SPLIT.split(text):
        if not group.strip():
            continue
        cards = read_held(group, hand)
        try:
            meld = Meld.parse(cards)
        except GinError as error:
            raise AnswerError(error.template, **error.params) from None
        if meld.mask & used:
            twice = next(iter(CardSet(meld.mask & used)))
            raise AnswerError(
                _("{card} is in two melds: a card belongs to one meld at most", card=twice.code)
            )
        used |= meld.mask
        melds.append(meld)
    return melds


@dataclass(frozen=True, kw_only=True)
class MeldsQuestion(_MeldingQuestion):
    """An arrangement of melds that leaves the least deadwood (any optimal one is right)."""

    kind: ClassVar[str] = "melds"

    def solve(self, style: Style = PLAIN) -> Solved:
        from gintutor.engine.solver import solve

        best = solve(self.hand).best
        text = " | ".join(meld.text() for meld in best.melds) or "none"
        return Solved(text, self._arrangements(style))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        from gintutor.engine.solver import min_deadwood_mask
        from gintutor.text.explain import deadwood_sum

        melds = read_melds(text, self.hand)
        left = CardSet(self.hand.mask & ~mask_of(card for meld in melds for card in meld))
        best = min_deadwood_mask(self.hand.mask)
        if left.points == best:
            return Feedback(
                True, _("Right: that leaves {sum}, the least.", sum=deadwood_sum(left, style))
            )
        return Feedback(
            False,
            _("That arrangement leaves {left}, not {best}.", left=left.points, best=best),
        )

    def completions(self) -> list[str]:
        return [card.code for card in self.hand]


@dataclass(frozen=True, kw_only=True)
class _TurnQuestion(Question):
    """A hand in play: with the first upcard (Oklahoma) and the card just taken, if any."""

    hand: CardSet
    upcard: Card | None = None
    taken: Card | None = None

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return facts(style, self.rules, hand=self.hand, taken=self.taken, upcard=self.upcard)


@dataclass(frozen=True, kw_only=True)
class KnockQuestion(_TurnQuestion):
    """May this hand (10 cards, or 11 just after drawing) knock: yes or no?"""

    kind: ClassVar[str] = "knock"

    def solve(self, style: Style = PLAIN) -> Solved:
        from gintutor.engine.analysis import analyze
        from gintutor.engine.knocking import knock_verdict
        from gintutor.text.explain import discard_table, knock_sentence

        verdict = knock_verdict(self.hand, self.rules, self.upcard, self.taken)
        blocks: list[Block] = []
        if len(self.hand) == 11:
            analysis = analyze(
                self.hand, self.rules, upcard=self.upcard, taken_from_discard=self.taken
            )
            if self.taken is not None:
                blocks.append(
                    Line(
                        _(
                            "{card} was just taken from the discard pile, so it may not be "
                            "discarded.",
                            card=style.card(self.taken),
                        )
                    )
                )
            blocks.append(discard_table(analysis, style))
        blocks.append(Line(knock_sentence(verdict, self.rules)))
        return Solved(yes_no(verdict.can_knock), tuple(blocks))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        from gintutor.engine.knocking import knock_verdict

        said = read_yes_no(text)
        verdict = knock_verdict(self.hand, self.rules, self.upcard, self.taken)
        if said == verdict.can_knock:
            return Feedback(True, _("Right."))
        return Feedback(
            False,
            _(
                "Not quite: you said {answer}. Count the deadwood again and compare it with the "
                "knock limit.",
                answer=yes_no(said),
            ),
        )

    def completions(self) -> list[str]:
        return list(dict.fromkeys([yes_no(True), yes_no(False), "yes", "no"]))


@dataclass(frozen=True, kw_only=True)
class DiscardQuestion(_TurnQuestion):
    """The best discard of an 11-card hand (any discard leaving the least deadwood)."""

    kind: ClassVar[str] = "discard"

    def solve(self, style: Style = PLAIN) -> Solved:
        from gintutor.engine.analysis import analyze
        from gintutor.text.explain import discard_table

        analysis = analyze(self.hand, self.rules, upcard=self.upcard, taken_from_discard=self.taken)
        cards = analysis.verdict.best_discards
        return Solved(
            cards[0].code,
            (
                discard_table(analysis, style),
                Line(_("Best: {choice}.", choice=either([style.card(c) for c in cards]))),
            ),
        )

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        cards = read_cards(text)
        if len(cards) != 1:
            raise AnswerError(_("name one card to discard"))
        card = cards[0]
        from gintutor.engine.solver import discard_options, verify_discard

        try:
            verify_discard(self.hand, card, self.taken)
        except GinError as error:
            raise AnswerError(error.template, **error.params) from None
        options = discard_options(self.hand, self.taken)
        after = next(option.deadwood for option in options if option.card == card)
        if after == options[0].deadwood:
            return Feedback(
                True,
                _("Right: discarding {card} leaves {after}.", card=style.card(card), after=after),
            )
        return Feedback(
            False,
            _(
                "Discarding {card} leaves {after}; a better discard leaves {best}.",
                card=style.card(card),
                after=after,
                best=options[0].deadwood,
            ),
        )

    def completions(self) -> list[str]:
        return [card.code for card in self.hand if card != self.taken]
