"""The Gin Rummy engine: pure Python, standard library only.

The front door holds the few names a user of the library needs; everything else lives in the
engine's modules (``cards``, ``rules``, ``solver``, ``hand``, ``bots``, ``coach``, ...).

>>> import random
>>> from gintutor import engine
>>> hand = engine.CardSet.parse("7C 7D 7S 4H 5H 6H TD JD QD KC")
>>> engine.solve(hand).deadwood
10
>>> state = engine.HandState(engine.Deal.shuffled(random.Random(1)), engine.preset("standard"))
>>> bot = engine.make_bot("simple")
>>> while not state.over:
...     _ = state.do(bot.act(state.infoset(), random.Random(2)))
>>> state.result is not None
True

A name is imported on first use (PEP 562), so that ``import gintutor.engine.cards`` does not
load the bots and the coach: those cost about 50 ms of start-up that ``gintutor rules`` or
``analyze`` would pay for nothing (``python -X importtime -c "import gintutor.engine.coach"``).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what __getattr__ hands out, for type checkers and editors
    from gintutor.engine.bots import Bot, make_bot  # noqa: F401
    from gintutor.engine.cards import Card, CardSet, Rank, Suit, parse_cards, parse_hand  # noqa: F401
    from gintutor.engine.coach import judge  # noqa: F401
    from gintutor.engine.hand import Action, Deal, GameState, HandState, InfoSet  # noqa: F401
    from gintutor.engine.rules import RuleSet, preset  # noqa: F401
    from gintutor.engine.solver import Solution, solve  # noqa: F401

# The front door's names and the module each comes from.
_HOME = {
    "Card": "cards",
    "CardSet": "cards",
    "Rank": "cards",
    "Suit": "cards",
    "parse_cards": "cards",
    "parse_hand": "cards",
    "RuleSet": "rules",
    "preset": "rules",
    "Solution": "solver",
    "solve": "solver",
    "Action": "hand",
    "Deal": "hand",
    "GameState": "hand",
    "HandState": "hand",
    "InfoSet": "hand",
    "Bot": "bots",
    "make_bot": "bots",
    "judge": "coach",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))
