"""The hard cases of RULES.md §4, one named test each, with the numbers RULES.md checked."""

from __future__ import annotations

import pytest

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.knocking import KnockReason, knock_verdict, verify_knock
from gintutor.engine.layoffs import best_defence
from gintutor.engine.melds import Meld
from gintutor.engine.rules import preset
from gintutor.engine.scoring import Outcome, Side, score_hand
from gintutor.engine.showdown import showdown
from gintutor.engine.solver import discard_options, min_deadwood_mask, solve
from gintutor.errors import IllegalError, RulesError

STANDARD = preset("standard")
CLASSIC = preset("classic")


def hand(text: str) -> CardSet:
    return CardSet.parse(text)


def melds(text: str) -> list[Meld]:
    return [Meld.parse(part) for part in text.split("|")]


def test_e1_card_in_a_set_and_a_run_goes_to_the_run() -> None:
    solution = solve(hand("7C 7D 7H 5H 6H 8H AS 2S 3S KD"))
    assert solution.deadwood == 24
    assert [m.text() for m in solution.best.melds] == ["5H 6H 7H 8H", "AS 2S 3S"]
    # The tempting set of 7s leaves 29.
    assert min_deadwood_mask(hand("5H 6H 8H KD").mask) == 29


def test_e1_with_the_fourth_seven_is_gin() -> None:
    solution = solve(hand("7C 7D 7H 7S 5H 6H 8H AS 2S 3S"))
    assert solution.deadwood == 0
    assert [m.text() for m in solution.best.melds] == ["7C 7D 7S", "5H 6H 7H 8H", "AS 2S 3S"]


def test_e2_spread_choice_changes_layoffs() -> None:
    knocker = hand("4H 5H 6H 5C 5D 9S TS JS QS KS")
    defender = hand("3H 7H 8H 2C 3C 4D 8D 9C JD KD")
    run_spread = best_defence(defender, melds("4H 5H 6H|9S TS JS QS KS"))
    set_spread = best_defence(defender, melds("5C 5D 5H|9S TS JS QS KS"))
    assert run_spread.laid_off_points == 18
    assert set_spread.laid_off_points == 0
    result = showdown(knocker, defender, STANDARD)
    assert [m.text() for m in result.spread.melds] == ["5C 5D 5H", "9S TS JS QS KS"]
    assert result.spread.deadwood == 10
    assert result.defence.layoffs == ()
    assert result.points == 64 - 10
    # The other spread is still reported, with what it would have let the defender lay off.
    other = [o for o in result.outcomes if o.spread.melds[0].text() == "4H 5H 6H"]
    assert other and other[0].defence.laid_off_points == 18


def test_e3_chaining_lays_off_both_ends() -> None:
    defence = best_defence(hand("4H 8H 9H 2C 5D 9S JC QD KS KD"), melds("5H 6H 7H"))
    assert sorted(layoff.card.code for layoff in defence.layoffs) == ["4H", "8H", "9H"]
    assert defence.laid_off_points == 21
    ups = [layoff.card.code for layoff in defence.layoffs if layoff.card.code != "4H"]
    assert ups == ["8H", "9H"], "a chain is laid off in order"


def test_e4_four_card_set_accepts_nothing_three_card_set_one() -> None:
    defender = hand("7S 2C 3D 9S JC QD KS KD 4C 5D")
    three = best_defence(defender, melds("7C 7D 7H"))
    assert [layoff.card.code for layoff in three.layoffs] == ["7S"]
    assert three.layoffs[0].onto == Meld.parse("7C 7D 7H")
    four = best_defence(hand("6H 8H 2C 3D 9S JC QD KS KD 4C"), melds("7C 7D 7H 7S"))
    assert four.layoffs == ()
    assert four.deadwood == hand("6H 8H 2C 3D 9S JC QD KS KD 4C").points


def test_e5_joint_defence_melds_sevens_then_lays_off() -> None:
    defender = hand("7H 8H 9H 7C 7D 5C 8S 9D KH 2D")
    defence = best_defence(defender, melds("TH JH QH|KC KD KS|2C 3C 4C"))
    assert defence.deadwood == 19
    assert [m.text() for m in defence.melds] == ["7C 7D 7H"]
    assert sorted(layoff.card.code for layoff in defence.layoffs) == ["5C", "8H", "9H", "KH"]
    assert defence.deadwood_cards.text() == "2D 9D 8S"


def test_e6_tie_is_an_undercut() -> None:
    score = score_hand(7, 7, STANDARD)
    assert score.outcome is Outcome.UNDERCUT
    assert score.winner is Side.DEFENDER
    assert score.points == 0 + 25


def test_e7_zero_deadwood_knock_is_gin_no_layoffs_no_undercut() -> None:
    knocker = hand("7C 7D 7H 7S 5H 6H 8H AS 2S 3S")
    defender = hand("4H 9H 8C 8D 8S 4S 5S TC JC QC")  # 0 deadwood, and could lay off 4H/9H/4S
    result = showdown(knocker, defender, STANDARD)
    assert result.outcome is Outcome.GIN
    assert result.winner is Side.KNOCKER
    assert result.defence.layoffs == ()
    assert result.points == 25 + result.defence.deadwood


def test_e8_big_gin_under_standard() -> None:
    knocker = hand("AS 2S 3S 4S 5S 7C 7D 7H JD QD KD")
    defender = hand("2C 3D 9S JC QC KS KH 4C 5D 6H")
    result = showdown(knocker, defender, STANDARD)
    assert result.outcome is Outcome.BIG_GIN
    assert result.discard is None
    assert result.points == 31 + result.defence.deadwood
    assert knock_verdict(knocker, STANDARD).reason is KnockReason.BIG_GIN


def test_e8_classic_does_not_recognise_big_gin_discard_and_go_gin() -> None:
    knocker = hand("AS 2S 3S 4S 5S 7C 7D 7H JD QD KD")
    verdict = knock_verdict(knocker, CLASSIC)
    assert not verdict.big_gin and verdict.gin
    assert sorted(card.code for card in verdict.best_discards) == ["5S", "AS"]
    result = showdown(knocker, hand("2C 3D 9S JC QC KS KH 4C 5D 6H"), CLASSIC)
    assert result.outcome is Outcome.GIN
    assert result.discard is not None and result.discard.code in ("AS", "5S")
    assert result.points == 20 + result.defence.deadwood


def test_e10_eleven_cards_judged_by_best_legal_discard() -> None:
    eleven = hand("2C 3C 4C 9D TD JD 5H 5S 5D KS QH")
    verdict = knock_verdict(eleven, STANDARD)
    assert verdict.deadwood == 10 and verdict.can_knock, "exactly 10 may knock"
    queen = Card.parse("QH")
    taken = knock_verdict(eleven, STANDARD, taken_from_discard=queen)
    assert queen not in [o.card for o in taken.discards]
    assert taken.deadwood == 10
    king = Card.parse("KS")
    verdict_k = knock_verdict(eleven, STANDARD, taken_from_discard=king)
    assert verdict_k.deadwood == 10


def test_e10_the_card_just_taken_may_not_be_discarded_even_if_best() -> None:
    eleven = hand("2C 3C 4C 9D TD JD 5H 5S 5D 8S KS")
    assert knock_verdict(eleven, STANDARD).deadwood == 8
    verdict = knock_verdict(eleven, STANDARD, taken_from_discard=Card.parse("KS"))
    assert verdict.deadwood == 10
    assert [card.code for card in verdict.best_discards] == ["8S"]


def test_e10_eleven_deadwood_cannot_knock_ten_can() -> None:
    with pytest.raises(IllegalError, match="11 deadwood is above the knock limit of 10"):
        verify_knock(hand("2C 3C 4C 9D TD JD QD 2S 4H 5S"), STANDARD)
    assert verify_knock(hand("2C 3C 4C 9D TD JD QD 2S 3H 5S"), STANDARD).deadwood == 10


def test_e11_oklahoma_upcard_sets_the_knock_limit() -> None:
    oklahoma = preset("oklahoma")
    three = hand("2C 3C 4C 9D TD JD 5H 5S 5D 3S")
    assert knock_verdict(three, oklahoma, upcard=Card.parse("3D")).can_knock
    four = hand("2C 3C 4C 9D TD JD 5H 5S 5D 4S")
    verdict = knock_verdict(four, oklahoma, upcard=Card.parse("3D"))
    assert not verdict.can_knock and verdict.knock_limit == 3


def test_e11_oklahoma_ace_upcard_is_gin_only() -> None:
    oklahoma = preset("oklahoma")
    verdict = knock_verdict(hand("2C 3C 4C 9D TD JD 5H 5S 5D AS"), oklahoma, Card.parse("AH"))
    assert verdict.knock_limit == 0
    assert not verdict.can_knock and verdict.reason is KnockReason.GIN_ONLY


def test_e11_oklahoma_spade_upcard_doubles_every_score() -> None:
    oklahoma = preset("oklahoma")
    knocker = hand("7C 7D 7H 7S 5H 6H 8H AS 2S 3S")
    defender = hand("2C 3D 4H JC QD KD 9C 4D 6D 5C")
    result = showdown(knocker, defender, oklahoma, upcard=Card.parse("6S"))
    assert result.knock_limit == 6 and result.multiplier == 2
    assert result.points == (25 + result.defence.deadwood) * 2
    assert score_hand(0, 20, oklahoma, multiplier=2).points == 90


def test_e11_oklahoma_needs_the_upcard() -> None:
    with pytest.raises(RulesError, match="give the upcard"):
        knock_verdict(hand("2C 3C 4C 9D TD JD 5H 5S 5D AS"), preset("oklahoma"))


def test_openspiel_estimate_is_wrong_we_minimise_over_discards() -> None:
    options = discard_options(hand("5D 6S 3D 5S 4S 6C 6D 2H 4D 2S 5H"))
    assert options[0].deadwood == 9
    assert [o.card.code for o in options if o.deadwood == 9] == ["6C"]
