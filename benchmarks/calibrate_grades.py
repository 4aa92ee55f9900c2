"""Calibrate the coach's grade thresholds on the bot ladder: what each bot level loses.

Each level plays seeded hands of a game (to the target, scores carried) against the
``heuristic``, in seat 0 for even jobs and seat 1 for odd ones; every decision of the level
with a choice (two legal actions or more) is judged by :func:`gintutor.engine.coach.judge` with
the game score, and the grades, losses and game-win chance lost are totalled per level. The
thresholds in :mod:`gintutor.engine.coach` are set so that the ladder reads as it plays: the
``expert`` and the ``heuristic`` (the coach's own rollout policy) make few Mistakes, ``novice``
(random legal play) many Blunders; see the table in the coach's docstring.

    nice -n 10 python benchmarks/calibrate_grades.py --hands 4 --jobs 2

Budget per decision: ``--worlds`` / ``--seconds`` (default 256 worlds, 0.8 s: between the
coach's and the review's).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from math import sqrt
from multiprocessing import get_context

from gintutor.engine.bots import BOT_NAMES, make_bot
from gintutor.engine.coach import judge
from gintutor.engine.hand import Deal, GameState, HandState
from gintutor.engine.judgement import Grade
from gintutor.engine.rules import preset

Row = tuple[str, float, float, float | None]
"""One judged decision: grade word, loss, loss standard error, game-win chance lost."""


def _job(job: tuple[str, int, int, float, int, str]) -> tuple[str, list[Row]]:
    level, index, worlds, seconds, hands, rules_name = job
    rules = preset(rules_name)
    seat = index % 2
    bots = [make_bot(level), make_bot("heuristic")]
    if seat:
        bots.reverse()
    rngs = [random.Random(f"calibrate:{level}:{index}:{s}") for s in (0, 1)]
    game = GameState(rules, first_dealer=0)
    rows: list[Row] = []
    for hand in range(hands):
        if game.over:
            game = GameState(rules, first_dealer=hand % 2)
        deal = Deal.shuffled(random.Random(f"calibrate-deal:{index}:{hand}"), game.dealer)
        state = HandState(deal, rules)
        totals = game.sheet.totals
        scores = (totals[seat], totals[1 - seat])
        while not state.over:
            mover = state.to_move
            info = state.infoset(mover)
            if mover == seat and len(info.legal_actions()) > 1:
                verdict = judge(info, worlds=worlds, seconds=seconds, seed=hand, scores=scores)
                action = bots[mover].act(info, rngs[mover])
                judged = verdict.of(action)
                rows.append((judged.grade.value, judged.loss, judged.loss_stderr, judged.win_loss))
            else:
                action = bots[mover].act(info, rngs[mover])
            state.do(action)
        assert state.result is not None
        game.record(state.result)
    return level, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(BOT_NAMES))
    parser.add_argument("--games", type=int, default=2, help="games (seats alternate) per level")
    parser.add_argument("--hands", type=int, default=4, help="hands judged per game")
    parser.add_argument("--worlds", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=0.8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--out", help="write every judged decision here (JSON), to regrade")
    args = parser.parse_args(argv)
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    unknown = [name for name in levels if name not in BOT_NAMES]
    if unknown or args.games < 1 or args.hands < 1 or args.jobs < 1:
        print(f"error: levels are {', '.join(BOT_NAMES)}; counts at least 1", file=sys.stderr)
        return 2
    jobs = [
        (level, index, args.worlds, args.seconds, args.hands, args.rules)
        for index in range(args.games)
        for level in levels
    ]
    start = time.perf_counter()
    rows: dict[str, list[Row]] = {level: [] for level in levels}
    with get_context("spawn").Pool(args.jobs) as pool:
        for level, part in pool.imap_unordered(_job, jobs):
            rows[level] += part
    print(
        f"rules {args.rules}, {args.games} games x {args.hands} hands per level against the "
        f"heuristic, {args.worlds} worlds / {args.seconds} s per decision, "
        f"{time.perf_counter() - start:.0f} s"
    )
    words = [grade.value for grade in Grade]
    head = " ".join(f"{w[:5]:>6}" for w in words)
    print(f"{'level':10} {'n':>4} {head} {'errors':>7} {'loss/dec':>13} {'win lost':>9}")
    for level in levels:
        part = rows[level]
        n = len(part)
        if not n:
            continue
        share = [sum(1 for r in part if r[0] == w) / n for w in words]
        errors = sum(share[2:])
        losses = [r[1] for r in part]
        mean = statistics.fmean(losses)
        se = statistics.stdev(losses) / sqrt(n) if n > 1 else 0.0
        wins = [r[3] for r in part if r[3] is not None]
        win = statistics.fmean(wins) if wins else 0.0
        cells = " ".join(f"{100 * s:5.1f}%" for s in share)
        print(f"{level:10} {n:4d} {cells} {100 * errors:6.1f}% {mean:6.2f} ± {se:4.2f} {win:9.4f}")
    print("errors: inaccuracy, mistake or blunder; loss in expected hand points per decision")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump({"fields": ["grade", "loss", "loss_stderr", "win_loss"], **rows}, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
