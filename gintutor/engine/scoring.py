"""The score of one hand: knock, undercut, gin or big gin, item by item with the rule behind each.

>>> from gintutor.engine.rules import preset
>>> score = score_hand(7, 7, preset("standard"))
>>> score.outcome, score.winner, score.points
(<Outcome.UNDERCUT: 'undercut'>, <Side.DEFENDER: 'defender'>, 25)
>>> score_hand(0, 20, preset("oklahoma"), multiplier=2).points
90
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from gintutor.engine.rules import RuleSet
from gintutor.errors import IllegalError


class Outcome(Enum):
    """How a hand ended after a knock."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"


class Side(Enum):
    """The two players of a showdown."""

    KNOCKER = "knocker"
    DEFENDER = "defender"


class ItemKind(Enum):
    """What one line of a hand's score is for."""

    DEADWOOD_DIFFERENCE = "deadwood difference"
    DEFENDER_DEADWOOD = "defender's deadwood"
    GIN_BONUS = "gin bonus"
    BIG_GIN_BONUS = "big gin bonus"
    UNDERCUT_BONUS = "undercut bonus"
    SPADE_DOUBLING = "spade doubling"


@dataclass(frozen=True)
class ScoreItem:
    """One line of a score: its points and the rule setting behind it (``None``: the basic rule)."""

    kind: ItemKind
    points: int
    setting: str | None = None


@dataclass(frozen=True)
class HandScore:
    """The result of a hand: who won, how, and the points item by item (they add up)."""

    outcome: Outcome
    winner: Side
    knocker_deadwood: int
    defender_deadwood: int
    items: tuple[ScoreItem, ...]

    @property
    def points(self) -> int:
        """The winner's points for the hand: the sum of the items."""
        return sum(item.points for item in self.items)

    @property
    def knocker_net(self) -> int:
        """The points seen from the knocker: positive for a win, negative when undercut."""
        return self.points if self.winner is Side.KNOCKER else -self.points


def score_hand(
    knocker_deadwood: int,
    defender_deadwood: int,
    rules: RuleSet,
    *,
    big_gin: bool = False,
    multiplier: int = 1,
) -> HandScore:
    """Score a knock: the deadwood counts are after layoffs (none after gin).

    Knocker lower: the difference. Defender lower, or equal when ``tie_is_undercut``: undercut,
    the difference plus the undercut bonus. Equal otherwise: the knocker wins 0. Gin (knocker at
    0) cannot be undercut: gin bonus plus the defender's deadwood; big gin likewise with its
    own bonus. ``multiplier`` (Oklahoma's spade doubling) applies to the whole hand.
    """
    items: list[ScoreItem] = []
    if big_gin:
        if not rules.big_gin:
            raise IllegalError("{rules} rules do not recognise big gin", rules=rules.name)
        outcome, winner = Outcome.BIG_GIN, Side.KNOCKER
        items += [
            ScoreItem(ItemKind.BIG_GIN_BONUS, rules.big_gin_bonus, "big_gin_bonus"),
            ScoreItem(ItemKind.DEFENDER_DEADWOOD, defender_deadwood),
        ]
    elif knocker_deadwood == 0:
        outcome, winner = Outcome.GIN, Side.KNOCKER
        items += [
            ScoreItem(ItemKind.GIN_BONUS, rules.gin_bonus, "gin_bonus"),
            ScoreItem(ItemKind.DEFENDER_DEADWOOD, defender_deadwood),
        ]
    else:
        if rules.undercut_bonus is None or rules.tie_is_undercut is None:
            raise IllegalError(
                "{rules} rules allow only gin: a knock with deadwood is illegal",
                rules=rules.name,
            )
        tie = knocker_deadwood == defender_deadwood
        if knocker_deadwood < defender_deadwood or (tie and not rules.tie_is_undercut):
            outcome, winner = Outcome.KNOCK, Side.KNOCKER
            items.append(
                ScoreItem(ItemKind.DEADWOOD_DIFFERENCE, defender_deadwood - knocker_deadwood)
            )
        else:
            outcome, winner = Outcome.UNDERCUT, Side.DEFENDER
            items += [
                ScoreItem(ItemKind.DEADWOOD_DIFFERENCE, knocker_deadwood - defender_deadwood),
                ScoreItem(ItemKind.UNDERCUT_BONUS, rules.undercut_bonus, "undercut_bonus"),
            ]
    if multiplier != 1:
        subtotal = sum(item.points for item in items)
        doubling = subtotal * (multiplier - 1)
        items.append(ScoreItem(ItemKind.SPADE_DOUBLING, doubling, "spade_doubles"))
    return HandScore(outcome, winner, knocker_deadwood, defender_deadwood, tuple(items))
