"""Benchmark the least-deadwood solver against OpenSpiel and RLCard, and check they agree.

Run from the project root (the optional competitors come with ``pip install -e '.[bench]'``)::

    PYTHONPATH=. python benchmarks/bench_solver.py             # 200,000 hands of each size
    PYTHONPATH=. python benchmarks/bench_solver.py --quick     # 5,000 hands, a few seconds
    PYTHONPATH=. python benchmarks/bench_solver.py --hands 50000 --repeat 5

It deals N random 10-card hands and N random 11-card hands (``random.Random(2026)``) and times,
on exactly the same hands (best of ``--repeat`` runs, ``time.perf_counter``):

* ours: :func:`gintutor.solver.min_deadwood_mask` (10 cards) and
  :func:`gintutor.solver.best_discard_deadwood_mask` (11 cards: least deadwood after the best
  discard), plus the object API :func:`gintutor.solver.discard_options` on the 11-card hands
  and the deadwood after every discard (what each turn of a play-out scores), computed together
  by :func:`gintutor.solver.discard_deadwoods` and card by card with ``min_deadwood_mask``;
* OpenSpiel (C++ through ``pyspiel``): ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
  .min_deadwood(cards)``. For 11 cards the exact figure calls it on each of the 11 ten-card
  hands left by a discard and takes the least. OpenSpiel's own 11-card ``min_deadwood`` takes one
  best meld group of all 11 cards and drops its highest deadwood card, which is an approximation:
  it is timed and compared too, but labelled as such and never counted as a disagreement;
* RLCard (pure Python): ``melding.get_best_meld_clusters(hand)`` then
  ``utils.get_deadwood_count(hand, best_cluster or [])``; 11 cards as min over the 11 discards.

Converting cards (done once, outside the timed loops): our bit index is ``suit * 13 + rank - 1``
with suits C D H S. OpenSpiel's card int is ``suit * 13 + rank - 1`` with suits s c d h; RLCard's
card id is ``suit * 13 + rank - 1`` with suits S H D C, and its hands are lists of the shared
``Card`` objects of ``utils.get_card(card_id)``. The script checks both mappings on all 52 cards.

It prints a table (implementation, 10-card and 11-card hands per second, and how many times
faster ours is), then the number of hands on which each implementation disagrees with ours, with
examples. It exits with status 1 if any exact implementation disagrees on any hand, else 0.
Implementations that are not installed are skipped with a note.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gintutor.engine.cards import CARDS, CardSet
from gintutor.engine.solver import (
    best_discard_deadwood_mask,
    discard_deadwoods,
    discard_options,
    min_deadwood_mask,
)

SEED = 2026
DEFAULT_HANDS = 200_000
QUICK_HANDS = 5_000
DEFAULT_REPEAT = 3
MAX_EXAMPLES = 10
INSTALL_HINT = "pip install -e '.[bench]'"

OPENSPIEL_SUIT = (1, 2, 3, 0)
"""OpenSpiel suit index of our suits C D H S (OpenSpiel orders suits s c d h)."""
RLCARD_SUIT = (3, 2, 1, 0)
"""RLCard suit index of our suits C D H S (RLCard orders suits S H D C)."""

Solver = Callable[[], list[int]]
"""Computes the answer for every hand of one size (the timed unit)."""


@dataclass(frozen=True)
class Hands:
    """The benchmark deal: each hand as a list of our card indices and as a mask."""

    ten: list[list[int]]
    eleven: list[list[int]]

    @property
    def ten_masks(self) -> list[int]:
        """The 10-card hands as masks."""
        return [to_mask(hand) for hand in self.ten]

    @property
    def eleven_masks(self) -> list[int]:
        """The 11-card hands as masks."""
        return [to_mask(hand) for hand in self.eleven]


@dataclass(frozen=True)
class Impl:
    """One implementation: solvers for the 10- and 11-card hands (None when not offered)."""

    name: str
    ten: Solver | None
    eleven: Solver | None
    exact: bool = True
    """False for an approximation: its differences from ours are reported, not failures."""


@dataclass(frozen=True)
class Result:
    """Timings (best seconds over the repeats) and answers of one implementation."""

    impl: Impl
    ten_seconds: float | None
    eleven_seconds: float | None
    ten_answers: list[int] | None
    eleven_answers: list[int] | None


def to_mask(hand: Sequence[int]) -> int:
    """The mask of a hand given as our card indices."""
    mask = 0
    for index in hand:
        mask |= 1 << index
    return mask


def hand_text(hand: Sequence[int]) -> str:
    """A hand as card codes in canonical order, e.g. ``7C TD``."""
    return CardSet(to_mask(hand)).text()


def deal(count: int) -> Hands:
    """``count`` random 10-card hands, then ``count`` random 11-card hands, from the fixed seed."""
    rng = random.Random(SEED)
    ten = [sorted(rng.sample(range(52), 10)) for _ in range(count)]
    eleven = [sorted(rng.sample(range(52), 11)) for _ in range(count)]
    return Hands(ten, eleven)


def optional_module(name: str) -> Any | None:
    """The module ``name``, or None when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def dist_version(name: str) -> str:
    """The installed version of a distribution, or ``?``."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"


# --- ours -------------------------------------------------------------------------------------


def ours_impls(hands: Hands) -> list[Impl]:
    """Our mask API (the reference) and our object API for 11-card hands."""
    ten_masks = hands.ten_masks
    eleven_masks = hands.eleven_masks
    eleven_sets = [CardSet(mask) for mask in eleven_masks]

    def mask_ten() -> list[int]:
        return [min_deadwood_mask(mask) for mask in ten_masks]

    def mask_eleven() -> list[int]:
        return [best_discard_deadwood_mask(mask) for mask in eleven_masks]

    def object_eleven() -> list[int]:
        return [discard_options(hand)[0].deadwood for hand in eleven_sets]

    def every_discard() -> list[int]:
        return [min(d for _, d in discard_deadwoods(mask)) for mask in eleven_masks]

    def every_discard_one_by_one() -> list[int]:
        return [
            min(min_deadwood_mask(mask ^ 1 << i) for i in range(52) if mask >> i & 1)
            for mask in eleven_masks
        ]

    return [
        Impl("gintutor (mask API)", mask_ten, mask_eleven),
        Impl("gintutor discard_options", None, object_eleven),
        Impl("gintutor discard_deadwoods", None, every_discard),
        Impl("gintutor min_deadwood_mask x11", None, every_discard_one_by_one),
    ]


# --- OpenSpiel --------------------------------------------------------------------------------


def openspiel_card(index: int) -> int:
    """OpenSpiel's card int for our card index."""
    return OPENSPIEL_SUIT[index // 13] * 13 + index % 13


def check_openspiel_cards(utils: Any) -> None:
    """Fail loudly if the card conversion does not match OpenSpiel's own card names."""
    for card in CARDS:
        theirs = utils.card_string(openspiel_card(card.index))
        if theirs.upper() != card.code:
            raise SystemExit(f"OpenSpiel card conversion is wrong: {card.code} -> {theirs}")


def openspiel_impls(hands: Hands) -> list[Impl] | None:
    """OpenSpiel's C++ min_deadwood: exact on 10 and 11 cards, and its 11-card approximation."""
    pyspiel = optional_module("pyspiel")
    if pyspiel is None:
        return None
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    check_openspiel_cards(utils)
    min_deadwood = utils.min_deadwood
    ten = [[openspiel_card(i) for i in hand] for hand in hands.ten]
    eleven = [[openspiel_card(i) for i in hand] for hand in hands.eleven]

    def exact_ten() -> list[int]:
        return [min_deadwood(hand) for hand in ten]

    def exact_eleven() -> list[int]:
        return [min(min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(11)) for hand in eleven]

    def approx_eleven() -> list[int]:
        return [min_deadwood(hand) for hand in eleven]

    return [
        Impl("OpenSpiel min_deadwood (C++)", exact_ten, exact_eleven),
        Impl("OpenSpiel 11-card (approx.)", None, approx_eleven, exact=False),
    ]


# --- RLCard -----------------------------------------------------------------------------------


def rlcard_impls(hands: Hands) -> list[Impl] | None:
    """RLCard's best meld clusters plus deadwood count; 11 cards as min over discards."""
    if optional_module("rlcard") is None:
        return None
    melding = importlib.import_module("rlcard.games.gin_rummy.utils.melding")
    utils = importlib.import_module("rlcard.games.gin_rummy.utils.utils")
    deck = [utils.get_card(RLCARD_SUIT[c.index // 13] * 13 + c.index % 13) for c in CARDS]
    for card, theirs in zip(CARDS, deck, strict=True):
        if str(theirs) != card.code:
            raise SystemExit(f"RLCard card conversion is wrong: {card.code} -> {theirs}")
    ten = [[deck[i] for i in hand] for hand in hands.ten]
    eleven = [[deck[i] for i in hand] for hand in hands.eleven]
    best_clusters = melding.get_best_meld_clusters
    deadwood_count = utils.get_deadwood_count

    def least(hand: list[Any]) -> int:
        best = best_clusters(hand)
        return int(deadwood_count(hand, best[0] if best else []))

    def exact_ten() -> list[int]:
        return [least(hand) for hand in ten]

    def exact_eleven() -> list[int]:
        return [min(least(hand[:i] + hand[i + 1 :]) for i in range(11)) for hand in eleven]

    return [Impl("RLCard get_best_meld_clusters", exact_ten, exact_eleven)]


# --- timing and reporting ---------------------------------------------------------------------


def time_solver(solver: Solver | None, repeat: int) -> tuple[float | None, list[int] | None]:
    """Best wall time over ``repeat`` runs, and the answers of the last run."""
    if solver is None:
        return None, None
    best = float("inf")
    answers: list[int] = []
    for _ in range(repeat):
        start = time.perf_counter()
        answers = solver()
        best = min(best, time.perf_counter() - start)
    return best, answers


def run(impl: Impl, repeat: int) -> Result:
    """Time one implementation on both hand sizes."""
    print(f"  timing {impl.name} ...", file=sys.stderr, flush=True)
    ten_seconds, ten_answers = time_solver(impl.ten, repeat)
    eleven_seconds, eleven_answers = time_solver(impl.eleven, repeat)
    return Result(impl, ten_seconds, eleven_seconds, ten_answers, eleven_answers)


def rate(count: int, seconds: float | None) -> float | None:
    """Hands per second."""
    return None if seconds is None else count / seconds


def rate_text(value: float | None) -> str:
    """Hands per second for the table."""
    return "-" if value is None else f"{value:,.0f}"


def ratio_text(ours: float | None, theirs: float | None) -> str:
    """How many times faster ours is (ours hands/s divided by theirs)."""
    return "-" if ours is None or theirs is None else f"{ours / theirs:.2f}x"


def print_table(results: list[Result], count: int) -> None:
    """The speed table; the first result is the reference (ours)."""
    ours = results[0]
    ours10 = rate(count, ours.ten_seconds)
    ours11 = rate(count, ours.eleven_seconds)
    header = (
        f"{'implementation':<32} {'10-card hands/s':>16} {'11-card hands/s':>16}"
        f" {'ours/theirs 10':>15} {'ours/theirs 11':>15}"
    )
    print(header)
    print("-" * len(header))
    for result in results:
        r10 = rate(count, result.ten_seconds)
        r11 = rate(count, result.eleven_seconds)
        print(
            f"{result.impl.name:<32} {rate_text(r10):>16} {rate_text(r11):>16}"
            f" {ratio_text(ours10, r10):>15} {ratio_text(ours11, r11):>15}"
        )


def mismatches(
    hands: list[list[int]], ours: list[int], theirs: list[int] | None
) -> list[tuple[list[int], int, int]]:
    """``(hand, ours, theirs)`` for every hand where the answers differ."""
    if theirs is None:
        return []
    return [(h, a, b) for h, a, b in zip(hands, ours, theirs, strict=True) if a != b]


def report_agreement(results: list[Result], hands: Hands) -> int:
    """Print disagreements with ours; return how many hands exact implementations got wrong."""
    ours = results[0]
    assert ours.ten_answers is not None and ours.eleven_answers is not None
    failures = 0
    print()
    print("Agreement with gintutor (hands where the least deadwood differs):")
    for result in results[1:]:
        bad10 = mismatches(hands.ten, ours.ten_answers, result.ten_answers)
        bad11 = mismatches(hands.eleven, ours.eleven_answers, result.eleven_answers)
        kind = "exact" if result.impl.exact else "approximation, not counted as a failure"
        sizes = [
            f"{size}-card {len(bad)}"
            for size, answers, bad in (
                (10, result.ten_answers, bad10),
                (11, result.eleven_answers, bad11),
            )
            if answers is not None
        ]
        print(f"  {result.impl.name:<32} {', '.join(sizes)}   ({kind})")
        for hand, a, b in (bad10 + bad11)[:MAX_EXAMPLES]:
            print(f"      {hand_text(hand)}: ours {a}, theirs {b}")
        if result.impl.exact:
            failures += len(bad10) + len(bad11)
    return failures


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=int, default=None, help=f"hands of each size (default {DEFAULT_HANDS:,})"
    )
    parser.add_argument(
        "--quick", action="store_true", help=f"small run: {QUICK_HANDS:,} hands, one repeat"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help=f"timed runs per figure, the best is kept (default {DEFAULT_REPEAT})",
    )
    args = parser.parse_args(argv)
    if args.hands is None:
        args.hands = QUICK_HANDS if args.quick else DEFAULT_HANDS
    if args.repeat is None:
        args.repeat = 1 if args.quick else DEFAULT_REPEAT
    if args.hands < 1 or args.repeat < 1:
        parser.error("--hands and --repeat must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Deal, time every available implementation, print the table and the agreement check."""
    args = parse_args(argv)
    count: int = args.hands
    hands = deal(count)
    print(
        f"Python {platform.python_version()}; {count:,} random 10-card and 11-card hands "
        f"(seed {SEED}); best of {args.repeat} run(s)"
    )
    impls = ours_impls(hands)
    skipped: list[str] = []
    for label, dist, factory in (
        ("OpenSpiel", "open_spiel", openspiel_impls),
        ("RLCard", "rlcard", rlcard_impls),
    ):
        found = factory(hands)
        if found is None:
            skipped.append(f"{label} ({dist}) is not installed: skipped ({INSTALL_HINT})")
        else:
            print(f"{label} {dist_version(dist)}")
            impls += found
    print()
    results = [run(impl, args.repeat) for impl in impls]
    print_table(results, count)
    for line in skipped:
        print(line)
    failures = report_agreement(results, hands)
    print()
    if failures:
        print(f"FAIL: {failures} disagreement(s) with an exact implementation")
        return 1
    print("OK: every exact implementation agrees with gintutor on every hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
