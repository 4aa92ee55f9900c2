"""Scoring a game (or a Hollywood match) from the results of its hands.

Hands add to a running total until a player reaches the target. Then the winner gets the game
bonus, each player a box bonus per hand won (boxes do not count toward the target), and a
shutout (the loser won no hand) doubles the winner's hand points (``double``) or makes the game
bonus 200 (``bonus-200``). Hollywood (RULES.md §3) runs three games at once: a player's first
win is entered in game 1, the second in games 1 and 2, the third and later in all three, each
only while that game is open.

>>> from gintutor.engine.rules import preset
>>> sheet = score_game([HandRecord.won(0, Outcome.GIN, 40), HandRecord.won(0, Outcome.KNOCK, 60)],
...                    preset("standard"))
>>> sheet.finished, sheet.winner, sheet.shutout, sheet.final_totals
(True, 0, True, (350, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from gintutor.engine.rules import HOLLYWOOD_GAMES, SHUTOUT_GAME_BONUS, Boxes, RuleSet, Shutout
from gintutor.engine.scoring import Outcome, Side, score_hand
from gintutor.errors import GinError

PLAYERS = 2


@dataclass(frozen=True)
class HandRecord:
    """One hand's result for the score sheet: the winner (0 or 1) and points; void: no winner."""

    winner: int | None
    outcome: Outcome | None
    points: int

    def __post_init__(self) -> None:
        if self.winner is None:
            if self.points != 0 or self.outcome is not None:
                raise GinError("a void hand scores nothing")
        elif self.winner not in range(PLAYERS) or self.points < 0 or self.outcome is None:
            raise GinError(
                "a hand result needs a winner (0 or 1), how it ended and points >= 0, "
                "got winner {winner}, {outcome}, {points}",
                winner=self.winner,
                outcome=self.outcome,
                points=self.points,
            )

    @classmethod
    def won(cls, winner: int, outcome: Outcome, points: int) -> HandRecord:
        """A hand won by player ``winner`` with ``points``."""
        return cls(winner, outcome, points)

    @classmethod
    def void(cls) -> HandRecord:
        """A hand voided at stock exhaustion: nobody scores."""
        return cls(None, None, 0)

    @classmethod
    def from_deadwood(
        cls,
        knocker: int,
        knocker_deadwood: int,
        defender_deadwood: int,
        rules: RuleSet,
        *,
        big_gin: bool = False,
        multiplier: int = 1,
    ) -> HandRecord:
        """The record of a knock by player ``knocker`` scored under ``rules`` from the counts."""
        score = score_hand(
            knocker_deadwood, defender_deadwood, rules, big_gin=big_gin, multiplier=multiplier
        )
        winner = knocker if score.winner is Side.KNOCKER else 1 - knocker
        return cls(winner, score.outcome, score.points)


class BonusKind(Enum):
    """The bonuses added when a game ends."""

    GAME = "game bonus"
    BOX = "box bonus"
    SHUTOUT = "shutout"


@dataclass(frozen=True)
class Bonus:
    """One end-of-game bonus for a player, with the rule setting it comes from."""

    player: int
    kind: BonusKind
    points: int
    setting: str
    count: int = 1
    """For box bonuses: the number of hands won."""


@dataclass(frozen=True)
class SheetLine:
    """A hand entered on a game's sheet and the running totals after it (``hand`` counts from 1)."""

    hand: int
    record: HandRecord
    totals: tuple[int, int]


@dataclass(frozen=True)
class GameSheet:
    """One game's score sheet: its lines, and once a player reached the target, the settlement."""

    target: int
    lines: tuple[SheetLine, ...]
    totals: tuple[int, int]
    hands_won: tuple[int, int]
    winner: int | None
    bonuses: tuple[Bonus, ...]

    @property
    def finished(self) -> bool:
        """True when a player has reached the target."""
        return self.winner is not None

    @property
    def shutout(self) -> bool:
        """True when the game is over and the loser won no hand."""
        return self.winner is not None and self.hands_won[1 - self.winner] == 0

    @property
    def final_totals(self) -> tuple[int, int]:
        """Each player's points with the bonuses (equal to ``totals`` while the game is open)."""
        extra = [0, 0]
        for bonus in self.bonuses:
            extra[bonus.player] += bonus.points
        return (self.totals[0] + extra[0], self.totals[1] + extra[1])

    @property
    def margin(self) -> int:
        """The winner's final total minus the loser's (0 while the game is open)."""
        if self.winner is None:
            return 0
        finals = self.final_totals
        return finals[self.winner] - finals[1 - self.winner]


def _settle(
    rules: RuleSet, lines: Sequence[SheetLine], totals: tuple[int, int], won: tuple[int, int]
) -> GameSheet:
    winner = next((p for p in range(PLAYERS) if totals[p] >= rules.target), None)
    bonuses: list[Bonus] = []
    if winner is not None:
        shutout = won[1 - winner] == 0
        game_bonus = rules.game_bonus
        if shutout and rules.shutout is Shutout.BONUS_200:
            bonuses.append(Bonus(winner, BonusKind.GAME, SHUTOUT_GAME_BONUS, "shutout"))
        elif game_bonus:
            bonuses.append(Bonus(winner, BonusKind.GAME, game_bonus, "game_bonus"))
        if shutout and rules.shutout is Shutout.DOUBLE:
            bonuses.append(Bonus(winner, BonusKind.SHUTOUT, totals[winner], "shutout"))
        paid = range(PLAYERS) if rules.boxes is Boxes.BOTH else (winner,)
        for player in paid:
            if won[player] and rules.box_bonus:
                bonuses.append(
                    Bonus(
                        player,
                        BonusKind.BOX,
                        won[player] * rules.box_bonus,
                        "box_bonus",
                        won[player],
                    )
                )
    return GameSheet(rules.target, tuple(lines), totals, won, winner, tuple(bonuses))


class RunningGame:
    """A game being filled in, hand by hand: :func:`score_game` enters every hand into one, and
    a caller that needs the score before each hand (a review) keeps one and enters each hand
    as it ends, in constant time (re-scoring the sheet before every hand was quadratic)."""

    def __init__(self) -> None:
        self.lines: list[SheetLine] = []
        self.totals = [0, 0]
        self.won = [0, 0]

    def add(self, record: HandRecord, rules: RuleSet) -> None:
        """Enter the next hand; :class:`GinError` when the game was already over."""
        number = len(self.lines) + 1
        if self.is_over(rules):
            raise GinError(
                "hand {number}: the game was already over after hand {previous}",
                number=number,
                previous=number - 1,
            )
        self.enter(number, record)

    def enter(self, hand: int, record: HandRecord) -> None:
        if record.winner is not None:
            self.totals[record.winner] += record.points
            self.won[record.winner] += 1
        self.lines.append(SheetLine(hand, record, (self.totals[0], self.totals[1])))

    def sheet(self, rules: RuleSet) -> GameSheet:
        return _settle(
            rules, self.lines, (self.totals[0], self.totals[1]), (self.won[0], self.won[1])
        )

    def is_over(self, rules: RuleSet) -> bool:
        return max(self.totals) >= rules.target


def game_over_after(records: Iterable[HandRecord], rules: RuleSet) -> int | None:
    """The number of the hand (from 1) that took a player to the target, or ``None``: a hand
    dealt after it belongs to no game (what :func:`score_game` refuses; a reader of saved
    games and logs names its line)."""
    game = RunningGame()
    for number, record in enumerate(records, start=1):
        game.enter(number, record)
        if game.is_over(rules):
            return number
    return None


def score_game(records: Iterable[HandRecord], rules: RuleSet) -> GameSheet:
    """The score sheet of one game; :class:`GinError` for a hand after the game ended."""
    game = RunningGame()
    for record in records:
        game.add(record, rules)
    return game.sheet(rules)


@dataclass(frozen=True)
class Match:
    """A Hollywood match: three games scored at once."""

    games: tuple[GameSheet, ...]
    unentered: tuple[SheetLine, ...] = ()
    """Hands won that went into no game: every game they were due in had closed."""

    @property
    def finished(self) -> bool:
        """True when all three games are closed."""
        return all(game.finished for game in self.games)

    @property
    def final_totals(self) -> tuple[int, int]:
        """Each player's points over the three games, bonuses included."""
        return (
            sum(game.final_totals[0] for game in self.games),
            sum(game.final_totals[1] for game in self.games),
        )


def score_match(
    records: Iterable[HandRecord], rules: RuleSet, games: int = HOLLYWOOD_GAMES
) -> Match:
    """Score hands across Hollywood's games (RULES.md §3); :class:`GinError` after the match ended.

    >>> from gintutor.engine.rules import preset
    >>> match = score_match([HandRecord.won(0, Outcome.KNOCK, 10)] * 3, preset("hollywood"))
    >>> [game.totals for game in match.games]
    [(30, 0), (20, 0), (10, 0)]
    """
    sheets = [RunningGame() for _ in range(games)]
    wins = [0, 0]
    unentered: list[SheetLine] = []
    for number, record in enumerate(records, start=1):
        if all(game.is_over(rules) for game in sheets):
            raise GinError(
                "hand {number}: the match was already over after hand {previous}",
                number=number,
                previous=number - 1,
            )
        if record.winner is None:
            for game in sheets:
                if not game.is_over(rules):
                    game.enter(number, record)
            continue
        wins[record.winner] += 1
        due = [
            game for game in sheets[: min(wins[record.winner], games)] if not game.is_over(rules)
        ]
        for game in due:
            game.enter(number, record)
        if not due:
            unentered.append(SheetLine(number, record, (0, 0)))
    return Match(tuple(game.sheet(rules) for game in sheets), tuple(unentered))
