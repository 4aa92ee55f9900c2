"""Do the coach's in-game warnings agree with the full review? (issue 20's noise-floor target)

A learner bot (default ``simple``) plays seeded hands against an opponent bot (default
``simple``); at each of the learner's decisions with a choice the coach judges twice, as
``play`` and ``review`` do: at the table's budget (``coachplayer.TABLE_ROLLOUTS`` play-outs,
about the 0.4 CPU seconds of ``coach.COACH_SECONDS``) and at the review's
(``coach.REVIEW_ROLLOUTS``), on independent seeds, both against the bot at the table. The
warning rule is play's (:meth:`gintutor.tutor.session.CoachedGame.check`: graded Mistake or
Blunder and not within two standard errors of the best). Printed:

- **confirmed**: of the in-game warnings, the share the review grades Mistake or Blunder too
  (target >= 95%);
- **warned**: of the review's Blunders, the share play warned about (target >= 90%);

each with its 95% Wilson interval, and the deals per in-game verdict. Play-outs are capped by
count, so a run is the same on any load (seeded by ``--seed``).

    nice -n 10 python benchmarks/bench_warnings.py --hands 40 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass

from gintutor.engine.bots import make_bot
from gintutor.engine.bots.coachplayer import TABLE_ROLLOUTS
from gintutor.engine.coach import COACH_WORLDS, REVIEW_ROLLOUTS, REVIEW_WORLDS, judge
from gintutor.engine.hand import Deal, HandState, Phase
from gintutor.engine.judgement import Grade, Judged
from gintutor.engine.match import wilson
from gintutor.engine.rules import preset
from gintutor.engine.workers import Workers

ERRORS = (Grade.MISTAKE, Grade.BLUNDER)


@dataclass(frozen=True)
class Decision:
    """One learner decision: the in-game and the review judgement of the action played."""

    warned: bool
    review_error: bool
    review_blunder: bool
    deals: int


def _warns(judged: Judged) -> bool:
    """Play's warning rule (session.CoachedGame.check)."""
    return judged.grade in ERRORS and not judged.close


def play_hand(args: tuple[str, str, str, int]) -> list[Decision]:
    """Hand ``k`` of the run: every learner decision with a choice, judged both ways."""
    learner_name, opponent_name, seed, k = args
    bots = [make_bot(learner_name), make_bot(opponent_name)]
    rngs = [random.Random(f"warn:{seed}:{k}:{seat}") for seat in (0, 1)]
    state = HandState(Deal.shuffled(random.Random(f"warn:{seed}:{k}"), k % 2), preset("standard"))
    found: list[Decision] = []
    ply = 0
    while not state.over:
        seat = state.to_move
        info = state.infoset(seat)
        action = bots[seat].act(info, rngs[seat])
        if seat == 0 and len(info.legal_actions()) > 1 and info.phase is not Phase.DEFEND:
            table = judge(
                info,
                worlds=COACH_WORLDS,
                seconds=float("inf"),
                rollouts=TABLE_ROLLOUTS,
                seed=random.Random(f"table:{seed}:{k}:{ply}").getrandbits(32),
                opponent=opponent_name,
            )
            review = judge(
                info,
                worlds=REVIEW_WORLDS,
                seconds=float("inf"),
                rollouts=REVIEW_ROLLOUTS,
                seed=random.Random(f"review:{seed}:{k}:{ply}").getrandbits(32),
                opponent=opponent_name,
            )
            judged = review.of(action)
            found.append(
                Decision(
                    warned=_warns(table.of(action)),
                    review_error=_warns(judged),
                    review_blunder=judged.grade is Grade.BLUNDER and not judged.close,
                    deals=table.worlds,
                )
            )
        state.do(action)
        ply += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--learner", default="simple")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tasks = [(args.learner, args.opponent, args.seed, k) for k in range(args.hands)]
    decisions: list[Decision] = []
    with Workers(args.jobs) as workers:
        for hand in workers.imap_unordered(play_hand, tasks):
            decisions += hand
    warned = [d for d in decisions if d.warned]
    confirmed = sum(d.review_error for d in warned)
    blunders = [d for d in decisions if d.review_blunder]
    caught = sum(d.warned for d in blunders)
    print(f"learner {args.learner} against {args.opponent}, {args.hands} hands, seed {args.seed}")
    print(
        f"decisions judged: {len(decisions)}; deals per in-game verdict: median "
        f"{statistics.median(d.deals for d in decisions):.0f}, "
        f"min {min(d.deals for d in decisions)}"
    )
    for name, hits, total in (
        ("warnings confirmed by the review", confirmed, len(warned)),
        ("review blunders warned in play", caught, len(blunders)),
    ):
        low, high = wilson(hits, total) if total else (0.0, 1.0)
        share = hits / total if total else float("nan")
        print(f"{name}: {hits}/{total} = {share:.1%} (95% CI {low:.1%} to {high:.1%})")


if __name__ == "__main__":
    main()
