"""Questions about a knock played out: the defender's layoffs and the hand's points.

The engine plays the knock out when a question needs it, imported then, not with the module
(measured: see :mod:`gintutor.tutor.questions.hands`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from gintutor.engine.cards import Card, CardSet
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.i18n import N_, _
from gintutor.tutor.questions.base import (
    PLAIN,
    Feedback,
    Question,
    Solved,
    facts,
    read_held,
    read_number,
)

if TYPE_CHECKING:
    from gintutor.engine.showdown import Showdown


@dataclass(frozen=True, kw_only=True)
class _ShowdownQuestion(Question):
    """A knocker's hand against a defender's, with the first upcard and a card just taken."""

    hand: CardSet
    defender: CardSet
    upcard: Card | None = None
    taken: Card | None = None

    def showdown(self) -> Showdown:
        """The knock this question is about, played out by the engine."""
        from gintutor.engine.showdown import showdown

        return showdown(self.hand, self.defender, self.rules, self.upcard, self.taken)

    def _explanation(self, style: Style) -> tuple[Block, ...]:
        from gintutor.text.explain import explain_showdown

        return tuple(explain_showdown(self.showdown(), style, mine=False)[1:])


@dataclass(frozen=True, kw_only=True)
class LayoffsQuestion(_ShowdownQuestion):
    """Which cards the defender lays off against the knocker's spread."""

    kind: ClassVar[str] = "layoffs"

    def solve(self, style: Style = PLAIN) -> Solved:
        laid = self.showdown().defence.laid_off.text() or _("none")
        return Solved(laid, self._explanation(style))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        given = (
            CardSet(0)
            if text.strip().lower() in ("none", "-", "ingen", "nenhuma")
            else CardSet.from_cards(read_held(text, self.defender, "the defender"))
        )
        from gintutor.engine.layoffs import layoff_plan

        result = self.showdown()
        plan = layoff_plan(self.defender, result.spread.melds, given)
        if plan is None:
            return Feedback(
                False,
                _(
                    "{cards} cannot all be laid off on {melds}.",
                    cards=style.cards(given),
                    melds=", ".join(style.meld(m) for m in result.spread.melds),
                ),
            )
        if plan.deadwood == result.defence.deadwood:
            return Feedback(True, _("Right: the defender is left with {left}.", left=plan.deadwood))
        return Feedback(
            False,
            _(
                "Those layoffs leave the defender {left}; the best leaves {best}.",
                left=plan.deadwood,
                best=result.defence.deadwood,
            ),
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        spread = self.showdown().spread
        melds = ", ".join(style.meld(meld) for meld in spread.melds) or _("no melds")
        deadwood = style.cards(spread.deadwood_cards)
        return [
            Line(_("The knocker spreads {melds}; deadwood {cards}.", melds=melds, cards=deadwood)),
            Line(_("The defender holds {cards}.", cards=style.cards(self.defender))),
            *facts(style, self.rules, taken=self.taken, upcard=self.upcard),
        ]

    def completions(self) -> list[str]:
        return [card.code for card in self.defender]


@dataclass(frozen=True, kw_only=True)
class PointsQuestion(_ShowdownQuestion):
    """How many points the hand scores (knocker against defender, after layoffs)."""

    kind: ClassVar[str] = "points"

    def solve(self, style: Style = PLAIN) -> Solved:
        return Solved(str(self.showdown().points), self._explanation(style))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        value = read_number(text)
        result = self.showdown()
        if value == result.points:
            return Feedback(True, _("Right: {value}.", value=result.points))
        return Feedback(False, _points_meaning(result, value))

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return [
            Line(_("Knocker: {cards}", cards=style.cards(self.hand))),
            Line(_("Defender: {cards}", cards=style.cards(self.defender))),
            *facts(style, self.rules, taken=self.taken, upcard=self.upcard),
        ]


def _points_meaning(result: Showdown, value: int) -> str:
    """What a wrong score means: an item left out, or the wrong winner."""
    from gintutor.engine.scoring import ItemKind, Side

    left_out = {
        ItemKind.DEFENDER_DEADWOOD: N_(
            "Not {value}: you left out the defender's deadwood ({points})."
        ),
        ItemKind.GIN_BONUS: N_("Not {value}: you left out the gin bonus ({points})."),
        ItemKind.BIG_GIN_BONUS: N_("Not {value}: you left out the big gin bonus ({points})."),
        ItemKind.UNDERCUT_BONUS: N_("Not {value}: you left out the undercut bonus ({points})."),
        ItemKind.SPADE_DOUBLING: N_("Not {value}: you left out the spade doubling ({points})."),
    }
    score = result.score
    for item in score.items:
        if item.kind in left_out and value == score.points - item.points:
            return _(left_out[item.kind], value=value, points=item.points)
    if score.winner is Side.KNOCKER:
        return _("Not {value}: work out who wins (the knocker?) and add every item.", value=value)
    return _("Not {value}: work out who wins (the defender?) and add every item.", value=value)
