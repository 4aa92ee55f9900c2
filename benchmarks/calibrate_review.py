"""Calibrate the review's rating bands on the bot ladder: the error rate of each bot level.

Each level plays seeded games (to the target) against the ``heuristic`` under standard rules;
every decision of the level's seat is reviewed by :func:`gintutor.tutor.review.review_game`
(the coach at the given budget, seeded), and the errors, error rate and mean loss per decision
are totalled per level, with standard errors (binomial for the rate, across decisions for the
loss). It also prints the mean value of the first decision of a hand by seat (the deal luck's
baseline, ``SEAT_VALUE``). Paste the printed constants into ``gintutor/tutor/review.py``.

Run (bounded, niced; about 0.5 s of CPU per decision at the review budget):

    nice -n 10 python benchmarks/calibrate_review.py --games 2 --jobs 2

``--points-only`` judges without the game score (no game-win chance in the grades).

Measured 2026-12-01, session 7, coach version 2 (``--games 3 --jobs 2``, the review budget
with the game score; about 9 minutes of wall time on two cores)::

    | level | decisions | errors | error rate | mean loss (points/decision) |
    |---|---|---|---|---|
    | novice | 386 | 94 | 0.244 ± 0.022 | 1.67 ± 0.18 |
    | simple | 437 | 64 | 0.146 ± 0.017 | 1.24 ± 0.16 |
    | openspiel | 430 | 54 | 0.126 ± 0.016 | 1.12 ± 0.16 |
    | heuristic | 418 | 43 | 0.103 ± 0.015 | 0.93 ± 0.14 |
    | expert | 429 | 44 | 0.103 ± 0.015 | 0.93 ± 0.14 |
    SEAT_VALUE = (-1.68, 2.54)  # n = [53, 52]

``heuristic`` and ``expert`` are equal (pooled at 0.103). Bands: World class <= 0.0515, Expert
<= 0.103, Advanced <= 0.1145, Intermediate <= 0.136, Casual player <= 0.195, Beginner above.
(Coach version 1, ``--games 1``: 0.327, 0.140, 0.142, 0.133, 0.088, about an hour then.)
"""

from __future__ import annotations

import argparse
import random
import time
from math import sqrt

from gintutor.engine.bots import BOT_NAMES, make_bot
from gintutor.engine.coach import REVIEW_ROLLOUTS, REVIEW_WORLDS, judge
from gintutor.engine.hand import Deal, GameState, InfoSet
from gintutor.engine.judgement import Verdict
from gintutor.engine.match import play_hand
from gintutor.engine.rules import preset
from gintutor.tutor.review import PlayedGame, PlayedHand, band_limits, review_game

MAX_HANDS = 40


def bot_game(level: str, opponent: str, seed: str, seat: int) -> PlayedGame:
    """A game of ``level`` (in ``seat``) against ``opponent``, hands dealt from ``seed``."""
    rules = preset("standard")
    bots = [make_bot(level), make_bot(opponent)]
    if seat == 1:
        bots.reverse()
    rngs = [random.Random(f"cal:{seed}:{s}") for s in (0, 1)]
    game = GameState(rules, first_dealer=0)
    hands = []
    while not game.over and len(hands) < MAX_HANDS:
        deal = Deal.shuffled(random.Random(f"cal-deal:{seed}:{len(hands)}"), game.dealer)
        state = play_hand(bots, deal, rules, rngs)
        assert state.result is not None
        game.record(state.result)
        hands.append(PlayedHand(deal, tuple(state.log)))
    return PlayedGame(rules, seat, tuple(hands), source=f"{level} vs {opponent} #{seed}")


def judge_points(
    info: InfoSet,
    *,
    worlds: int,
    seconds: float,
    seed: int,
    scores: tuple[int, int] | None,
    rollouts: int | None,
    opponent: str | None = None,
) -> Verdict:
    """The coach without the game score."""
    return judge(
        info,
        worlds=worlds,
        seconds=seconds,
        seed=seed,
        scores=None,
        rollouts=rollouts,
        opponent=opponent,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per level")
    parser.add_argument("--levels", default=",".join(BOT_NAMES))
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--worlds", type=int, default=REVIEW_WORLDS)
    parser.add_argument("--rollouts", type=int, default=REVIEW_ROLLOUTS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--points-only", action="store_true")
    args = parser.parse_args()
    judge_with = judge_points if args.points_only else judge
    rows = []
    seat_values: list[list[float]] = [[], []]
    for level in args.levels.split(","):
        start = time.time()
        decisions = errors = 0
        losses: list[float] = []
        for number in range(args.games):
            game = bot_game(level, args.opponent, f"{args.seed}:{number}", seat=number % 2)
            review = review_game(
                game,
                worlds=args.worlds,
                rollouts=args.rollouts,
                seed=args.seed,
                jobs=args.jobs,
                judge_with=judge_with,
            )
            decisions += review.summary.decisions
            errors += review.summary.errors
            for hand in review.hands:
                losses += [d.loss for d in hand.decisions if not d.forced]
                if hand.decisions:
                    first = hand.decisions[0]
                    dealer = int(hand.dealer == game.player)
                    seat_values[dealer].append(first.best_value)
        rate = errors / decisions if decisions else 0.0
        rate_se = sqrt(rate * (1 - rate) / decisions) if decisions else 0.0
        mean = sum(losses) / len(losses) if losses else 0.0
        spread = sum((x - mean) ** 2 for x in losses) / max(1, len(losses) - 1)
        mean_se = sqrt(spread / len(losses)) if losses else 0.0
        rows.append((level, decisions, errors, rate, rate_se, mean, mean_se))
        print(
            f"{level:10} decisions {decisions:4}  errors {errors:3}  error rate {rate:.3f} "
            f"± {rate_se:.3f}  mean loss {mean:.2f} ± {mean_se:.2f}  ({time.time() - start:.0f} s)",
            flush=True,
        )
    print()
    print("| level | decisions | errors | error rate | mean loss (points/decision) |")
    print("|---|---|---|---|---|")
    for level, n, e, rate, rate_se, mean, mean_se in rows:
        print(f"| {level} | {n} | {e} | {rate:.3f} ± {rate_se:.3f} | {mean:.2f} ± {mean_se:.2f} |")
    print()
    print("CALIBRATION = {")
    for level, n, _, rate, _, mean, _ in rows:
        print(f'    "{level}": ({rate:.3f}, {mean:.2f}, {n}),')
    print("}")
    if {row[0] for row in rows} == set(BOT_NAMES):
        limits = band_limits({level: (rate, mean, n) for level, n, _, rate, _, mean, _ in rows})
        print("bands:", ", ".join(f"{band.value} <= {limit:.3f}" for band, limit in limits))
    values = [sum(v) / len(v) if v else 0.0 for v in seat_values]
    print(f"SEAT_VALUE = ({values[0]:.2f}, {values[1]:.2f})  # n = {[len(v) for v in seat_values]}")


if __name__ == "__main__":
    main()
