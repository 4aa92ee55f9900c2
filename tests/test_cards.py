"""Card notation: forgiving parsing, canonical and display text, clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gintutor.engine.cards import (
    CARDS,
    DECK_MASK,
    DIAMONDS_SHIFT,
    HEARTS_SHIFT,
    RANK_MASKS,
    SPADES_SHIFT,
    SUIT_BITS,
    SUIT_MASK,
    Card,
    CardSet,
    Rank,
    Suit,
    bit_index,
    iter_bits,
    mask_cards,
    mask_points,
    parse_cards,
    parse_hand,
)
from gintutor.errors import CardError, GinError


def test_bit_index_is_suit_times_13_plus_rank_minus_1() -> None:
    assert Card.parse("AC").index == 0
    assert Card.parse("KC").index == 12
    assert Card.parse("AD").index == 13
    assert Card.parse("7H").index == 2 * 13 + 6
    assert Card.parse("KS").index == 51
    assert [card.index for card in CARDS] == list(range(52))


def test_card_values_ace_one_courts_ten() -> None:
    assert [rank.points for rank in Rank] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


@pytest.mark.parametrize(
    "token",
    ["TD", "td", "10D", "10d", "T♦", "10♦", "10♦\ufe0f", "t♢", " 10d "],
)
def test_forgiving_spellings_of_ten_of_diamonds(token: str) -> None:
    assert Card.parse(token) == Card(Rank.TEN, Suit.DIAMONDS)


def test_separators_are_spaces_and_or_commas() -> None:
    assert [c.code for c in parse_cards("7c,7d , 7s\t8H")] == ["7C", "7D", "7S", "8H"]


def test_canonical_and_display_text() -> None:
    card = Card.parse("10♦")
    assert card.code == "TD"
    assert card.display() == "10♦"
    assert card.display(ascii_only=True) == "10D"
    assert str(Card.parse("7c")) == "7C"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1X", "'1X': unknown suit 'X' (use C, D, H, S or ♣ ♦ ♥ ♠)"),
        ("1C", "'1C': unknown rank '1' (use A, 2-9, T or 10, J, Q, K)"),
        ("11H", "'11H': unknown rank '11' (use A, 2-9, T or 10, J, Q, K)"),
        ("7", "'7': a card is a rank and a suit, e.g. 7C or 10♦"),
        ("7C 8C 7c", "7C appears twice"),
    ],
)
def test_bad_input_names_the_token_and_why(text: str, message: str) -> None:
    with pytest.raises(CardError) as error:
        parse_cards(text)
    assert str(error.value) == message
    assert isinstance(error.value, GinError)
    assert isinstance(error.value, ValueError)


def test_wrong_count_for_the_question() -> None:
    with pytest.raises(CardError, match="a hand here has 10 or 11 cards, got 9"):
        parse_hand("AC 2C 3C 4C 5C 6C 7C 8C 9C")
    with pytest.raises(CardError, match="a hand here has 10 cards, got 11"):
        parse_hand("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC", sizes=(10,))


def test_repr_round_trips_through_the_parser() -> None:
    card = Card.parse("QS")
    assert eval(repr(card)) == card
    cards = CardSet.parse("7C 7D 7S 4H")
    assert eval(repr(cards)) == cards


card_masks = st.integers(min_value=0, max_value=(1 << 52) - 1)


@given(card_masks)
def test_format_then_parse_is_identity(mask: int) -> None:
    cards = CardSet(mask)
    assert CardSet.parse(cards.text()) == cards
    assert CardSet.parse(cards.display()) == cards
    assert CardSet.parse(cards.display(ascii_only=True)) == cards
    assert len(cards) == bin(mask).count("1")


@given(card_masks)
def test_card_sets_iterate_in_canonical_order(mask: int) -> None:
    indices = [card.index for card in CardSet(mask)]
    assert indices == sorted(indices)


def test_card_set_rejects_bits_beyond_the_deck() -> None:
    with pytest.raises(CardError):
        CardSet(1 << 52)


def test_named_masks_are_the_suits_and_ranks() -> None:
    shifts = (0, DIAMONDS_SHIFT, HEARTS_SHIFT, SPADES_SHIFT)
    for suit, shift in zip(Suit, shifts, strict=True):
        assert (
            SUIT_MASK << shift
            == CardSet.from_cards(card for card in CARDS if card.suit is suit).mask
        )
    assert SUIT_MASK.bit_count() == SUIT_BITS == len(Rank)
    for rank, mask in zip(Rank, RANK_MASKS, strict=True):
        assert mask == CardSet.from_cards(card for card in CARDS if card.rank is rank).mask
    assert sum(RANK_MASKS) == DECK_MASK


@given(st.integers(0, DECK_MASK))
def test_iter_bits_walks_a_mask_lowest_first(mask: int) -> None:
    bits = list(iter_bits(mask))
    assert all(bit.bit_count() == 1 for bit in bits)
    assert sum(bits) == mask and bits == sorted(bits)
    assert [bit_index(bit) for bit in bits] == [i for i in range(52) if mask >> i & 1]
    assert [card.index for card in mask_cards(mask)] == [bit_index(bit) for bit in bits]
    assert mask_points(mask) == sum(CARDS[bit_index(bit)].points for bit in bits)
