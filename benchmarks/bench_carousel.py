"""Time the exact Carousel solver on positions from bot play (two decks, 3 players).

Positions are collected from seeded greedy-bot rounds at every moment a player may play; each
is solved exactly (the whole table) in a worker process with a time cap, and the quick bounded
search (the 3 nearest melds, what bots use) is timed too. Prints median, 90th percentile and
worst, wall clock and CPU time (the machine may be shared: CPU is the fairer figure), and how
many positions hit the cap (counted at the cap).

    nice -n 10 python benchmarks/bench_carousel.py --rounds 2 --cap 5
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import time

from gintutor.engine.carousel.cards import Hand, Table
from gintutor.engine.carousel.game import BotLevel, Phase, Round, bot_play
from gintutor.engine.carousel.solver import best_play, nearby_melds


def positions(rounds: int, seed: int) -> list[tuple[Table, Hand]]:
    """(table, hand) whenever a player may play, in seeded greedy-bot rounds."""
    found = []
    for number in range(rounds):
        r = Round.deal(3, seed + number)
        while r.phase is not Phase.ROUND_OVER:
            if r.can_draw():
                r.draw()
            elif r.can_play():
                if r.table.melds:
                    found.append((r.table, r.hand))
                play = bot_play(r, BotLevel.GREEDY)
                if play is None:
                    r.pass_turn()
                else:
                    r.play(play.table)
            elif r.can_knock():
                r.knock()
            else:
                r.end_turn()
    return found


def _exact(item: tuple[Table, Hand]) -> tuple[float, float]:
    """(wall, CPU) seconds of one exact solve."""
    start, cpu = time.perf_counter(), time.process_time()
    best_play(item[0], item[1], 2)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=5.0, help="seconds per exact solve")
    args = parser.parse_args()
    found = positions(args.rounds, args.seed)
    sizes = [t.card_count for t, _ in found]
    print(
        f"{len(found)} positions, table {min(sizes)}-{max(sizes)} cards, "
        f"hand {min(len(h) for _, h in found)}-{max(len(h) for _, h in found)}"
    )
    quick: list[float] = []
    quick_cpu: list[float] = []
    for table, hand in found:
        start, cpu = time.perf_counter(), time.process_time()
        best_play(table, hand, 2, only=nearby_melds(table, hand))
        quick.append(time.perf_counter() - start)
        quick_cpu.append(time.process_time() - cpu)
    report("nearby (3 melds), wall", quick, 0)
    report("nearby (3 melds), CPU", quick_cpu, 0)
    exact: list[float] = []
    exact_cpu: list[float] = []
    capped = 0
    by_size: dict[str, list[float]] = {}
    with mp.Pool(1) as pool:
        for item in found:
            job = pool.apply_async(_exact, (item,))
            try:
                wall, cpu = job.get(timeout=args.cap)
            except mp.TimeoutError:
                capped += 1
                wall = cpu = args.cap  # a capped solve counts as the cap
                pool.terminate()
                pool = mp.Pool(1)
            exact.append(wall)
            exact_cpu.append(cpu)
            size = item[0].card_count
            band = "table <40" if size < 40 else "table 40-59" if size < 60 else "table 60+"
            by_size.setdefault(band, []).append(cpu)
    report("exact (whole table), wall", exact, capped)
    report("exact (whole table), CPU", exact_cpu, capped)
    for band in ("table <40", "table 40-59", "table 60+"):
        if band in by_size:
            report(f"  exact CPU, {band} ({len(by_size[band])})", by_size[band], 0)


def report(name: str, times: list[float], capped: int) -> None:
    """Median, 90th percentile and worst of ``times`` (seconds) in ms."""
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    print(
        f"{name}: median {statistics.median(ordered) * 1000:.0f} ms, 90% "
        f"{p90 * 1000:.0f} ms, worst {ordered[-1] * 1000:.0f} ms"
        + (f", {capped} of {len(ordered)} hit the cap" if capped else "")
    )


if __name__ == "__main__":
    main()
