"""A game review as explanation blocks and as JSON-ready data; the coach's reasons narrated.

The records are :mod:`gintutor.tutor.review`'s (this layer sits below the tutor, so it reads
them through the protocols below). Every number shown is read from the records: the coach's
values, losses and standard errors, the grades and reasons, the summaries; nothing here
judges anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any, Protocol

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.hand import NO_CARD, Action, HandResult, Kind, Phase
from gintutor.engine.judgement import Grade, Reason, ReasonKind
from gintutor.engine.scoring import Outcome
from gintutor.text.blocks import Block, Heading, Line, Style, Table, plural
from gintutor.text.i18n import number, percent


class DecisionRecord(Protocol):
    """What the text layer reads of a reviewed decision."""

    @property
    def hand(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def action(self) -> Action: ...
    @property
    def best(self) -> Action: ...
    @property
    def value(self) -> float: ...
    @property
    def best_value(self) -> float: ...
    @property
    def loss(self) -> float: ...
    @property
    def loss_stderr(self) -> float: ...
    @property
    def win_loss(self) -> float | None: ...
    @property
    def grade(self) -> Grade: ...
    @property
    def close(self) -> bool: ...
    @property
    def reasons(self) -> tuple[Reason, ...]: ...
    @property
    def best_reasons(self) -> tuple[Reason, ...]: ...
    @property
    def forced(self) -> bool: ...
    @property
    def top(self) -> int: ...
    @property
    def drawn(self) -> int: ...
    @property
    def luck(self) -> float | None: ...
    @property
    def is_error(self) -> bool: ...


class SummaryRecord(Protocol):
    """What the text layer reads of a summary."""

    @property
    def decisions(self) -> int: ...
    @property
    def grades(self) -> tuple[tuple[Grade, int], ...]: ...
    @property
    def errors(self) -> int: ...
    @property
    def error_grades(self) -> tuple[tuple[Grade, int], ...]: ...
    @property
    def error_rate(self) -> float: ...
    @property
    def mean_loss(self) -> float: ...
    @property
    def worst(self) -> Sequence[DecisionRecord]: ...
    @property
    def rating(self) -> Enum | None: ...
    @property
    def luck(self) -> float: ...
    @property
    def draws(self) -> int: ...
    @property
    def deal_luck(self) -> float: ...
    @property
    def total_luck(self) -> float: ...


class HandRecord(Protocol):
    """What the text layer reads of a reviewed hand."""

    @property
    def number(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def decisions(self) -> Sequence[DecisionRecord]: ...
    @property
    def result(self) -> HandResult | None: ...
    @property
    def net(self) -> int: ...
    @property
    def scores(self) -> tuple[int, int] | None: ...
    @property
    def summary(self) -> SummaryRecord: ...


class GameRecord(Protocol):
    """What the text layer reads of a game review."""

    @property
    def source(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def player(self) -> int: ...
    @property
    def hands(self) -> Sequence[HandRecord]: ...
    @property
    def summary(self) -> SummaryRecord: ...
    @property
    def worlds(self) -> int: ...
    @property
    def seed(self) -> int: ...


def _cards(mask: int, style: Style) -> str:
    return style.cards(CardSet(mask))


def _card(card: int, style: Style) -> str:
    return style.card(Card.at(card)) if card != NO_CARD else "?"


def action_text(action: Action, top: int, style: Style, drawn: int = NO_CARD) -> str:
    """An action in words: ``take 9♠``, ``draw (4♥)``, ``discard K♣``, ``knock 8♥ (…)``."""
    kind = action.kind
    if kind is Kind.PASS:
        return f"pass {_card(top, style)}" if top != NO_CARD else "pass"
    if kind is Kind.TAKE:
        return f"take {_card(top, style)}" if top != NO_CARD else "take"
    if kind is Kind.DRAW:
        return f"draw ({_card(drawn, style)})" if drawn != NO_CARD else "draw from the stock"
    if kind is Kind.DISCARD:
        return f"discard {_card(action.card, style)}"
    spread = "; ".join(_cards(meld, style) for meld in action.spread)
    if kind is Kind.KNOCK:
        return f"knock {_card(action.card, style)} ({spread})"
    if kind is Kind.BIG_GIN:
        return f"big gin ({spread})"
    laid = _cards(action.layoffs, style) if action.layoffs else "nothing"
    return f"lay off {laid}"


def reason_text(reason: Reason, style: Style) -> str:
    """One coach reason as a short phrase.

    >>> reason_text(Reason(ReasonKind.DEADWOOD_AFTER, 0, 7), Style(ascii_only=True))
    'leaves 7 deadwood'
    """
    kind, value = reason.kind, reason.value
    cards = _cards(reason.cards, style) if reason.cards else ""
    other = _card(reason.other, style) if reason.other != NO_CARD else ""
    if kind is ReasonKind.DEADWOOD_AFTER:
        return f"leaves {value} deadwood"
    if kind is ReasonKind.MELDS:
        return f"{other} makes the meld {cards}"
    if kind is ReasonKind.BREAKS_MELD:
        return f"breaks the meld {cards}"
    if kind is ReasonKind.FEEDS_OPPONENT:
        return f"connects with the {other} they picked up ({cards})"
    if kind is ReasonKind.THEY_PASSED:
        return f"safer: they passed {cards}"
    if kind is ReasonKind.THEY_DISCARDED:
        return f"safer: they discarded {cards}"
    if kind is ReasonKind.LIVE_OUTS:
        return f"{plural(value, 'live card')} would make a new meld"
    if kind is ReasonKind.KNOCK:
        return f"knocks with {value} deadwood ({cards})"
    if kind is ReasonKind.GIN:
        return "goes gin"
    if kind is ReasonKind.BIG_GIN:
        return "big gin"
    if kind is ReasonKind.UNDERCUT_RISK:
        return f"undercut in {value}% of the hands they may hold"
    if kind is ReasonKind.LAYS_OFF:
        return f"leaves {value} deadwood after the layoffs"
    if kind is ReasonKind.STOCK_LOW:
        return f"only {plural(value, 'card')} left in the stock"
    if kind is ReasonKind.NO_KNOCK:
        return f"plays on although a knock with {value} deadwood was open"
    return kind.value.replace("-", " ")  # a kind added to the coach after this was written


def reasons_text(reasons: Iterable[Reason], style: Style) -> str:
    """The reasons joined with semicolons (``-`` for none)."""
    return "; ".join(reason_text(r, style) for r in reasons) or "-"


def _points(value: float) -> str:
    return number(value, 1)


def _signed(value: float) -> str:
    return number(value, 1, signed=True)


def _grade_text(decision: DecisionRecord) -> str:
    word = decision.grade.value
    if decision.close and decision.grade is not Grade.BEST:
        word += " (close)"
    return word


def _result_text(hand: HandRecord, player: int) -> str:
    result = hand.result
    if result is None:
        return "not finished"
    if result.void:
        return "void (the stock ran out)"
    outcome = result.outcome
    how = (
        {
            Outcome.KNOCK: "knock",
            Outcome.UNDERCUT: "undercut",
            Outcome.GIN: "gin",
            Outcome.BIG_GIN: "big gin",
        }.get(outcome, "")
        if outcome is not None
        else ""
    )
    who = "you" if result.knocker == player else "they"
    verb = "won" if hand.net > 0 else "lost"
    return f"{who} {'went big gin' if how == 'big gin' else how}; you {verb} {abs(hand.net)}"


def decision_table(decisions: Sequence[DecisionRecord], style: Style) -> Table:
    """Each decision with a choice: turn, what was played, the best, the loss, the grade."""
    rows: list[tuple[str, ...]] = []
    highlight: set[int] = set()
    for decision in decisions:
        if decision.forced:
            continue
        if decision.is_error:
            highlight.add(len(rows))
        played = action_text(decision.action, decision.top, style, decision.drawn)
        best = (
            "="
            if decision.best == decision.action
            else action_text(decision.best, decision.top, style)
        )
        same = decision.best == decision.action
        loss = "0" if same else _points(decision.loss)
        stderr = "" if same else _points(decision.loss_stderr)
        rows.append((str(decision.turn), played, best, loss, stderr, _grade_text(decision)))
    return Table(
        ("turn", "you played", "best", "loss", "se", "grade"), tuple(rows), frozenset(highlight)
    )


def decision_lines(decision: DecisionRecord, style: Style) -> list[Block]:
    """Why a decision lost points: what it did and what the best would have done."""
    played = action_text(decision.action, decision.top, style, decision.drawn)
    best = action_text(decision.best, decision.top, style)
    close = " (a close call: within two standard errors)" if decision.close else ""
    return [
        Line(
            f"Turn {decision.turn}, {played}: {decision.grade.value}{close}, "
            f"{_points(decision.loss)} ± {_points(decision.loss_stderr)} points worse than "
            f"{best}."
        ),
        Line(f"{played}: {reasons_text(decision.reasons, style)}.", 1),
        Line(f"{best}: {reasons_text(decision.best_reasons, style)}.", 1),
    ]


def summary_lines(summary: SummaryRecord, style: Style, what: str = "hand") -> list[Block]:
    """Decisions, errors by grade, error rate, mean loss, rating, luck."""
    counts = ", ".join(f"{n} {grade.value}" for grade, n in summary.grades if n)
    lines: list[Block] = [
        Line(
            f"{plural(summary.decisions, 'decision')} ({counts or 'none'}); "
            f"{plural(summary.errors, 'error')} (error rate {percent(summary.error_rate)}), "
            f"mean loss {number(summary.mean_loss, 2)} points per decision."
        ),
        Line(
            f"Luck: {_signed(summary.luck)} points from {plural(summary.draws, 'stock draw')}, "
            f"{_signed(summary.deal_luck)} from the deal (total {_signed(summary.total_luck)})."
        ),
    ]
    if what == "game" and summary.rating is not None:
        lines.insert(1, Line(f"Rating: {summary.rating.value} (by the error rate)."))
    return lines


def explain_review(review: GameRecord, style: Style) -> tuple[Block, ...]:
    """The whole review: each hand's decisions and summary, then the game's."""
    blocks: list[Block] = [
        Heading(f"Review of {review.source or 'the game'}"),
        Line(
            f"{review.rules} rules; every decision judged by the coach on up to "
            f"{review.worlds} sampled deals of the unseen cards (seed {review.seed}). "
            "Loss: expected points given up against the best action; se: its standard error."
        ),
    ]
    for hand in review.hands:
        dealer = "you dealt" if hand.dealer == review.player else "they dealt"
        score = f", score {hand.scores[0]}-{hand.scores[1]}" if hand.scores else ""
        blocks.append(
            Heading(f"Hand {hand.number} ({dealer}{score}): {_result_text(hand, review.player)}")
        )
        if not any(not d.forced for d in hand.decisions):
            blocks.append(Line("No decision with a choice."))
        else:
            blocks.append(decision_table(hand.decisions, style))
        for decision in hand.decisions:
            if decision.is_error:
                blocks += decision_lines(decision, style)
        blocks += summary_lines(hand.summary, style)
    summary = review.summary
    blocks.append(Heading("The game"))
    blocks += summary_lines(summary, style, "game")
    if summary.worst:
        blocks.append(Line("The costliest decisions:"))
        for decision in summary.worst:
            played = action_text(decision.action, decision.top, style, decision.drawn)
            best = action_text(decision.best, decision.top, style)
            blocks.append(
                Line(
                    f"hand {decision.hand}, turn {decision.turn}: {played} instead of {best} "
                    f"({_points(decision.loss)} points, {decision.grade.value})",
                    1,
                )
            )
    return tuple(blocks)


def _codes(mask: int) -> list[str]:
    return CardSet(mask).codes


def reason_data(reason: Reason) -> dict[str, Any]:
    """``{kind, cards, value, other}`` (cards as codes)."""
    return {
        "kind": reason.kind.value,
        "cards": _codes(reason.cards),
        "value": reason.value,
        "other": Card.at(reason.other).code if reason.other != NO_CARD else None,
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def decision_data(decision: DecisionRecord) -> dict[str, Any]:
    """One decision for ``--json``."""
    return {
        "hand": decision.hand,
        "turn": decision.turn,
        "phase": decision.phase.value,
        "action": str(decision.action),
        "best": str(decision.best),
        "loss": _round(decision.loss),
        "loss_stderr": _round(decision.loss_stderr),
        "grade": decision.grade.value,
        "reasons": [reason_data(r) for r in decision.reasons],
        "close": decision.close,
        "error": decision.is_error,
        "forced": decision.forced,
        "value": _round(decision.value),
        "best_value": _round(decision.best_value),
        "win_loss": _round(decision.win_loss),
        "best_reasons": [reason_data(r) for r in decision.best_reasons],
        "top": Card.at(decision.top).code if decision.top != NO_CARD else None,
        "drawn": Card.at(decision.drawn).code if decision.drawn != NO_CARD else None,
        "luck": _round(decision.luck),
    }


def summary_data(summary: SummaryRecord) -> dict[str, Any]:
    """A hand's or the game's summary for ``--json``."""
    return {
        "decisions": summary.decisions,
        "errors": {grade.value: n for grade, n in summary.error_grades},
        "grades": {grade.value: n for grade, n in summary.grades},
        "error_count": summary.errors,
        "error_rate": _round(summary.error_rate),
        "mean_loss": _round(summary.mean_loss),
        "worst": [
            {
                "hand": d.hand,
                "turn": d.turn,
                "action": str(d.action),
                "best": str(d.best),
                "loss": _round(d.loss),
                "grade": d.grade.value,
            }
            for d in summary.worst
        ],
        "rating": summary.rating.value if summary.rating is not None else None,
        "luck": {
            "draws": _round(summary.luck),
            "stock_draws": summary.draws,
            "deal": _round(summary.deal_luck),
            "total": _round(summary.total_luck),
        },
    }


def review_data(review: GameRecord) -> dict[str, Any]:
    """The whole review for ``--json``: per decision, per hand and for the game."""
    return {
        "source": review.source,
        "rules": review.rules,
        "player": review.player,
        "worlds": review.worlds,
        "seed": review.seed,
        "hands": [
            {
                "hand": hand.number,
                "dealer": "you" if hand.dealer == review.player else "them",
                "scores": list(hand.scores) if hand.scores else None,
                "net": hand.net,
                "result": (
                    None
                    if hand.result is None
                    else ("void" if hand.result.void else _outcome(hand.result))
                ),
                "decisions": [decision_data(d) for d in hand.decisions],
                "summary": summary_data(hand.summary),
            }
            for hand in review.hands
        ],
        "summary": summary_data(review.summary),
    }


def _outcome(result: HandResult) -> str:
    return result.outcome.value if result.outcome is not None else "void"
