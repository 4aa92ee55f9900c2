"""The coach agrees with itself: a take (or a stock draw) is worth what the coach's own best
follow-up is worth at the decision that comes next.

Positions: the take-or-draw decisions (the pile's top card on offer) of seeded
``heuristic``-vs-``heuristic`` hands (``benchmarks/bench_coach.py``'s deals). At each:

- **take**: the verdict's value of *take* minus the best value of a verdict at the position
  right after the take (:func:`gintutor.engine.coach.after`), on other worlds (another seed);
  its standard error is the two verdicts' combined; with ``--held-out`` the best is chosen by
  one verdict and valued by another (:func:`held_out_best`);
- **draw**: the verdict's value of *draw from the stock* minus the mean, over ``--draws``
  cards drawn as the coach's own model deals them (an opponent hand from the estimate, the
  stock card from the rest), of the best value after drawing that card; the standard error
  combines the draw's and the spread of those bests over the drawn cards.

Printed per kind: the mean gap with its 95% interval over positions, and the share of
positions whose gap is outside two combined standard errors (about 5% when the values agree),
and CPU seconds per verdict.

    nice -n 10 python benchmarks/bench_coach_consistency.py --positions 200
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from math import sqrt
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_coach import positions as decisions

from gintutor.engine import coach
from gintutor.engine.bots.estimate import sample_opponent_hands
from gintutor.engine.hand import Action, InfoSet, Kind, Phase
from gintutor.engine.judgement import VERSION


def offered(count: int, seed: int, rules: str) -> list[InfoSet]:
    """The first ``count`` decisions where the pile's top card may be taken."""
    out: list[InfoSet] = []
    want = count
    while len(out) < count:
        want *= 2
        out = [
            info
            for info in decisions(want, seed, rules, False)
            if info.phase in (Phase.OFFER, Phase.DRAW) and Action(Kind.TAKE) in info.legal_actions()
        ][:count]
    return out


def take_gap(info: InfoSet, worlds: int, seed: int) -> tuple[float, float]:
    """(value of take - best value after it, combined standard error)."""
    verdict = coach.judge(info, worlds=worlds, seconds=1e9, seed=seed)
    take = verdict.of(Action(Kind.TAKE))
    child = coach.judge(
        coach.after(info, Action(Kind.TAKE)), worlds=worlds, seconds=1e9, seed=seed + 7919
    )
    return take.mean - child.best.mean, sqrt(take.stderr**2 + child.best.stderr**2)


CHOOSE = 4
"""The held-out reference's choice is made on this many times the worlds: the standard error of
the verdict that values it does not carry the doubt about the choice, which more worlds make
small."""


def held_out_best(child: InfoSet, worlds: int, seed: int) -> tuple[float, float]:
    """The best action at ``child`` chosen by one verdict (on :data:`CHOOSE` times the worlds)
    and valued by another on independent worlds (mean, standard error): a verdict's own
    ``best.mean`` is the maximum of noisy means, flattered as a reference."""
    chosen = coach.judge(child, worlds=CHOOSE * worlds, seconds=1e9, seed=seed).best.action
    judged = coach.judge(child, worlds=worlds, seconds=1e9, seed=seed + 104729).of(chosen)
    return judged.mean, judged.stderr


def take_gap_held_out(info: InfoSet, worlds: int, seed: int) -> tuple[float, float]:
    """:func:`take_gap` against the held-out best after the take."""
    take = coach.judge(info, worlds=worlds, seconds=1e9, seed=seed).of(Action(Kind.TAKE))
    mean, se = held_out_best(coach.after(info, Action(Kind.TAKE)), worlds, seed + 7919)
    return take.mean - mean, sqrt(take.stderr**2 + se**2)


def draw_gap(
    info: InfoSet, worlds: int, seed: int, draws: int, held_out: bool = False
) -> tuple[float, float]:
    """(value of draw - mean best value after the drawn card, combined standard error);
    ``held_out``: the best after each drawn card by :func:`held_out_best`."""
    draw = Action(Kind.DRAW)
    verdict = coach.judge(info, worlds=worlds, seconds=1e9, seed=seed)
    value = verdict.of(draw)
    rng = random.Random(f"consistency:{seed}")
    model = coach.opponent_model(None)
    bests = []
    for index, (hand, _) in enumerate(
        sample_opponent_hands(info, draws, rng, built=True, no_knock=model.no_knock)
    ):
        stock = [c for c in range(52) if (info.unseen & ~hand) >> c & 1]
        card = rng.choice(stock)
        after = coach.after(info, draw, card)
        if held_out:
            bests.append(held_out_best(after, worlds, seed * 31 + index)[0])
        else:
            bests.append(
                coach.judge(after, worlds=worlds, seconds=1e9, seed=seed * 31 + index).best.mean
            )
    spread = statistics.stdev(bests) / sqrt(draws) if draws > 1 else 0.0
    return value.mean - statistics.fmean(bests), sqrt(value.stderr**2 + spread**2)


def summary(name: str, gaps: list[tuple[float, float]]) -> str:
    values = [g for g, _ in gaps]
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / sqrt(len(values)) if len(values) > 1 else 0.0
    outside = sum(1 for g, se in gaps if abs(g) > 2 * se) / len(gaps)
    return (
        f"{name:5} n={len(gaps):4d}  mean gap {mean:+6.2f}  95% CI [{mean - half:+.2f}, "
        f"{mean + half:+.2f}]  outside 2 SE {100 * outside:4.1f}%"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=128)
    parser.add_argument("--draws", type=int, default=6, help="drawn cards per draw position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--kind", choices=["take", "draw", "both"], default="both")
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="reference: the best after the take or draw chosen by one verdict and valued by "
        "another on independent worlds (else the verdict's own best value, itself flattered)",
    )
    args = parser.parse_args(argv)
    if args.positions < 1 or args.worlds < 8 or args.draws < 1:
        print("error: --positions >= 1, --worlds >= 8, --draws >= 1", file=sys.stderr)
        return 2
    infos = offered(args.positions, args.seed, args.rules)
    start = time.process_time()
    print(
        f"rules {args.rules}, seed {args.seed}, {len(infos)} positions, {args.worlds} worlds "
        f"a verdict, {args.draws} drawn cards a draw position, FOLLOW_DISCARDS "
        f"{coach.FOLLOW_DISCARDS}, coach version {VERSION}, reference "
        f"{'held-out best' if args.held_out else 'best value'}"
    )
    if args.kind in ("take", "both"):
        gap = take_gap_held_out if args.held_out else take_gap
        gaps = [gap(info, args.worlds, i) for i, info in enumerate(infos)]
        print(summary("take", gaps))
    if args.kind in ("draw", "both"):
        draws = [i for i in infos if Action(Kind.DRAW) in i.legal_actions()]
        gaps = [
            draw_gap(info, args.worlds, i, args.draws, args.held_out)
            for i, info in enumerate(draws)
        ]
        print(summary("draw", gaps))
    print(f"CPU {time.process_time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
