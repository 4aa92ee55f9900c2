"""The bot ladder: each bot is a function of an information set (and a seeded generator).

``novice`` < ``simple`` < ``openspiel`` < ``heuristic`` < ``expert``, and ``coach`` (the
coach's advice played at the table's budget); :func:`make_bot` builds one by name. A bot never
sees the hidden cards: :class:`~gintutor.engine.hand.InfoSet` holds only what its player knows.

>>> sorted(BOT_NAMES)
['coach', 'expert', 'heuristic', 'novice', 'openspiel', 'simple']
"""

from __future__ import annotations

import random
from typing import Protocol

from gintutor.engine.hand import Action, InfoSet
from gintutor.errors import GinError


class Bot(Protocol):
    """A player: ``act`` chooses a legal action from what the player knows."""

    @property
    def name(self) -> str:
        """The bot's name on the ladder."""
        ...

    def act(self, info: InfoSet, rng: random.Random) -> Action:
        """The action to play at this information set."""
        ...


BOT_NAMES = ("novice", "simple", "openspiel", "heuristic", "expert", "coach")


def make_bot(name: str, *, worlds: int | None = None, seconds: float | None = None) -> Bot:
    """The bot called ``name``; ``worlds`` / ``seconds`` set the expert's budget per decision
    (``worlds`` the coach player's too).

    Each bot's module is imported here, by name, for two reasons: the coach player imports the
    coach, whose own imports (``bots.expert``, ``bots.heuristic``, ...) load this package, so a
    top-level import of it here would be a cycle; and a game loads only the bots it plays
    (``play`` against ``simple`` starts without the expert and the coach, ~45-65 ms of CPU to
    import with ``python -X importtime``, load ~8)."""
    key = name.strip().lower()
    if key == "novice":
        from gintutor.engine.bots.novice import NoviceBot

        return NoviceBot()
    if key == "simple":
        from gintutor.engine.bots.simple import SimpleBot

        return SimpleBot()
    if key == "openspiel":
        from gintutor.engine.bots.openspiel import OpenSpielBot

        return OpenSpielBot()
    if key == "heuristic":
        from gintutor.engine.bots.heuristic import HeuristicBot

        return HeuristicBot()
    if key == "expert":
        from gintutor.engine.bots.expert import ExpertBot

        bot = ExpertBot()
        if worlds is not None:
            bot = ExpertBot(worlds=worlds, seconds=bot.seconds)
        if seconds is not None:
            bot = ExpertBot(worlds=bot.worlds, seconds=seconds)
        return bot
    if key == "coach":
        from gintutor.engine.bots.coachplayer import CoachPlayer

        return CoachPlayer() if worlds is None else CoachPlayer(worlds=worlds)
    raise GinError(
        "unknown bot {name!r}: choose one of {names}", name=name, names=", ".join(BOT_NAMES)
    )
