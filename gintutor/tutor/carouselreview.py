"""A played Carousel game judged decision by decision against the exact solver.

Every time the learner could play (a ``play`` or ``pass`` in the log), the position is the one
they saw: the table, their hand, whether the first-meld rule held. The best play is the exact
solver's over the whole table (:func:`~gintutor.tutor.carouselplay.best_now`, what ``carousel
analyze`` computes for that table and hand). A decision is graded by the points it left in hand
against the points the best play leaves; placing nothing before the turn's last chance to play
(waiting for a better card) is listed but not graded, as the coach does not grade it either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gintutor.engine.carousel.cards import Hand, Table
from gintutor.engine.carousel.game import Action, LogEntry, Round, RoundResult
from gintutor.engine.carousel.solver import Play
from gintutor.text.blocks import Block, Heading, Line, Style
from gintutor.text.blocks import Table as TextTable
from gintutor.text.carousel import hand_text, table_lines
from gintutor.text.i18n import _, ngettext
from gintutor.tutor.carouselplay import (
    COACH_MARGIN,
    Setup,
    best_now,
    first_player,
    round_seed,
)


@dataclass(frozen=True)
class Decision:
    """One of the learner's chances to play, and what they did with it.

    ``left``: the points in hand after it (placing nothing: the hand as it was);
    ``best_left``: after the best play (the hand as it was when nothing can be placed);
    ``graded``: False for placing nothing while the turn still had a draw to come.
    """

    round: int
    turn: int
    """The learner's turn in the round (from 1)."""
    draw: int
    """Cards drawn this turn before the decision (0 in the last turns after the stock ran
    out)."""
    table: Table
    hand: Hand
    placed: Hand
    """The cards the learner placed (empty: placed nothing)."""
    left: int
    best: Play | None
    best_left: int
    graded: bool

    @property
    def gap(self) -> int:
        """Points left beyond the best play's (0 when the decision was as good)."""
        return max(0, self.left - self.best_left) if self.graded else 0

    @property
    def costly(self) -> bool:
        """True when the gap reaches the coach's margin (it would have warned)."""
        return self.gap >= COACH_MARGIN


@dataclass(frozen=True)
class CarouselReview:
    """Every decision of the learner in order, each round's result, and the totals."""

    decisions: tuple[Decision, ...]
    results: tuple[RoundResult | None, ...]
    """Each round's result (``None`` for a round not finished)."""

    @property
    def graded(self) -> tuple[Decision, ...]:
        """The decisions that are graded."""
        return tuple(d for d in self.decisions if d.graded)

    @property
    def best_count(self) -> int:
        """Graded decisions that left no more than the best play."""
        return sum(d.gap == 0 for d in self.graded)

    @property
    def costly_count(self) -> int:
        """Graded decisions that left at least the coach's margin more than the best play."""
        return sum(d.costly for d in self.graded)

    @property
    def points_lost(self) -> int:
        """The gaps added up over the graded decisions."""
        return sum(d.gap for d in self.graded)


def review_rounds(
    setup: Setup,
    rounds: Sequence[Sequence[LogEntry]],
    you: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> CarouselReview:
    """Replay ``rounds`` (each its log in order, the last may be unfinished) as dealt from
    ``setup``'s seed and judge each of player ``you``'s decisions (see the module).

    ``progress(done, total)`` is called after each decision is judged.
    """
    total = sum(1 for entries in rounds for e in entries if _decides(e, you))
    decisions: list[Decision] = []
    results: list[RoundResult | None] = []
    for number, entries in enumerate(rounds, start=1):
        round_ = Round.deal(
            setup.players,
            round_seed(setup.seed, number),
            setup.rules,
            first_player(number, setup.players),
        )
        turn = 0
        for entry in entries:
            if entry.player == you and entry.action is Action.DRAW and round_.draws == 0:
                turn += 1
            if _decides(entry, you):
                if round_.draws == 0 and round_.final_turns is not None:
                    turn += 1  # a last turn after the stock ran out starts without a draw
                decisions.append(_judge(round_, entry, number, max(turn, 1)))
                if progress is not None:
                    progress(len(decisions), total)
            round_.do(entry)
        results.append(round_.result)
    return CarouselReview(tuple(decisions), tuple(results))


def _decides(entry: LogEntry, you: int) -> bool:
    return entry.player == you and entry.action in (Action.PLAY, Action.PASS)


def _judge(round_: Round, entry: LogEntry, number: int, turn: int) -> Decision:
    """The decision ``entry`` (a play or a pass) in the position ``round_`` holds before it."""
    hand, table = round_.hand, round_.table
    best = best_now(round_)
    best_left = hand.points if best is None else best.points_after
    placed = entry.cards if entry.action is Action.PLAY else Hand()
    last_chance = round_.final_turns is not None or round_.draws >= round_.rules.draws_per_turn - 1
    return Decision(
        round=number,
        turn=turn,
        draw=round_.draws,
        table=table,
        hand=hand,
        placed=placed,
        left=(hand - placed).points,
        best=best,
        best_left=best_left,
        graded=entry.action is Action.PLAY or last_chance,
    )


# --- in words ----------------------------------------------------------------------------------


def review_blocks(review: CarouselReview, game: str, names: list[str], style: Style) -> list[Block]:
    """A played game's review: each of the learner's decisions against the best play, the
    costly ones explained, a summary."""
    blocks: list[Block] = [Heading(_("Review of Carousel game {game}", game=game))]
    if not review.decisions:
        blocks.append(Line(_("You made no play decision in this game yet.")))
        return blocks
    rows = []
    costly = set()
    for index, decision in enumerate(review.decisions):
        placed = hand_text(decision.placed, style) if len(decision.placed) else _("nothing")
        best = decision.best
        best_placed = hand_text(best.placed, style) if best is not None else _("nothing")
        if not decision.graded:
            verdict = _("waited")
        elif decision.gap == 0:
            verdict = _("best")
        else:
            verdict = f"+{decision.gap}"
        if decision.costly:
            costly.add(index)
        rows.append(
            (
                str(decision.round),
                str(decision.turn),
                str(decision.draw),
                placed,
                str(decision.left),
                best_placed,
                str(decision.best_left),
                verdict,
            )
        )
    blocks.append(
        TextTable(
            (
                _("round"),
                _("turn"),
                _("draw"),
                _("you placed"),
                _("you left"),
                _("best play"),
                _("it leaves"),
                _("verdict"),
            ),
            tuple(rows),
            frozenset(costly),
        )
    )
    for decision in review.decisions:
        if decision.costly and decision.best is not None:
            blocks.append(
                Line(
                    _(
                        "Round {round}, turn {turn}: with {hand} you left {left} points; the "
                        "best play leaves {best_left}:",
                        round=decision.round,
                        turn=decision.turn,
                        hand=hand_text(decision.hand, style),
                        left=decision.left,
                        best_left=decision.best_left,
                    )
                )
            )
            blocks.extend(table_lines(decision.best.table, style, indent=1))
    graded = len(review.graded)
    blocks.append(
        Line(
            ngettext(
                "You played the best at {best} of {count} graded decision; {costly} left "
                "{margin} or more points above the best; {lost} points above the best in all.",
                "You played the best at {best} of {count} graded decisions; {costly} left "
                "{margin} or more points above the best; {lost} points above the best in all.",
                graded,
                count=graded,
                best=review.best_count,
                costly=review.costly_count,
                margin=COACH_MARGIN,
                lost=review.points_lost,
            )
        )
    )
    waited = len(review.decisions) - graded
    if waited:
        blocks.append(
            Line(
                ngettext(
                    "{count} time you placed nothing with a draw still to come (waiting is "
                    "not graded).",
                    "{count} times you placed nothing with a draw still to come (waiting is "
                    "not graded).",
                    waited,
                    count=waited,
                )
            )
        )
    return blocks


def review_data(review: CarouselReview, game: str, names: list[str]) -> dict[str, Any]:
    """JSON export of a review (language-independent: codes, numbers, English keys)."""

    def melds(table: Table) -> list[list[str]]:
        return [meld.text().split() for meld in table]

    decisions = []
    for decision in review.decisions:
        best = decision.best
        decisions.append(
            {
                "round": decision.round,
                "turn": decision.turn,
                "draw": decision.draw,
                "table": melds(decision.table),
                "hand": decision.hand.codes(),
                "placed": decision.placed.codes(),
                "left": decision.left,
                "best": None
                if best is None
                else {"placed": best.placed.codes(), "table": melds(best.table)},
                "best_left": decision.best_left,
                "graded": decision.graded,
                "gap": decision.gap,
            }
        )
    return {
        "game": game,
        "players": names,
        "decisions": decisions,
        "rounds": [
            None
            if result is None
            else {
                "points": list(result.points),
                "ending": result.ending.value,
                "player": result.player,
            }
            for result in review.results
        ],
        "summary": {
            "decisions": len(review.decisions),
            "graded": len(review.graded),
            "best": review.best_count,
            "costly": review.costly_count,
            "costly_margin": COACH_MARGIN,
            "points_above_best": review.points_lost,
        },
    }
