"""A tiny, obviously-correct meld solver for the tests, written from the rules, not the engine.

Melds are listed by checking every subset shape directly; arrangements by trying every
collection of disjoint melds.
"""

from __future__ import annotations

from itertools import combinations

VALUES = [min(rank, 10) for rank in range(1, 14)]


def card_value(index: int) -> int:
    return VALUES[index % 13]


def cards_of(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]


def points(mask: int) -> int:
    return sum(card_value(i) for i in cards_of(mask))


def melds_in(mask: int) -> list[int]:
    """Every set (3 or 4 of a rank) and run (3+ consecutive ranks of a suit, ace low) in mask."""
    cards = cards_of(mask)
    found: list[int] = []
    for rank in range(13):
        same = [i for i in cards if i % 13 == rank]
        for size in (3, 4):
            for group in combinations(same, size):
                found.append(sum(1 << i for i in group))
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):
                run = [suit * 13 + r for r in range(low, high + 1)]
                if all(mask >> i & 1 for i in run):
                    found.append(sum(1 << i for i in run))
    return found


def all_collections(mask: int) -> list[list[int]]:
    """Every collection of pairwise-disjoint melds within mask (the empty one included)."""
    melds = melds_in(mask)
    out: list[list[int]] = []

    def grow(start: int, used: int, chosen: list[int]) -> None:
        out.append(list(chosen))
        for j in range(start, len(melds)):
            if not melds[j] & used:
                chosen.append(melds[j])
                grow(j + 1, used | melds[j], chosen)
                chosen.pop()

    grow(0, 0, [])
    return out


def is_set(meld: int) -> bool:
    return len({i % 13 for i in cards_of(meld)}) == 1


def canonical(melds: list[int]) -> tuple[frozenset[int], int]:
    """An arrangement's identity: its sets, and which cards are in runs (touching runs merge)."""
    sets = frozenset(m for m in melds if is_set(m))
    run_cards = 0
    for m in melds:
        if not is_set(m):
            run_cards |= m
    return sets, run_cards


def min_deadwood(mask: int) -> int:
    return min(points(mask & ~sum(c)) for c in all_collections(mask))


def optimal_arrangements(mask: int) -> tuple[int, set[tuple[frozenset[int], int]]]:
    """The least deadwood and the identities of every arrangement reaching it."""
    scored = [(points(mask & ~sum(c)), c) for c in all_collections(mask)]
    best = min(score for score, _ in scored)
    return best, {canonical(c) for score, c in scored if score == best}
