"""Seconds of CPU per coach verdict at each budget, over decisions from seeded bot games.

Positions: every decision with a choice (two legal actions or more) in hands played
``heuristic`` against ``heuristic`` (deal ``bench-coach:SEED:i``), taken in order, so the mix of
phases is the mix of play (about half draws, a third discards; ``--draws``: the take-or-draw
decisions only). Each is judged at the COACH, REVIEW and PUZZLE budgets of
:mod:`gintutor.engine.coach` and at the puzzle pack's (``pack``: its stored verdicts); the
figures are the verdicts' own CPU seconds (``Verdict.seconds``, process time).

    nice -n 10 python benchmarks/bench_coach.py                 # all three budgets
    nice -n 10 python benchmarks/bench_coach.py --budget coach --positions 100
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter

from gintutor.engine import coach
from gintutor.engine.bots import make_bot
from gintutor.engine.hand import Deal, HandState, InfoSet, Phase
from gintutor.engine.rules import preset
from gintutor.tutor.puzzles import PUZZLE_SECONDS as PACK_SECONDS
from gintutor.tutor.puzzles import PUZZLE_WORLDS as PACK_WORLDS

BUDGETS = {
    "coach": (coach.COACH_WORLDS, coach.COACH_SECONDS, 60),
    "review": (coach.REVIEW_WORLDS, coach.REVIEW_SECONDS, 12),
    "puzzle": (coach.PUZZLE_WORLDS, coach.PUZZLE_SECONDS, 4),
    "pack": (PACK_WORLDS, PACK_SECONDS, 12),
}
"""Budget name: (worlds, seconds, default positions); ``pack``: the shipped puzzles' stored
verdicts (``gintutor.tutor.puzzles.PUZZLE_WORLDS``, no time cut)."""


def positions(count: int, seed: int, rules_name: str, discards_only: bool) -> list[InfoSet]:
    """The first ``count`` decisions with a choice in seeded heuristic-vs-heuristic hands."""
    rules = preset(rules_name)
    bot = make_bot("heuristic")
    out: list[InfoSet] = []
    hand = 0
    while len(out) < count:
        state = HandState(Deal.shuffled(random.Random(f"bench-coach:{seed}:{hand}")), rules)
        rng = random.Random(f"bench-coach-bot:{seed}:{hand}")
        while not state.over and len(out) < count:
            info = state.infoset()
            wanted = not discards_only or info.phase is Phase.DISCARD
            if wanted and len(info.legal_actions()) > 1:
                out.append(info)
            state.do(bot.act(info, rng))
        hand += 1
    return out


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", choices=[*BUDGETS, "all"], default="all")
    parser.add_argument("--positions", type=int, default=0, help="0: the budget's default")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--discards", action="store_true", help="discard decisions only")
    parser.add_argument("--draws", action="store_true", help="take-or-draw decisions only")
    args = parser.parse_args(argv)
    if args.positions < 0:
        print("error: --positions must be >= 0", file=sys.stderr)
        return 2
    names = list(BUDGETS) if args.budget == "all" else [args.budget]
    print(f"rules {args.rules}, seed {args.seed}, CPU seconds per verdict (process time)")
    print(f"{'budget':8} {'n':>4} {'median':>7} {'p90':>7} {'max':>7} {'worlds':>7}  phases")
    for name in names:
        worlds, seconds, default = BUDGETS[name]
        infos = positions(args.positions or default, args.seed, args.rules, args.discards)
        if args.draws:
            want = args.positions or default
            infos = [
                i
                for i in positions(8 * want, args.seed, args.rules, False)
                if i.phase is not Phase.DISCARD
            ][:want]
        times: list[float] = []
        used: list[int] = []
        for index, info in enumerate(infos):
            verdict = coach.judge(info, worlds=worlds, seconds=seconds, seed=index)
            times.append(verdict.seconds)
            used.append(verdict.worlds)
        phases = Counter(info.phase.value for info in infos)
        mix = " ".join(f"{p}:{n}" for p, n in sorted(phases.items()))
        print(
            f"{name:8} {len(times):4d} {statistics.median(times):7.3f} "
            f"{quantile(times, 0.9):7.3f} {max(times):7.3f} {statistics.median(used):7.0f}  {mix}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
