"""Time the exact discard evaluator on random mid-game positions.

Run from the project root::

    PYTHONPATH=. python benchmarks/bench_evaluate.py            # 40 positions
    PYTHONPATH=. python benchmarks/bench_evaluate.py --positions 200

Each position is an 11-card hand after drawing with a random discard pile of 8 cards and two
cards known in the opponent's hand (stock 23), seed 2026. It prints the time of one full
evaluation of all 11 discards (exact two-draw figure included) as mean, median and worst.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from gintutor.engine.cards import CardSet
from gintutor.engine.evaluate import Position, evaluate
from gintutor.engine.rules import preset


def positions(count: int, seed: int = 2026) -> list[Position]:
    """Random positions: 11 in hand, 8 dead, 2 known in the opponent's hand, stock 23."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = rng.sample(range(52), 21)
        hand = CardSet(sum(1 << i for i in deck[:11]))
        dead = CardSet(sum(1 << i for i in deck[11:19]))
        known = CardSet(sum(1 << i for i in deck[19:21]))
        out.append(
            Position(hand, preset("standard"), dead=dead, opponent_known=known, stock_size=23)
        )
    return out


def timed(action: Callable[[Position], object], items: list[Position]) -> list[float]:
    """Seconds per item."""
    times = []
    for item in items:
        start = time.perf_counter()
        action(item)
        times.append(time.perf_counter() - start)
    return times


def report(name: str, times: list[float]) -> None:
    print(
        f"{name:<44} mean {1000 * statistics.mean(times):7.1f} ms   "
        f"median {1000 * statistics.median(times):7.1f} ms   "
        f"worst {1000 * max(times):7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    items = positions(args.positions)
    print(f"{args.positions} positions, seed 2026")
    report("evaluate(): all 11 discards, exact", timed(evaluate, items))


if __name__ == "__main__":
    main()
