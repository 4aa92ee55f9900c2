"""Engine results as plain JSON-ready data (cards in canonical text: ``7C``, ``TD``).

The field names are a contract read by other programs; add fields, never rename them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gintutor.engine.analysis import Analysis
from gintutor.engine.cards import Card
from gintutor.engine.melds import Meld
from gintutor.engine.showdown import Showdown
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


def showdown_data(result: Showdown) -> dict[str, Any]:
    """The showdown fields of ``analyze --json``."""
    chosen = result.chosen
    return {
        "discard": chosen.discard.code if chosen.discard is not None else None,
        "knocker_melds": meld_lists(chosen.spread.melds),
        "knocker_deadwood_cards": codes(chosen.spread.deadwood_cards),
        "knocker_deadwood": chosen.spread.deadwood,
        "defender_melds": meld_lists(chosen.defence.melds),
        "layoffs": [
            {"card": layoff.card.code, "onto": codes(layoff.onto)}
            for layoff in chosen.defence.layoffs
        ],
        "defender_deadwood_cards": codes(chosen.defence.deadwood_cards),
        "defender_deadwood": chosen.defence.deadwood,
        "result": chosen.score.outcome.value,
        "winner": chosen.score.winner.value,
        "points": chosen.score.points,
        "score_items": [
            {"item": item.kind.value, "points": item.points, "setting": item.setting}
            for item in chosen.score.items
        ],
        "multiplier": result.multiplier,
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
                "can_knock": option.deadwood <= verdict.knock_limit,
                "gin": option.deadwood == 0,
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
    return data
