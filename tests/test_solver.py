"""The solver agrees with an exhaustive search on every hand; its arrangements are all sound."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from brute import canonical, min_deadwood, optimal_arrangements, points
from hypothesis import given, settings
from hypothesis import strategies as st

from gintutor.engine.cards import CardSet
from gintutor.engine.melds import MELD_MASKS, Meld
from gintutor.engine.solver import (
    best_discard_deadwood_mask,
    best_discards,
    discard_deadwoods,
    discard_options,
    is_big_gin_mask,
    min_deadwood_mask,
    solve,
    verify_discard,
)
from gintutor.errors import CardError, IllegalError


def hands(size: int) -> st.SearchStrategy[int]:
    """Uniform random hands of ``size`` cards, as masks."""
    return st.sets(st.integers(0, 51), min_size=size, max_size=size).map(
        lambda cards: sum(1 << i for i in cards)
    )


def dense_hands(size: int) -> st.SearchStrategy[int]:
    """Hands drawn from four or five adjacent ranks, where sets and runs overlap."""

    def pick(args: tuple[int, int, random.Random]) -> int:
        low, width, rng = args
        deck = [s * 13 + r for s in range(4) for r in range(low, min(low + width, 13))]
        return sum(1 << i for i in rng.sample(deck, size))

    return st.tuples(st.integers(0, 9), st.integers(4, 5), st.randoms(use_true_random=False)).map(
        pick
    )


def any_hands(size: int) -> st.SearchStrategy[int]:
    return st.one_of(hands(size), dense_hands(size))


@given(any_hands(10))
def test_min_deadwood_equals_brute_force_on_10_cards(mask: int) -> None:
    assert min_deadwood_mask(mask) == min_deadwood(mask)


@settings(max_examples=40)
@given(any_hands(11))
def test_best_discard_equals_brute_force_on_11_cards(mask: int) -> None:
    check_best_discard(mask)


@pytest.mark.slow
@settings(max_examples=1000)
@given(any_hands(11))
def test_best_discard_equals_brute_force_on_11_cards_many(mask: int) -> None:
    check_best_discard(mask)


def check_best_discard(mask: int) -> None:
    """Every discard leaves the brute force's least deadwood; the best is the least of them."""
    after = {i: min_deadwood(mask & ~(1 << i)) for i in range(52) if mask >> i & 1}
    expected = min(after.values())
    assert best_discard_deadwood_mask(mask) == expected
    options = discard_options(CardSet(mask))
    assert options[0].deadwood == expected
    assert {o.card.index: o.deadwood for o in options} == after


@given(any_hands(11))
def test_big_gin_means_all_eleven_melded(mask: int) -> None:
    assert is_big_gin_mask(mask) == (min_deadwood(mask) == 0)


@given(any_hands(10))
def test_every_optimal_arrangement_found_and_nothing_else(mask: int) -> None:
    best, identities = optimal_arrangements(mask)
    solution = solve(CardSet(mask))
    assert solution.deadwood == best
    found = [canonical([m.mask for m in a.melds]) for a in solution.arrangements]
    assert len(found) == len(set(found)), "an arrangement is listed twice"
    assert set(found) == identities


@given(any_hands(10))
def test_arrangements_are_disjoint_inside_the_hand_and_add_up(mask: int) -> None:
    for arrangement in solve(CardSet(mask)).arrangements:
        used = 0
        for meld in arrangement.melds:
            assert meld.mask in MELD_MASKS
            assert meld.mask & used == 0
            used |= meld.mask
        assert used & arrangement.deadwood_cards.mask == 0
        assert used | arrangement.deadwood_cards.mask == mask
        assert arrangement.deadwood == points(arrangement.deadwood_cards.mask)


def test_touching_runs_are_one_arrangement_not_two() -> None:
    solution = solve(CardSet.parse("3H 4H 5H 6H 7H 8H 2C 2D 2S KC"))
    assert len(solution.arrangements) == 1
    assert [m.text() for m in solution.best.melds] == ["2C 2D 2S", "3H 4H 5H 6H 7H 8H"]


def test_ties_list_every_optimal_arrangement() -> None:
    # 5♥ fits the 5s and the 4-5-6♥ run: two arrangements, both leave 10 (RULES.md §4 E2).
    solution = solve(CardSet.parse("4H 5H 6H 5C 5D 9S TS JS QS KS"))
    assert solution.deadwood == 10
    assert sorted([m.text() for m in a.melds] for a in solution.arrangements) == [
        ["4H 5H 6H", "9S TS JS QS KS"],
        ["5C 5D 5H", "9S TS JS QS KS"],
    ]
    assert sorted(a.deadwood_cards.text() for a in solution.arrangements) == ["4H 6H", "5C 5D"]


def test_four_of_a_kind_may_lend_a_card_to_a_run() -> None:
    solution = solve(CardSet.parse("7C 7D 7H 7S 5H 6H 8H 9H KD QD"))
    assert solution.deadwood == 20
    texts = {tuple(m.text() for m in a.melds) for a in solution.arrangements}
    assert ("7C 7D 7S", "5H 6H 7H 8H 9H") in texts


def test_ace_is_low_only() -> None:
    assert min_deadwood_mask(CardSet.parse("QS KS AS").mask) == 21
    assert min_deadwood_mask(CardSet.parse("KH AH 2H").mask) == 13
    assert min_deadwood_mask(CardSet.parse("AH 2H 3H").mask) == 0


def test_best_discard_respects_the_card_taken_from_the_discard_pile() -> None:
    hand = CardSet.parse("5D 6S 3D 5S 4S 6C 6D 2H 4D 2S 5H")
    six_of_clubs = next(c for c in hand if c.code == "6C")
    options = discard_options(hand, taken_from_discard=six_of_clubs)
    assert six_of_clubs not in [o.card for o in options]
    assert len(options) == 10
    assert options[0].deadwood == 10
    assert [c.code for c in best_discards(options)] == ["5H"]
    forbidden = discard_deadwoods(hand.mask, six_of_clubs.mask)
    assert six_of_clubs.index not in [index for index, _ in forbidden]
    with pytest.raises(IllegalError, match="6C was just taken from the discard pile"):
        verify_discard(hand, six_of_clubs, six_of_clubs)


def _rich_in_sets(rng: random.Random, size: int) -> int:
    """A hand of ``size`` cards, most of them holding a rank three or four times."""
    mask = 0
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
        rank = rng.randrange(13)
        for suit in rng.sample(range(4), rng.choice((3, 3, 4))):
            mask |= 1 << (suit * 13 + rank)
    while mask.bit_count() < size:
        mask |= 1 << rng.randrange(52)
    return mask


def test_discard_deadwoods_agree_with_the_brute_force_card_by_card() -> None:
    """Every discard's deadwood (computed together, sets changing or not) is the brute force's
    least deadwood of the hand without that card, the card just taken excluded."""
    rng = random.Random(11)
    for _ in range(80):
        mask = _rich_in_sets(rng, rng.choice((11, 11, 8, 12)))
        cards = [i for i in range(52) if mask >> i & 1]
        forbidden = 1 << rng.choice(cards) if rng.random() < 0.5 else 0
        expected = tuple((i, min_deadwood(mask ^ 1 << i)) for i in cards if not forbidden >> i & 1)
        assert discard_deadwoods(mask, forbidden) == expected
        assert discard_deadwoods(mask, forbidden) == expected  # memoised: the same again


def test_discard_options_need_eleven_cards() -> None:
    with pytest.raises(CardError, match="11 cards, got 10"):
        discard_options(CardSet.parse("AC 2C 3C 4C 5C 6C 7C 8C 9C TC"))


def test_meld_table_counts() -> None:
    # 13 ranks x (one set of four + four sets of three); 4 suits x (11+10+...+1) runs.
    assert len(MELD_MASKS) == 13 * 5 + 4 * 66
    assert len(set(MELD_MASKS)) == len(MELD_MASKS)
    assert Meld.parse("AC 2C 3C").is_run
    assert Meld.parse("9C 9D 9S").is_set


def test_shipped_tables_equal_the_tables_computed_afresh() -> None:
    from gintutor.engine.solver import tables_source

    shipped = (Path(__file__).parent.parent / "gintutor/engine/tables.py").read_text()
    assert shipped == tables_source()
