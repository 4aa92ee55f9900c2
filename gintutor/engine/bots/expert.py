"""``expert``: placeholder while the expert is written (plays the heuristic)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from gintutor.engine.bots.heuristic import HeuristicBot
from gintutor.engine.hand import Action, InfoSet


@dataclass(frozen=True)
class ExpertBot:
    """Determinized Monte Carlo over estimated opponent hands."""

    worlds: int = 48
    seconds: float = 1.0
    name: str = "expert"

    def act(self, info: InfoSet, rng: random.Random) -> Action:
        """The action with the best expected points over the sampled worlds."""
        return HeuristicBot().act(info, rng)
