"""The discard evaluator: hand-computable positions and brute-force enumeration of the model."""

from __future__ import annotations

import functools
import itertools

import pytest
from brute import melds_in
from brute import min_deadwood as brute_min_deadwood
from hypothesis import given, settings
from hypothesis import strategies as st

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.evaluate import OutKind, Position, evaluate, p_opponent_melds, verify_position
from gintutor.engine.rules import preset
from gintutor.errors import CardError

STANDARD = preset("standard")
min_deadwood = functools.cache(brute_min_deadwood)


def cards(text: str) -> CardSet:
    return CardSet.parse(text)


def test_unseen_cards_and_the_count_check() -> None:
    position = Position(
        cards("2C 3C 4C 9D TD JD 5H 5S 8D 8S KS"),
        STANDARD,
        dead=cards("5C 7D QH"),
        opponent_known=cards("6S 7S"),
        stock_size=28,
    )
    assert len(position.unseen) == 52 - 11 - 3 - 2
    assert position.hidden_count == 8
    verify_position(position)
    with pytest.raises(CardError, match="do not add up to 52"):
        verify_position(Position(position.hand, STANDARD, stock_size=20))
    with pytest.raises(CardError, match="5C appears twice"):
        verify_position(
            Position(position.hand, STANDARD, dead=cards("5C"), opponent_known=cards("5C"))
        )
    with pytest.raises(CardError, match="KC was taken from the discard pile but is not in"):
        verify_position(Position(position.hand, STANDARD, took_from_discard=Card.parse("KC")))


def test_a_hand_computable_position() -> None:
    # After throwing K♠ the hand waits on 5♦ (set of fives, and 8♦ then joins 9-J♦: gin),
    # A♣ (A-4♣), 8♣/8♥ (set of eights), Q♦ (run up): all other unseen cards do nothing.
    position = Position(
        cards("2C 3C 4C 9D TD JD 5H 5S 8D 8S KS"),
        STANDARD,
        dead=cards("5C 7D QH"),
        opponent_known=cards("6S 7S"),
        stock_size=28,
    )
    option = evaluate(position).option(Card.parse("KS"))
    assert option.deadwood == 5 + 5 + 8 + 8 - 8  # 8♦ runs with 9-J♦
    assert sorted(c.code for c in option.knock_outs) == ["5D", "8C", "8H", "AC", "QD"]
    assert [c.code for c in option.gin_outs] == ["5D"]
    by_card = {out.card.code: out for out in option.outs}
    assert by_card["5D"].kind is OutKind.GIN and by_card["5D"].meld.text() == "5D 5H 5S"
    assert by_card["AC"].extends and by_card["AC"].meld.text() == "AC 2C 3C 4C"
    assert by_card["QD"].extends
    assert not by_card["8C"].extends and by_card["8C"].then_discard.code == "5S"
    assert option.p_knock_next == pytest.approx(5 / 36)
    # 6♠ 7♠ known: 8♠ would complete their run; 5♠ would too.
    evaluation = evaluate(position)
    assert evaluation.option(Card.parse("8S")).p_opponent_melds == 1.0
    assert evaluation.option(Card.parse("5S")).p_opponent_melds == 1.0


def brute_p_melds(card: Card, position: Position, my_hand: int) -> float:
    """Enumerate every hidden hand of the opponent."""
    unseen = [c.mask for c in position.unseen]
    hits = total = 0
    for hidden in itertools.combinations(unseen, position.hidden_count):
        opponent = position.opponent_known.mask | sum(hidden)
        total += 1
        hits += any(m & card.mask for m in melds_in(opponent | card.mask))
    return hits / total


def brute_after_draw(hand10: int, drawn: int) -> int:
    eleven = hand10 | drawn
    return min(min_deadwood(eleven & ~(1 << i)) for i in range(52) if eleven >> i & 1)


def brute_two_draws(hand10: int, unseen: list[int], limit: int) -> float:
    """Every ordered pair of draws, the stated policy written out plainly."""
    total = 0.0
    for first in unseen:
        eleven = hand10 | first
        options = {}
        for i in range(52):
            if eleven >> i & 1:
                options[1 << i] = min_deadwood(eleven & ~(1 << i))
        least = min(options.values())
        if least <= limit:
            total += 1
            continue
        rest = [c for c in unseen if c != first]
        chances = []
        for throw, value in options.items():
            if value != least:
                continue
            kept = eleven & ~throw
            chances.append(sum(brute_after_draw(kept, c) <= limit for c in rest) / len(rest))
        total += max(chances)
    return total / len(unseen)


@st.composite
def small_positions(draw: st.DrawFn) -> Position:
    """Dense deals where most cards are dead, so the model can be enumerated."""
    rng = draw(st.randoms(use_true_random=False))
    low = rng.randrange(0, 8)
    near = [s * 13 + r for s in range(4) for r in range(low, low + 6)]
    hand = rng.sample(near, 11)
    rest = [i for i in range(52) if i not in hand]
    rng.shuffle(rest)
    known = rest[: rng.randrange(0, 3)]
    hidden = 10 - len(known)
    stock = rng.randrange(1, 3)
    # rest[len(known): len(known) + hidden + stock] stays unseen: the hidden cards and stock.
    dead = rest[len(known) + hidden + stock :]
    return Position(
        CardSet(sum(1 << i for i in hand)),
        STANDARD,
        dead=CardSet(sum(1 << i for i in dead)),
        opponent_known=CardSet(sum(1 << i for i in known)),
        stock_size=stock,
    )


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(small_positions())
def test_evaluator_equals_enumeration_of_the_model(position: Position) -> None:
    verify_position(position)
    evaluation = evaluate(position)
    unseen = [c.mask for c in position.unseen]
    limit = position.knock_limit
    for option in evaluation.options:
        hand10 = position.hand.mask & ~option.card.mask
        assert option.deadwood == min_deadwood(hand10)
        draws = [brute_after_draw(hand10, c) for c in unseen]
        assert option.expected_deadwood_next == pytest.approx(sum(draws) / len(draws))
        assert option.p_knock_next == pytest.approx(sum(d <= limit for d in draws) / len(draws))
        assert {c.code for c in option.knock_outs} == {
            Card.from_index(c.bit_length() - 1).code
            for c, d in zip(unseen, draws, strict=True)
            if d <= limit and d < option.deadwood
        }
        assert option.p_opponent_melds == pytest.approx(
            brute_p_melds(option.card, position, hand10)
        )
        for out in option.outs:
            assert out.deadwood < option.deadwood and out.meld.mask & out.card.mask
    worst = max(evaluation.options, key=lambda o: o.deadwood)
    hand10 = position.hand.mask & ~worst.card.mask
    assert worst.p_knock_within_2 == pytest.approx(brute_two_draws(hand10, unseen, limit))


def test_p_opponent_melds_counts_known_and_blocked_cards() -> None:
    hand = cards("2C 3C 4C 9D TD JD 5H 5S 8D 8S KS")
    position = Position(
        hand, STANDARD, opponent_known=cards("KC KD"), stock_size=31, dead=CardSet(0)
    )
    king = Card.parse("KS")
    assert p_opponent_melds(king, position, hand.mask & ~king.mask) == 1.0
    # Every card that could meld with 9♠ is mine or dead: it is safe.
    nine = Position(cards("7S 8S TS JS 9C 9D 9H 2C 3D 4H 9S"), STANDARD)
    card = Card.parse("9S")
    assert p_opponent_melds(card, nine, nine.hand.mask & ~card.mask) == 0.0
