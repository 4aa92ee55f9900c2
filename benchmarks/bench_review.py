"""Wall time of ``gintutor review`` for a coached and an uncoached saved game.

Saves one whole game played by a scripted learner (the coach's frozen heuristic, seeded per
decision) against ``simple`` into a scratch data folder, once with the coach ``on`` at the
table's own budget (its verdicts kept in the file) and once with the coach ``off``, then times
the review command itself, as a learner runs it, for each:

    nice -n 10 python benchmarks/bench_review.py                      # both games, seed 7
    nice -n 10 python benchmarks/bench_review.py --coach on --jobs 2

Prints each game's decisions, how many verdicts the review reused, and the wall time and CPU
seconds (the review and its worker processes) of ``gintutor review ID --json --jobs J`` (the
games are made first and not timed). On a shared machine the wall time depends on the load;
CPU seconds / J is the wall time the J cores would take alone.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gintutor.cli.playrun import _Saver
from gintutor.content.games import GameWriter, games_dir
from gintutor.engine.bots.heuristic import BASELINE, HeuristicBot
from gintutor.engine.rules import preset
from gintutor.tutor.session import CoachedGame, CoachMode

LEARNER = HeuristicBot(BASELINE)


def save_game(home: Path, coach: CoachMode, seed: int) -> tuple[str, int]:
    """A whole game saved in ``home``; its id and the learner's decisions with a choice."""
    rules = preset("standard")
    first = random.Random(f"first-dealer:{seed}").randrange(2)
    writer, header = GameWriter.create(
        games_dir(home),
        rules=rules,
        rules_spec="standard",
        bot="simple",
        coach=coach.value,
        seed=seed,
        you=0,
        first_dealer=first,
    )
    session = CoachedGame(rules, "simple", coach, seed, _Saver(writer), first_dealer=first)
    choices = 0
    while not session.game_over:
        session.deal()
        while session.in_hand:
            if not session.your_turn:
                session.bot_turn()
                continue
            assert session.state is not None
            info = session.state.infoset(session.you)
            rng = random.Random(f"learner:{session.hand_number}:{len(session.state.log)}")
            action = LEARNER.act(info, rng)
            choices += len(info.legal_actions()) > 1
            flag = session.check(action)
            session.play(action, flagged=flag is not None)
        session.end_hand()
    writer.end("finished")
    writer.close()
    return header.id, choices


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coach", choices=("on", "off", "both"), default="both")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    modes = ("on", "off") if args.coach == "both" else (args.coach,)
    for mode in modes:
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder)
            os.environ["GINTUTOR_HOME"] = folder
            made = time.perf_counter()
            game, choices = save_game(home, CoachMode(mode), args.seed)
            made = time.perf_counter() - made
            command = ["gintutor", "review", game, "--json", "--jobs", str(args.jobs)]
            start = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(
                [sys.executable, "-m", "gintutor", *command[1:]],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "GINTUTOR_HOME": folder},
            )
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            data = json.loads(done.stdout)
            decisions = data["summary"]["decisions"]
            print(
                f"coach {mode}: {choices} decisions with a choice ({decisions} rated), "
                f"{data['reused']} verdicts reused; game made in {made:.1f} s; "
                f"`{' '.join(command)}`: {wall:.1f} s wall, {cpu:.1f} s CPU"
            )


if __name__ == "__main__":
    main()
