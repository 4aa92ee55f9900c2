"""``coach``: the coach's own advice as a player.

At every decision it plays the coach's best action (:func:`gintutor.engine.coach.judge`, the
most expected points) at the coach's budget at the table, the play-outs capped by count so a
seeded match is the same on any machine and load. It knows what the learner's coach knows (its
hand, the pile, what the opponent took and passed), never the opponent's cards; it assumes a
strong player across the table (the coach's default model), whoever sits there. If it loses to
the bots whose policies the coach plays out with, the coach's advice is wrong somewhere.

Where the coach calls it a close call (the runner-up within two standard errors of its best),
it recommends either action, and the player takes the one a strong player's rule would
(:data:`TIEBREAK`): advice below two standard errors is not advice, and a move must be chosen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gintutor.engine.bots.common import best_layoffs
from gintutor.engine.bots.expert import WEIGHTS
from gintutor.engine.bots.heuristic import HeuristicBot
from gintutor.engine.coach import COACH_WORLDS, judge
from gintutor.engine.hand import Action, InfoSet, Phase
from gintutor.engine.judgement import Verdict

TABLE_ROLLOUTS = 200
"""Play-outs per decision, a count so that a match is the same on any machine and load: a
median 19 sampled deals a verdict (benchmarks/bench_warnings.py, "at once"), a little less than
the coach's 0.4 CPU seconds at the table buy on this machine since the rollouts got faster (a
median 27 deals: ``python benchmarks/bench_coach.py --budget coach --positions 40``)."""


TIEBREAK = HeuristicBot(WEIGHTS, "expert's rule")
"""How the coach-player chooses among the actions the coach rates within two standard errors of
its best: the expert's own heuristic (its weights, with the one-draw lookahead). Measured on 14
paired deals against the expert (both seats, ``tune:11:k``, eaai rules, 200 play-outs a
decision): the best action alone -14.2 points a hand, this rule among the close calls +1.5 (the
difference +15.7, standard error 8.2); the matches are in docs/bots.md. At ~19 sampled deals a
decision the best of eleven discards is often the luckiest, not the strongest."""


def advised(verdict: Verdict, own: Action) -> Action:
    """The coach's recommended move: ``own`` (a rule's choice) when the coach rates it best or
    within two standard errors of its best (a close call), else the coach's best."""
    for judged in verdict.judged:
        if judged.action == own:
            return own if judged is verdict.best or judged.close else verdict.best.action
    return verdict.best.action


@dataclass(frozen=True)
class CoachPlayer:
    """Plays the coach's best action at each decision."""

    worlds: int = COACH_WORLDS
    """Sampled worlds at most (the coach's at the table)."""
    rollouts: int = TABLE_ROLLOUTS
    name: str = "coach"

    def act(self, info: InfoSet, rng: random.Random) -> Action:
        """The coach's recommended action here (:func:`advised`; the best defence when laying
        off, which is exact)."""
        if info.phase is Phase.DEFEND:
            return best_layoffs(info)
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        verdict = judge(
            info,
            worlds=self.worlds,
            seconds=float("inf"),
            seed=rng.getrandbits(32),
            rollouts=self.rollouts,
        )
        return advised(verdict, TIEBREAK.act(info, rng))
