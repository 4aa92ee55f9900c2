"""The Carousel rule settings: the source text's numbers, and a choice where it is silent.

The engine reads these settings and never branches on a variant's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from gintutor.errors import RulesError


class Objective(Enum):
    """What the solver maximises first: the points placed (then cards) or the cards (then points).

    Either way the last tie-break is the fewest table cards moved.
    """

    POINTS_THEN_CARDS = "points"
    CARDS_THEN_POINTS = "cards"


class LowTie(Enum):
    """How a tie for the lowest hand is scored when no knocker is among the tied players."""

    SHARE = "share"
    """Every tied player wins and scores the differences to the others (the reading the source
    gives for a knocker tied with two others, applied to everyone)."""
    VOID = "void"
    """Nobody scores the round."""


class FirstMeld(Enum):
    """Who must open with a meld of their own cards."""

    ROUND = "round"
    """Only the first player to meld in the round (the source text): the table is empty then."""
    EACH_PLAYER = "each-player"
    """Every player's first melding turn lays down only melds of their own (Rummikub-like)."""


@dataclass(frozen=True)
class CarouselRules:
    """The Carousel settings; the defaults are the source text's reading."""

    hand_size: int = 10
    draws_per_turn: int = 3
    knock_limit: int = 5
    undercut_bonus: int = 10
    going_out_bonus: int = 25
    game_target: int = 150
    game_bonus: int = 100
    round_bonus: int = 25
    first_meld: FirstMeld = FirstMeld.ROUND
    low_tie: LowTie = LowTie.SHARE
    objective: Objective = Objective.POINTS_THEN_CARDS
    going_out_needs_draw: bool = False
    """True: you may go out only in a turn in which you drew (not in the last turns after the
    stock ran out). False: playing your last card ends the round in any turn."""

    def __post_init__(self) -> None:
        if not 1 <= self.draws_per_turn <= 5:
            raise RulesError("draws_per_turn {draws}: use 1 to 5", draws=self.draws_per_turn)
        if self.hand_size < 1 or self.knock_limit < 0 or self.game_target < 1:
            raise RulesError("hand_size and game_target must be positive, knock_limit >= 0")


STANDARD = CarouselRules()
"""The source text's Carousel."""
