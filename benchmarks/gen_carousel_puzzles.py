"""Generate Carousel "play the most you can" puzzles from rounds played by the engine's bots.

Rounds between greedy and careful bots (2 to 5 players, seeded) are stepped through; every time
a player may meld, the position (table, hand after drawing, first meld or not) is a candidate.
The exact solver plays it; the instructive ones are kept: a first meld of several melds, or a
best play that must move table cards or free a joker (the solver moves the fewest table cards
among the best plays, so a move there means no best play leaves the table alone). Titles,
hints and explanations are written from what the play does; every number in them is a
placeholder the engine fills (``{best.points}``), so the pack cannot drift from the solver.

    nice -n 10 python benchmarks/gen_carousel_puzzles.py --count 64 --seed 1 \\
        --out puzzles/carousel/carousel.yaml

Prints how many positions were seen, solved and kept, and the solve times.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass

from gintutor.engine.carousel.cards import MeldKind
from gintutor.engine.carousel.game import BotLevel, Phase, Round, bot_knocks, bot_play
from gintutor.engine.carousel.solver import MoveKind, Play, best_play
from gintutor.tutor.carouselpuzzles import Position

MAX_TABLE = 32
MAX_HAND = 12
PER_ROUND = 25  # positions solved per round (the round's cost is spent already)
SLOW = 0.3  # seconds of CPU: a position slower than this to solve is passed over


@dataclass(frozen=True)
class Found:
    position: Position
    best: Play
    feature: str
    seconds: float


def positions(seed: int, players: int) -> list[Position]:
    """Every position in which a player may meld, in one bot round."""
    rng = random.Random(seed)
    levels = [rng.choice(list(BotLevel)) for _ in range(players)]
    round_ = Round.deal(players, seed, first=seed % players)
    seen: list[Position] = []
    while round_.phase is not Phase.ROUND_OVER:
        if round_.can_draw():
            round_.draw()
        elif round_.can_play():
            table, hand = round_.table, round_.hand
            if table.card_count <= MAX_TABLE and len(hand) <= MAX_HAND:
                seen.append(Position(table, hand, players, round_.first_meld))
            play = bot_play(round_, levels[round_.player])
            if play is None:
                round_.pass_turn()
            else:
                round_.play(play.table)
        elif bot_knocks(round_, levels[round_.player]):
            round_.knock()
        else:
            round_.end_turn()
    return seen


def feature(position: Position, best: Play) -> str | None:
    """What makes the position instructive (``None``: nothing)."""
    if position.first_meld:
        return "first" if len(best.table) >= 2 else None
    if any(move.kind is MoveKind.FREED for move in best.moves):
        return "joker"
    if not best.moves:
        return None
    sources = {move.from_meld.kind for move in best.moves}
    if len(best.moves) >= 3 or len(sources) > 1:
        return "chain"
    return "sequence" if sources == {MeldKind.SEQUENCE} else "group"


TITLES = {
    "first": ["Open the round", "Your own cards first", "A strong opening", "Lay it all down"],
    "joker": ["Free the joker", "The real card", "A joker on the move", "Joker, reassigned"],
    "chain": ["A chain of moves", "Rebuild the table", "Everything moves", "Untangle it"],
    "sequence": ["Borrow from a sequence", "Split the run", "Cut it short", "Take the end"],
    "group": ["Borrow from a group", "Four of a kind, three to spare", "One from the set"],
}
CONCEPT = {
    "first": "Nobody has melded yet: your first meld is made of your own cards only, three or "
    "more in each meld, and you may lay down several.",
    "joker": "The real card a joker stands for frees it; the freed joker stays on the table "
    "and must be used again this turn, as any card you declare.",
    "chain": "You may rearrange the whole table, as long as every table card ends in a valid "
    "meld and you add cards from your hand.",
    "sequence": "A sequence of four or more can give up an end card (or split in two) and "
    "still be a meld.",
    "group": "A group of four can give up a card and still be a group of three.",
}
SENTENCE = {
    "first": "Every meld is your own: the table was empty.",
    "joker": "The joker is freed by its real card and used again ({best.freed} freed).",
    "chain": "It takes {best.moves} table cards moved to fit everything in.",
    "sequence": "The sequence gives up a card and stays a meld.",
    "group": "The group gives up a card and stays a meld.",
}


def puzzle_yaml(number: int, found: Found, rng: random.Random) -> str:
    """One puzzle entry of the pack."""
    position, best = found.position, found.best
    kind = found.feature
    moves = len(best.moves)
    difficulty = 1 if kind == "first" else min(5, 2 + moves // 2 + (kind == "joker"))
    if position.table.card_count > 25 and difficulty < 5:
        difficulty += 1
    title = rng.choice(TITLES[kind])
    if kind == "first":
        question = "Nobody has melded yet this round. Play the most points you can."
    else:
        question = "Play the most points you can: type the whole new table."
    moved = "card" if moves == 1 else "cards"
    second = (
        "Find your melds; what is left over stays in your hand ({best.left} points)."
        if kind == "first"
        else f"The best play moves {{best.moves}} table {moved} and leaves you {{best.left}} "
        "points."
    )
    explanation = (
        "{best.placed} go down for {best.points} points. "
        + SENTENCE[kind]
        + " You keep {best.hand_after} ({best.left} points): {best.knock}."
    )
    lines = [
        f"  - id: carousel-{number:03d}",
        f'    title: "{title}"',
        "    theme: carousel",
        f"    difficulty: {difficulty}",
        "    position:",
        f'      table: "{position.table.text()}"',
        f'      hand: "{position.hand.text()}"',
        f"      players: {position.players}",
    ]
    if position.first_meld:
        lines.append("      first_meld: true")
    lines += [
        f'    question: "{question}"',
        f'    answers: ["{best.table.text()}"]',
        "    hints:",
        f'      - "{CONCEPT[kind]}"',
        f'      - "{second}"',
        f'    explanation: "{explanation}"',
    ]
    return "\n".join(lines) + "\n"


class Slow(Exception):
    """A solve that took more CPU time than SLOW."""


def _too_slow(signum: int, frame: object) -> None:
    raise Slow


def solve_quickly(position: Position) -> Play | None:
    """The best play, or :class:`Slow` after SLOW seconds of CPU time (a profiling timer)."""
    signal.signal(signal.SIGPROF, _too_slow)
    signal.setitimer(signal.ITIMER_PROF, SLOW)
    try:
        return best_play(
            position.table, position.hand, position.decks, first_meld=position.first_meld
        )
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=400, help="the most rounds to play")
    parser.add_argument("--out", default="-")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    quota = {"first": args.count // 8, "joker": args.count // 4}
    quota["chain"] = args.count // 6
    quota["group"] = args.count // 6
    quota["sequence"] = args.count - sum(quota.values())
    kept: dict[str, list[Found]] = {kind: [] for kind in quota}
    seen_keys: set[tuple[str, str, int, bool]] = set()
    times: list[float] = []
    seen = rounds = slow = 0
    start = time.perf_counter()
    for round_number in range(args.rounds):
        if all(len(kept[k]) >= quota[k] for k in quota):
            break
        rounds += 1
        if rounds % 10 == 0:
            print(f"{rounds} rounds, {sum(map(len, kept.values()))} kept", file=sys.stderr)
        players = rng.choice([2, 3, 3, 4, 4, 5])
        candidates = positions(args.seed * 100_000 + round_number, players)
        rng.shuffle(candidates)
        for position in candidates[:PER_ROUND]:
            seen += 1
            if position.key() in seen_keys:
                continue
            seen_keys.add(position.key())
            tick = time.process_time()
            try:
                best = solve_quickly(position)
            except Slow:
                slow += 1
                continue
            seconds = time.process_time() - tick
            times.append(seconds)
            if best is None:
                continue
            kind = feature(position, best)
            if kind is not None and len(kept[kind]) < quota[kind]:
                kept[kind].append(Found(position, best, kind, seconds))
    found = [f for kind in quota for f in kept[kind]]
    rng.shuffle(found)
    text = "# Carousel puzzles: generated by benchmarks/gen_carousel_puzzles.py "
    text += f"--count {args.count} --seed {args.seed}\n# (curate titles and hints here).\n"
    text += "puzzles:\n" + "".join(puzzle_yaml(n, f, rng) for n, f in enumerate(found, start=1))
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    print(
        f"{rounds} rounds, {seen} positions seen, {len(times)} solved ({slow} over {SLOW} s "
        f"passed over), {len(found)} kept "
        f"({', '.join(f'{k} {len(v)}' for k, v in kept.items())}); solve median "
        f"{1000 * statistics.median(times):.0f} ms, worst {1000 * max(times):.0f} ms, "
        f"{time.perf_counter() - start:.0f} s in all (CPU times)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
