"""Engine results as plain JSON-ready data (cards in canonical text: ``7C``, ``TD``).

The field names are a contract read by other programs; add fields, never rename them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gintutor.engine.analysis import Analysis
from gintutor.engine.cards import Card
from gintutor.engine.layoffs import Defence
from gintutor.engine.melds import Meld
from gintutor.engine.showdown import RejectedSpread, Showdown, SpreadOutcome
from gintutor.engine.solver import Arrangement


def codes(cards: Iterable[Card]) -> list[str]:
    """Canonical codes of cards."""
    return [card.code for card in cards]


def meld_lists(melds: Iterable[Meld]) -> list[list[str]]:
    """Melds as lists of codes."""
    return [codes(meld) for meld in melds]


def arrangement_data(arrangement: Arrangement) -> dict[str, Any]:
    """``{melds, deadwood_cards, deadwood}``."""
    return {
        "melds": meld_lists(arrangement.melds),
        "deadwood_cards": codes(arrangement.deadwood_cards),
        "deadwood": arrangement.deadwood,
    }


def layoffs_data(defence: Defence) -> list[dict[str, Any]]:
    """The layoffs in the order made: ``{card, onto, after}`` (``after``: the earlier layoff
    this one chains onto, or ``None``)."""
    return [
        {
            "card": layoff.card.code,
            "onto": codes(layoff.onto),
            "after": layoff.after.code if layoff.after is not None else None,
        }
        for layoff in defence.layoffs
    ]


def outcome_data(outcome: SpreadOutcome) -> dict[str, Any]:
    """One way to end the hand: the knocker's discard and spread, the defence, the score."""
    score = outcome.score
    return {
        "discard": outcome.discard.code if outcome.discard is not None else None,
        "knocker_melds": meld_lists(outcome.spread.melds),
        "knocker_deadwood_cards": codes(outcome.spread.deadwood_cards),
        "knocker_deadwood": outcome.spread.deadwood,
        "defender_melds": meld_lists(outcome.defence.melds),
        "layoffs": layoffs_data(outcome.defence),
        "defender_deadwood_cards": codes(outcome.defence.deadwood_cards),
        "defender_deadwood": outcome.defence.deadwood,
        "result": score.outcome.value,
        "winner": score.winner.value,
        "points": score.points,
        "score_items": [
            {"item": item.kind.value, "points": item.points, "setting": item.setting}
            for item in score.items
        ],
    }


def rejected_data(rejected: RejectedSpread) -> dict[str, Any]:
    """A least-deadwood spread the knocker turned down, what it would score, and why."""
    return outcome_data(rejected.outcome) | {
        "laid_off_points": rejected.defence.laid_off_points,
        "reason": rejected.reason.value,
        "points_lost": rejected.points_lost,
        "held_back": codes(rejected.held_back),
    }


def showdown_data(result: Showdown) -> dict[str, Any]:
    """The showdown fields of ``analyze --json``."""
    return outcome_data(result.chosen) | {
        "multiplier": result.multiplier,
        "least_deadwood": result.least_deadwood,
        "rejected_spreads": [rejected_data(rejected) for rejected in result.rejected],
    }


def analysis_data(analysis: Analysis) -> dict[str, Any]:
    """One hand's ``analyze --json`` object."""
    verdict = analysis.verdict
    best = analysis.solution.best
    data: dict[str, Any] = {
        "hand": codes(analysis.hand),
        "rules": analysis.rules.name,
        "knock_limit": analysis.knock_limit,
        "deadwood": analysis.deadwood,
        "melds": meld_lists(best.melds),
        "deadwood_cards": codes(best.deadwood_cards),
        "arrangements": [arrangement_data(a) for a in analysis.solution.arrangements],
        "can_knock": verdict.can_knock,
        "gin": verdict.gin,
    }
    if analysis.upcard is not None:
        data["upcard"] = analysis.upcard.code
    if analysis.drawn:
        data["discards"] = [
            {
                "card": option.card.code,
                "deadwood": option.deadwood,
                "can_knock": option.can_knock,
                "gin": option.gin,
                "knock": option.reason.value,
            }
            for option in verdict.discards
        ]
        data["best_discards"] = codes(verdict.best_discards)
        data["big_gin"] = verdict.big_gin
        data["taken_from_discard"] = (
            analysis.taken_from_discard.code if analysis.taken_from_discard else None
        )
    if analysis.showdown is not None:
        data["showdown"] = showdown_data(analysis.showdown)
    elif analysis.opponent is not None and analysis.no_showdown is not None:
        data["showdown"] = None
        data["no_showdown"] = analysis.no_showdown.value
    return data
