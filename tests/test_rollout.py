"""The verdict layer: seeded, common random numbers, the baseline policy's rules."""

from __future__ import annotations

from gintutor.engine.cards import DECK_MASK, Card, CardSet
from gintutor.engine.evaluate import Position
from gintutor.engine.rollout import (
    Action,
    Candidate,
    _Hand,
    choose_discard,
    choose_spread,
    layoff_exposure,
    takes_discard,
    verdict,
)
from gintutor.engine.rules import preset
from gintutor.engine.showdown import showdown

STANDARD = preset("standard")
KNOCK = Candidate(Action.KNOCK)
PLAY_ON = Candidate(Action.PLAY_ON)


def test_the_same_seed_gives_the_same_verdict() -> None:
    position = Position(CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D 8S 3S"), STANDARD)
    first = verdict(position, (KNOCK, PLAY_ON), worlds=60, seed=9)
    assert verdict(position, (KNOCK, PLAY_ON), worlds=60, seed=9) == first
    assert verdict(position, (KNOCK, PLAY_ON), worlds=60, seed=10) != first


def test_common_random_numbers_make_identical_choices_identical() -> None:
    position = Position(CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D 8S 3S"), STANDARD)
    twin = Candidate(Action.KNOCK, Card.parse("8S"))
    result = verdict(position, (KNOCK, twin), worlds=40, seed=1)
    assert [r.gap for r in result.results] == [0.0, 0.0]
    assert [r.gap_stderr for r in result.results] == [0.0, 0.0]
    assert set(result.best) == {KNOCK, twin}


def test_gin_scores_at_least_the_gin_bonus_in_every_world() -> None:
    position = Position(CardSet.parse("7C 7D 7H 7S 5H 6H 8H AS 2S 3S KD"), STANDARD)
    result = verdict(position, (KNOCK,), worlds=50, seed=2)
    assert result.results[0].mean >= STANDARD.gin_bonus
    assert result.best == (KNOCK,)


def test_a_hand_at_the_void_point_scores_nothing_if_it_plays_on() -> None:
    hand = CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D 8S 3S")
    # 11 in hand + 29 dead + 10 hidden + 2 in the stock = 52.
    position = Position(
        hand,
        STANDARD,
        stock_size=2,
        dead=CardSet.parse(
            "AH 2H 3H 4H 6H 7H 8H 9H TH JH QH KH 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 6D 7D 8D 9S TS"
        ),
    )
    result = verdict(position, (PLAY_ON,), worlds=20, seed=3)
    assert result.results[0].mean == 0.0


def test_baseline_discard_least_deadwood_then_highest_card() -> None:
    hand = CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D KS QH")
    card, deadwood = choose_discard(hand.mask)
    assert (Card.from_index(card.bit_length() - 1).code, deadwood) == ("KS", 10)
    taken = Card.parse("KS").mask
    card, _ = choose_discard(hand.mask, forbidden=taken)
    assert Card.from_index(card.bit_length() - 1).code == "QH"


def test_baseline_takes_a_discard_only_when_it_lowers_deadwood() -> None:
    hand = CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 8S KS").mask
    assert takes_discard(hand, Card.parse("5D").mask)
    assert not takes_discard(hand, Card.parse("KC").mask)


def test_upcard_that_makes_gin_is_taken() -> None:
    hand = CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D KS")
    dead = CardSet.parse("AH 2H")
    position = Position(hand, STANDARD, upcard=Card.parse("QD"), dead=dead, stock_size=29)
    result = verdict(position, (Candidate(Action.TAKE), Candidate(Action.DRAW)), worlds=60)
    assert result.results[0].candidate.action is Action.TAKE
    assert result.results[0].mean >= STANDARD.gin_bonus


def test_the_knocker_spreads_before_seeing_the_defenders_hand() -> None:
    # RULES.md §4 E2: the knocker may spread 4-5-6♥ or 5♥ 5♣ 5♦, both 10 deadwood. Seeing
    # nothing of the defender's hand, the set invites less (only the 5♠ lays off on it; the
    # run takes the 3♥, the 7♥ and what chains on them), so the knocker spreads the set.
    knocker = CardSet.parse("4H 5H 6H 5C 5D 9S TS JS QS KS").mask
    unseen = DECK_MASK & ~knocker
    spread, deadwood = choose_spread(knocker, 10, known=0, unknown=unseen, hidden=10)
    assert deadwood == 10 and CardSet.parse("5H 5C 5D").mask in spread
    # A defender holding the 5♠ lays it off: 68 - 5 = 63 against 10, the knocker wins 53.
    # The old rollout let the knocker see that hand and spread the run instead (58 points).
    defender = CardSet.parse("5S 2C 3C 4D 8D 9C JD KD 7C QC")
    game = _Hand([knocker, defender.mask], [], 0, STANDARD, 10, None)
    assert game.finish(0, knocker) == 53.0
    assert showdown(CardSet(knocker), defender, STANDARD).points == 58


def test_a_card_the_knocker_saw_picked_up_counts_as_held() -> None:
    run = CardSet.parse("5H 6H 7H").mask
    eight = CardSet.parse("8H").mask
    assert layoff_exposure((run,), known=eight, unknown=0, hidden=0) == 8.0
    # Unseen, the 8♥ is laid off with the defender's share of the unseen cards.
    assert layoff_exposure((run,), known=0, unknown=eight, hidden=1) == 8.0
    two_unseen = eight | CardSet.parse("KC").mask
    assert layoff_exposure((run,), known=0, unknown=two_unseen, hidden=1) == 4.0


def test_the_knocker_holds_a_run_end_back_when_its_layoff_is_known() -> None:
    # 4-5-6-7♥ and 9-K♠ with the 5♦: the defender picked up the 3♥ and holds the 2♥ (known),
    # so spreading 5♥ 6♥ 7♥ (deadwood 9) beats 4♥-7♥ (deadwood 5, 5 points laid off).
    knocker = CardSet.parse("4H 5H 6H 7H 9S TS JS QS KS 5D").mask
    known = CardSet.parse("3H 2H").mask
    spread, deadwood = choose_spread(knocker, 10, known=known, unknown=0, hidden=0)
    assert deadwood == 9
    assert CardSet.parse("5H 6H 7H").mask in spread
