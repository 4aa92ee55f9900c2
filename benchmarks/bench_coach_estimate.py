"""What the coach's advice is worth in the real position, for each way of estimating the
opponent's hand.

Positions: every decision with a choice (offer, draw, discard; knocks included) of seat 0 in
seeded hands between two ``heuristic`` bots. At each, the coach's valuation
(:func:`gintutor.engine.coach._sampled`, every action played out in the same worlds, none
dropped early) is run once per estimate of the opponent's hand, each from the information set
only, and once more in worlds where the opponent holds its **real** hand (the stock still
dealt at random from the rest): the script, never the coach, reads the hidden hand, to score
the advice. For each estimate it prints:

- ``regret``: points a hand lost by playing the estimate's best action instead of the real
  worlds' best, valued in the real worlds (mean over positions ± its standard error);
- ``agree``: how often the two pick the same action;
- ``knock bias``: at positions where a knock is legal, the estimate's value of knocking (its
  best knock) minus the real worlds' value of it, and the same for playing on (the best
  discard): positive is optimistic.

Paired differences against the first estimate (the coach's) come with their standard errors.

    nice -n 10 python benchmarks/bench_coach_estimate.py --hands 24 --worlds 64 --jobs 2
    nice -n 10 python benchmarks/bench_coach_estimate.py --hands 24 --worlds 64 --jobs 2 \
        --opponent simple
    nice -n 10 python benchmarks/bench_coach_estimate.py --hands 16 --worlds 64 --jobs 2 \
        --no-record

Session 7 (seed 0; points a decision; ``built`` is what the coach samples since version 2,
``uniform (coach)`` what it sampled before)::

    24 hands against heuristic: 552 decisions (116 with a knock)
    estimate                 regret        vs coach    agree    knock bias   play-on bias
    uniform (coach)    +6.64 ± 0.49   +0.00 ± 0.00    49.6%  +47.09 ± 1.69  +21.58 ± 1.32
    uniform, no penalty +6.49 ± 0.48  -0.14 ± 0.13    49.8%  +46.67 ± 1.70  +21.38 ± 1.31
    built              +3.82 ± 0.32   -2.82 ± 0.47    57.2%  +23.97 ± 1.75   +6.54 ± 1.18
    built, no penalty  +3.43 ± 0.30   -3.20 ± 0.48    58.2%  +18.39 ± 1.80   +4.36 ± 1.19

    24 hands against simple: 341 decisions (35 with a knock)
    uniform (coach)    +3.29 ± 0.32   +0.00 ± 0.00    51.0%  +23.33 ± 1.35  +10.29 ± 1.75
    uniform, no penalty +3.21 ± 0.32  -0.08 ± 0.09    51.0%  +23.34 ± 1.35  +10.26 ± 1.75
    built              +2.45 ± 0.27   -0.84 ± 0.31    55.7%   +5.11 ± 1.69   -1.12 ± 1.77
    built, no penalty  +2.47 ± 0.27   -0.82 ± 0.29    54.5%   -0.54 ± 2.28   -2.94 ± 1.76

    16 hands against heuristic, no record of turns (as puzzles): 418 decisions (102 knocks)
    uniform (coach)    +7.10 ± 0.58   +0.00 ± 0.00    47.1%  +46.41 ± 1.79  +20.51 ± 1.38
    built              +3.63 ± 0.33   -3.47 ± 0.56    55.0%  +18.31 ± 1.95   +4.93 ± 1.22

(Without a record the ``NO_KNOCK`` penalty has nothing to act on: the two rows of each kind
agree.) A regret is never zero: the real hand is one draw from what the player may know. The
coach now samples ``built, no penalty``: its knocks were valued far too high (the uniform
sample holds 43-48 points of deadwood mid-hand where real hands hold 6-14:
``bench_estimate.py``), and the penalty for a hand that could have knocked assumes a
first-chance knocker, which strong players are not.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from gintutor.engine import coach
from gintutor.engine.bots import estimate, make_bot
from gintutor.engine.hand import Action, Deal, HandState, InfoSet, Kind, Phase
from gintutor.engine.rules import preset

Sampler = Callable[..., list[tuple[int, float]]]

ESTIMATES: dict[str, dict[str, object]] = {
    "uniform (coach)": {},
    "uniform, no penalty": {"no_knock": 1.0},
    "built": {"built": True},
    "built, no penalty": {"built": True, "no_knock": 1.0},
}


@dataclass(frozen=True)
class Outcome:
    """One position's figures for one estimate."""

    regret: float
    agree: bool
    knock_bias: float | None
    play_bias: float | None


def _values(info: InfoSet, sampler: Sampler, worlds: int, seed: int) -> dict[Action, float]:
    """The coach's mean value of every legal action, with ``sampler`` for the opponent's hand."""
    saved = coach.sample_opponent_hands, coach.KEEP
    coach.sample_opponent_hands = sampler  # type: ignore[assignment]
    coach.KEEP = math.inf  # every action over every world: no early stop
    try:
        legal = info.legal_actions()
        rng = random.Random(seed)
        values = coach._sampled(info, legal, worlds, 1e9, rng, time.process_time())
    finally:
        coach.sample_opponent_hands, coach.KEEP = saved
    return {action: statistics.fmean(v) for action, v in values.items() if v}


def _estimate(
    info: InfoSet, n: int, rng: random.Random, options: dict[str, object], **_: object
) -> list[tuple[int, float]]:
    """The estimate with this row's options (the coach's own options are set aside)."""
    return estimate.sample_opponent_hands(info, n, rng, **options)  # type: ignore[arg-type]


def _real_sampler(real: int) -> Sampler:
    def sample(info: InfoSet, n: int, rng: random.Random, **_: object) -> list[tuple[int, float]]:
        return [(real, 1 / n)] * n

    return sample


def _best(values: dict[Action, float], kind: Kind) -> float | None:
    of_kind = [v for a, v in values.items() if a.kind is kind]
    return max(of_kind) if of_kind else None


def _position(job: tuple[InfoSet, int, int, int]) -> dict[str, Outcome]:
    info, real, worlds, seed = job
    truth = _values(info, _real_sampler(real), worlds, seed)
    top = max(truth.values())
    out = {}
    for name, options in ESTIMATES.items():
        sampler = functools.partial(_estimate, options=options)
        values = _values(info, sampler, worlds, seed)
        choice = max(values, key=lambda a: values[a])
        knock, play = _best(values, Kind.KNOCK), _best(values, Kind.DISCARD)
        real_knock, real_play = _best(truth, Kind.KNOCK), _best(truth, Kind.DISCARD)
        has_knock = knock is not None and real_knock is not None
        out[name] = Outcome(
            top - truth[choice],
            truth[choice] == top,
            knock - real_knock if has_knock else None,  # type: ignore[operator]
            play - real_play if has_knock and play is not None else None,  # type: ignore[operator]
        )
    return out


def positions(
    hands: int, seed: int, worlds: int, opponent: str, record: bool = True
) -> list[tuple[InfoSet, int, int, int]]:
    """Seat 0's decisions with a choice in ``hands`` seeded hands of the ``heuristic`` bot
    against ``opponent``; without ``record``, as a puzzle states them (no record of turns)."""
    rules = preset("standard")
    jobs = []
    for k in range(hands):
        hand_seed = seed * 100_003 + k
        state = HandState(Deal.shuffled(random.Random(hand_seed), k % 2), rules)
        bots = [make_bot("heuristic"), make_bot(opponent)]
        rng = random.Random(hand_seed)
        while not state.over:
            info = state.infoset()
            if (
                info.player == 0
                and info.phase in (Phase.OFFER, Phase.DRAW, Phase.DISCARD)
                and len(info.legal_actions()) > 1
            ):
                position = info if record else dataclasses.replace(info, events=())
                jobs.append((position, state.hands[1], worlds, hand_seed * 1_000 + len(jobs)))
            state.do(bots[info.player].act(info, rng))
    return jobs


def _mean_se(values: list[float]) -> str:
    if not values:
        return "-"
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):+.2f} ± {se:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=64)
    parser.add_argument("--jobs", type=int, default=0, help="Processes (0: every core).")
    parser.add_argument("--opponent", default="heuristic", help="The bot in seat 1.")
    parser.add_argument(
        "--no-record",
        action="store_true",
        help="Judge each position as a puzzle states it: without the record of turns.",
    )
    args = parser.parse_args()
    jobs = positions(args.hands, args.seed, args.worlds, args.opponent, not args.no_record)
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs or None) as pool:
        results = pool.map(_position, jobs, chunksize=1)
    knocks = sum(1 for r in results if r["uniform (coach)"].knock_bias is not None)
    print(
        f"{len(results)} decisions ({knocks} with a knock) in {args.hands} hands against "
        f"{args.opponent}{' (no record of turns)' if args.no_record else ''}, "
        f"{args.worlds} worlds each, {time.perf_counter() - started:.0f} s"
    )
    first = next(iter(ESTIMATES))
    head = ("regret", "vs coach", "agree", "knock bias", "play-on bias")
    print(f"{'estimate':22}" + "".join(f"{h:>16}" for h in head))
    for name in ESTIMATES:
        rows = [r[name] for r in results]
        regret = [o.regret for o in rows]
        paired = [o.regret - r[first].regret for o, r in zip(rows, results, strict=True)]
        agree = statistics.fmean(o.agree for o in rows)
        knock = [o.knock_bias for o in rows if o.knock_bias is not None]
        play = [o.play_bias for o in rows if o.play_bias is not None]
        cells = (_mean_se(regret), _mean_se(paired), f"{100 * agree:.1f}%")
        print(f"{name:22}" + "".join(f"{c:>16}" for c in (*cells, _mean_se(knock), _mean_se(play))))


if __name__ == "__main__":
    main()
