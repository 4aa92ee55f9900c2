"""Time the exact Carousel solvers on positions from bot play (two decks, 3 players).

Positions are collected from seeded greedy-bot rounds at every moment a player may play. Each
is solved exactly (the whole table) by the integer programme with HiGHS and by the pure dynamic
programme in a worker process with a time cap; ``best_play``'s automatic choice (see
``solver.Method.AUTO``) is timed as it runs, and the
quick bounded search (the 3 nearest melds, what bots use) is timed too. Prints median, 90th
percentile and worst per table size, CPU time (the machine may be shared: CPU is the fairer
figure; HiGHS runs on one thread), and checks that both exact solvers agree on points, cards
and moves wherever the dynamic programme finished.

``--random N`` adds N seeded random two-deck tables of 50-90 cards with both jokers (on the
table or in the hand) and hands of 10-14 cards (issue 22's speed set): ``best_play``'s automatic
choice on them is reported apart (median, worst, and how many the dynamic programme answered
within its budget without ``highspy``).

    nice -n 10 python benchmarks/bench_carousel.py --rounds 1 --cap 3
    nice -n 10 python benchmarks/bench_carousel.py --rounds 2 --random 200 --only-auto
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import time

from gintutor.engine.cards import CARDS, Card
from gintutor.engine.carousel.cards import Hand, Meld, Slot, Table, make_meld
from gintutor.engine.carousel.game import BotLevel, Phase, Round, bot_play
from gintutor.engine.carousel.solver import (
    DP_BUDGET,
    DP_FIRST_UNDER,
    HIGHS_FROM,
    Method,
    Play,
    best_play,
    nearby_melds,
)

BANDS = ("table <40", "table 40-59", "table 60+")
Summary = tuple[int, int, int] | None


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


def random_positions(count: int, seed: int) -> list[tuple[Table, Hand]]:
    """``count`` random two-deck positions: a table of 50-90 cards of random groups and
    sequences (3-5 cards), both jokers on the table or in the hand, a hand of 10-14 cards
    (jokers included) drawn mostly from cards next to the table's."""
    rng = random.Random(seed)
    found: list[tuple[Table, Hand]] = []
    while len(found) < count:
        target = rng.randint(50, 90)
        hand_size = rng.randint(10, 14)
        left = {card: 2 for card in CARDS}
        in_hand = rng.choice((0, 0, 1, 1, 2))  # how many of the two jokers the hand holds
        on_table = 2 - in_hand
        melds: list[Meld] = []
        size = 0
        for _ in range(400):
            if size >= target:
                break
            if rng.random() < 0.4:
                rank = rng.randint(1, 13)
                suits = rng.sample(range(4), rng.choice((3, 3, 4)))
                meld_cards = [Card.from_index(s * 13 + rank - 1) for s in suits]
            else:
                suit = rng.randrange(4)
                length = rng.choice((3, 3, 4, 5))
                start = rng.randint(1, 15 - length)
                meld_cards = [
                    Card.from_index(suit * 13 + (p if p <= 13 else 1) - 1)
                    for p in range(start, start + length)
                ]
            if size + len(meld_cards) > 90 or any(left[c] == 0 for c in meld_cards):
                continue
            for c in meld_cards:
                left[c] -= 1
            melds.append(make_meld(Slot(c) for c in meld_cards))
            size += len(meld_cards)
        if not 50 <= size <= 90:
            continue
        joker_melds = rng.sample(range(len(melds)), on_table)
        for i in joker_melds:  # a joker stands for one of the meld's cards
            slots = list(melds[i].slots)
            j = rng.randrange(len(slots))
            slots[j] = Slot(slots[j].card, joker=True)
            melds[i] = make_meld(slots)
        table = Table.of(melds)
        pool = [card for card, n in left.items() for _ in range(n)]
        near = [
            c
            for c in pool
            if any(
                (s.card.suit is c.suit and abs(s.card.rank.number - c.rank.number) <= 2)
                or s.card.rank is c.rank
                for s in table.slots()
            )
        ]
        cards: list[Card] = []
        while len(cards) < hand_size - in_hand:
            source = near if near and rng.random() < 0.6 else pool
            card = rng.choice(source)
            if cards.count(card) + 1 > left[card]:
                continue
            cards.append(card)
        found.append((table, Hand.of(cards, in_hand)))
    return found


def band(table: Table) -> str:
    """The table-size band of a position."""
    size = table.card_count
    return BANDS[0] if size < 40 else BANDS[1] if size < 60 else BANDS[2]


def summary(play: Play | None) -> Summary:
    """(points, cards, moves) of a play."""
    return None if play is None else (play.points_placed, play.cards_placed, len(play.moves))


def _solve(item: tuple[Table, Hand], method: Method) -> tuple[float, float, Summary]:
    """(wall, CPU) seconds of one exact solve, and its result."""
    start, cpu = time.perf_counter(), time.process_time()
    play = best_play(item[0], item[1], 2, method=method)
    return time.perf_counter() - start, time.process_time() - cpu, summary(play)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=5.0, help="seconds per dynamic programme")
    parser.add_argument(
        "--random",
        type=int,
        default=0,
        metavar="N",
        help="also N random 50-90-card tables with both jokers and 10-14-card hands",
    )
    parser.add_argument("--random-seed", type=int, default=22)
    parser.add_argument(
        "--only-auto",
        action="store_true",
        help="time best_play's automatic choice only (no HiGHS/DP comparison)",
    )
    args = parser.parse_args()
    if args.only_auto:
        auto_only(
            positions(args.rounds, args.seed), random_positions(args.random, args.random_seed)
        )
        return
    found = positions(args.rounds, args.seed)
    sizes = [t.card_count for t, _ in found]
    print(
        f"{len(found)} positions, table {min(sizes)}-{max(sizes)} cards, "
        f"hand {min(len(h) for _, h in found)}-{max(len(h) for _, h in found)}, "
        + ", ".join(f"{b} {sum(band(t) == b for t, _ in found)}" for b in BANDS)
    )
    quick_cpu: list[float] = []
    for table, hand in found:
        cpu = time.process_time()
        best_play(table, hand, 2, only=nearby_melds(table, hand))
        quick_cpu.append(time.process_time() - cpu)
    report("nearby (3 melds, dynamic programme), CPU", quick_cpu)

    start = time.perf_counter()
    import gintutor.engine.carousel.highs  # noqa: F401  (HiGHS loaded once, before the timings)

    print(f"HiGHS loaded: {(time.perf_counter() - start) * 1000:.0f} ms wall")
    highs: dict[str, list[float]] = {b: [] for b in BANDS}
    auto: dict[str, list[float]] = {b: [] for b in BANDS}
    auto_all: list[float] = []
    highs_all: list[float] = []
    highs_wall: list[float] = []
    results: list[Summary] = []
    for item in found:
        wall, cpu, result = _solve(item, Method.HIGHS)
        highs[band(item[0])].append(cpu)
        highs_all.append(cpu)
        highs_wall.append(wall)
        results.append(result)
    report("exact, HiGHS model, wall", highs_wall)
    report("exact, HiGHS model, CPU", highs_all)
    for b in BANDS:
        if highs[b]:
            report(f"  HiGHS CPU, {b} ({len(highs[b])})", highs[b])

    dp: dict[str, list[float]] = {b: [] for b in BANDS}
    dp_all: list[float] = []
    capped: dict[str, int] = dict.fromkeys(BANDS, 0)
    compared = disagree = 0
    pool = mp.Pool(1)
    try:
        for item, result in zip(found, results, strict=True):
            job = pool.apply_async(_solve, (item, Method.DP))
            try:
                _, cpu, expected = job.get(timeout=args.cap)
            except mp.TimeoutError:
                capped[band(item[0])] += 1
                dp_all.append(args.cap)  # a capped solve counts as the cap
                pool.terminate()
                pool = mp.Pool(1)
                continue
            dp[band(item[0])].append(cpu)
            dp_all.append(cpu)
            compared += 1
            if expected != result:
                disagree += 1
                print(f"DISAGREE {item[0].text()} / {item[1].text()}: {result} vs {expected}")
    finally:
        pool.terminate()
    report("exact, dynamic programme, CPU (a capped solve counts as the cap)", dp_all)
    for b in BANDS:
        if dp[b] or capped[b]:
            over = f", {capped[b]} over the {args.cap:g} s cap" if capped[b] else ""
            if dp[b]:
                report(f"  DP CPU, {b} (finished {len(dp[b])}{over})", dp[b])
            else:
                print(f"  DP CPU, {b}: none finished{over}")
    print(f"HiGHS and DP agree on points, cards and moves: {compared - disagree} of {compared}")
    for item, result in zip(found, results, strict=True):
        _, cpu, chosen = _solve(item, Method.AUTO)
        auto[band(item[0])].append(cpu)
        auto_all.append(cpu)
        assert chosen == result, (item[0].text(), item[1].text())  # exact either way
    report(
        f"best_play (auto: DP under {HIGHS_FROM} cards; under {DP_FIRST_UNDER} the DP within "
        f"{DP_BUDGET} states, else HiGHS), CPU",
        auto_all,
    )
    for b in BANDS:
        if auto[b]:
            report(f"  auto CPU, {b} ({len(auto[b])})", auto[b])


def auto_only(found: list[tuple[Table, Hand]], spread: list[tuple[Table, Hand]]) -> None:
    """``best_play``'s automatic choice, CPU, on the bot positions and the random ones, and
    how many each sent to HiGHS (the rest the dynamic programme answered, within its budget)."""
    from gintutor.engine.carousel import solver

    start = time.process_time()
    import gintutor.engine.carousel.highs  # noqa: F401  (HiGHS loaded once, before the timings)

    print(f"HiGHS loaded: {(time.process_time() - start) * 1000:.0f} ms CPU")
    sent: list[int] = []
    real = solver._highs

    def counted() -> object:
        sent.append(1)
        return real()

    solver._highs = counted
    for name, items in (("bot positions", found), ("random 50-90 cards, 2 jokers", spread)):
        if not items:
            continue
        times: list[float] = []
        dp_times: list[float] = []
        sent.clear()
        for table, hand in items:
            before = len(sent)
            cpu = time.process_time()
            best_play(table, hand, 2)
            times.append(time.process_time() - cpu)
            if len(sent) == before:
                dp_times.append(times[-1])
        sizes = [t.card_count for t, _ in items]
        print(
            f"{name}: {len(items)} positions, table {min(sizes)}-{max(sizes)} cards, hand "
            f"{min(len(h) for _, h in items)}-{max(len(h) for _, h in items)}; "
            f"{len(dp_times)} answered by the DP, {len(sent)} by HiGHS"
        )
        report("  best_play auto, CPU (HiGHS already loaded)", times)
        if dp_times:
            report("  of which the DP alone, CPU", dp_times)
    solver._highs = real


def report(name: str, times: list[float]) -> None:
    """Median, 90th percentile and worst of ``times`` (seconds) in ms."""
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    print(
        f"{name}: median {statistics.median(ordered) * 1000:.0f} ms, 90% "
        f"{p90 * 1000:.0f} ms, worst {ordered[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
