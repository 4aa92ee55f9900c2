"""How hard is each puzzle really? The ladder's bots try every daily puzzle of the pack.

Each bot of the ladder (``novice`` < ``simple`` < ``openspiel`` < ``heuristic`` < ``expert``)
is asked for its action at every puzzle position (:func:`~gintutor.tutor.puzzles.infoset_of`:
only what the player knows), ``--tries`` times with seeds ``0 ..`` (the deterministic bots
answer the same each time; ``expert`` samples worlds, capped by count so a run is the same on
any load). A try *finds* the puzzle when its action is one of the puzzle's accepted answers
(:func:`~gintutor.tutor.puzzles.answer_of`, as a learner's answer is read): a bot that plays on
where a ``layoff-exposure`` puzzle asks which card to knock with does not find it.

Printed: per theme, how many puzzles each bot finds (share of tries); per stated difficulty
(1-5), the same, and the share of puzzles no bot finds; the rank correlation (Spearman)
between the stated difficulty and the bots' solve rate, which should be clearly negative if
the stars mean anything; and how the puzzles spread over "found by k of the 5 bots".

    nice -n 10 python benchmarks/bench_puzzle_difficulty.py             # every daily puzzle
    nice -n 10 python benchmarks/bench_puzzle_difficulty.py --theme outs --tries 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from gintutor.content.puzzles import load_puzzles
from gintutor.engine.bots import make_bot
from gintutor.engine.workers import Workers
from gintutor.tutor.puzzles import Puzzle, answer_of, infoset_of
from gintutor.tutor.puzzleterms import PuzzleKind, Theme

LADDER = ("novice", "simple", "openspiel", "heuristic", "expert")
EXPERT_WORLDS = 128
"""The expert's sampled worlds per decision (its default), without its time cut."""


def _found(job: tuple[Puzzle, int]) -> tuple[str, list[float]]:
    """The puzzle's id and, per ladder bot, the share of its tries that find an answer."""
    puzzle, tries = job
    info = infoset_of(puzzle)
    accepted = {answer.upper() for answer in puzzle.answers}
    shares = []
    for name in LADDER:
        bot = (
            make_bot(name, worlds=EXPERT_WORLDS, seconds=float("inf"))
            if name == "expert"
            else make_bot(name)
        )
        found = 0
        for seed in range(tries):
            answer = answer_of(puzzle.theme, bot.act(info, random.Random(f"{puzzle.id}:{seed}")))
            found += answer is not None and answer.upper() in accepted
        shares.append(found / tries)
    return puzzle.id, shares


def _spearman(xs: list[float], ys: list[float]) -> float:
    """Rank correlation (average ranks for ties)."""

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var if var else 0.0


def _row(label: str, count: int, shares: list[list[float]]) -> str:
    means = [statistics.fmean(column) for column in zip(*shares, strict=True)]
    none = sum(1 for s in shares if not any(s)) / len(shares)
    cells = "".join(f"{m:>10.0%}" for m in means)
    return f"{label:<18}{count:>6}{cells}{none:>10.0%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=2, help="seeded tries per bot (default 2)")
    parser.add_argument("--theme", choices=[t.value for t in Theme], default=None)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    puzzles = [
        p
        for p in load_puzzles()
        if p.kind is PuzzleKind.DAILY and (args.theme is None or p.theme.value == args.theme)
    ]
    start = time.perf_counter()
    with Workers(args.jobs) as workers:
        results = dict(workers.imap_unordered(_found, [(p, args.tries) for p in puzzles]))
    header = f"{'':<18}{'puzzles':>6}" + "".join(f"{n:>10}" for n in LADDER) + f"{'no bot':>10}"
    print(
        f"{len(puzzles)} daily puzzles, {args.tries} tries per bot, expert at "
        f"{EXPERT_WORLDS} worlds; {time.perf_counter() - start:.0f} s"
    )
    print("\nShare of tries that find an accepted answer")
    print(header)
    by_theme: dict[str, list[list[float]]] = defaultdict(list)
    by_stars: dict[int, list[list[float]]] = defaultdict(list)
    for p in puzzles:
        by_theme[p.theme.value].append(results[p.id])
        by_stars[p.difficulty].append(results[p.id])
    for theme in sorted(by_theme):
        print(_row(theme, len(by_theme[theme]), by_theme[theme]))
    print(_row("all", len(puzzles), list(results.values())))
    print("\nBy stated difficulty")
    print(header)
    for stars in sorted(by_stars):
        print(_row(f"{stars} star" + "s" * (stars > 1), len(by_stars[stars]), by_stars[stars]))
    solve = [statistics.fmean(results[p.id]) for p in puzzles]
    stated = [float(p.difficulty) for p in puzzles]
    print(
        f"\nSpearman rank correlation, stated difficulty vs the ladder's solve rate: "
        f"{_spearman(stated, solve):+.2f} (all puzzles)"
    )
    for theme in sorted(by_theme):
        chosen = [i for i, p in enumerate(puzzles) if p.theme.value == theme]
        rho = _spearman([stated[i] for i in chosen], [solve[i] for i in chosen])
        print(f"  {theme:<18}{rho:+.2f}")
    print("\nPuzzles by how many of the five bots find them (on every try)")
    counts = [sum(share == 1.0 for share in results[p.id]) for p in puzzles]
    for k in range(len(LADDER) + 1):
        n = counts.count(k)
        print(f"  {k} of 5: {n:>4} ({n / len(puzzles):.0%})")


if __name__ == "__main__":
    main()
