"""The engine's records carry their reasons (issue 8), checked against the brute force of
``test_showdown_brute``: which layoff a layoff chains after, the least-deadwood spreads a
showdown turns down and why (issue 12), the knock verdict of every discard, and why an analysis
with an opponent has no showdown.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, note, settings
from test_showdown_brute import (
    BC,
    COMMON,
    KNOCK_LIMIT,
    Hand,
    accepts,
    bc,
    bf_defence,
    bf_min_deadwood,
    bf_score,
    bf_spreads,
    code,
    eleven_cases,
    from_cardset,
    hand_of,
    knock_cases,
    layoff_cases,
    text,
    to_cardset,
    to_meld,
)

from gintutor.engine.analysis import analyze
from gintutor.engine.cards import Card, CardSet
from gintutor.engine.knocking import KnockReason, knock_verdict
from gintutor.engine.layoffs import Defence, best_defence
from gintutor.engine.rules import preset
from gintutor.engine.scoring import Outcome
from gintutor.engine.showdown import RejectReason, Showdown, showdown

STANDARD = preset("standard")

Identity = tuple[BC | None, frozenset[Hand], frozenset[BC]]
"""A spread as the brute force names it: the discard, its sets, and the cards in its runs
(touching runs are one run)."""


def identity(discard: BC | None, melds: Sequence[Hand]) -> Identity:
    sets = frozenset(m for m in melds if len({rank for rank, _ in m}) == 1)
    runs: frozenset[BC] = frozenset().union(*(m for m in melds if m not in sets))
    return discard, sets, runs


# --------------------------------------------------------------------------- layoff chaining


def check_chaining(defence: Defence, spread: Sequence[Hand]) -> None:
    """``after`` is None exactly when the card fits the meld as spread; otherwise it names an
    earlier layoff onto the same meld that the card touches."""
    laid: dict[Card, Hand] = {}
    for layoff in defence.layoffs:
        onto = from_cardset(layoff.onto)
        assert onto in spread
        card = bc(layoff.card)
        assert (layoff.after is None) == accepts(onto, card), code(card)
        assert layoff.chained == (layoff.after is not None)
        if layoff.after is not None:
            assert laid.get(layoff.after) == onto, "chained after a card not laid off before"
            after = bc(layoff.after)
            assert after[1] == card[1] and abs(after[0] - card[0]) == 1
        laid[layoff.card] = onto


def test_e3_chaining_names_the_card_before() -> None:
    defence = best_defence(
        CardSet.parse("4H 8H 9H KS KD 2C 3D 9S JC QD"), [to_meld(hand_of("5H 6H 7H"))]
    )
    chain = [(lay.card.code, lay.after.code if lay.after else None) for lay in defence.layoffs]
    assert chain == [("4H", None), ("8H", None), ("9H", "8H")]


# Each property runs on a small sample in the developer loop and on a large one with
# --run-slow (CI).


def chaining_case(case: tuple[list[Hand], Hand]) -> None:
    spread, defender = case
    note(f"spread: {' | '.join(text(m) for m in spread)}; defender: {text(defender)}")
    defence = best_defence(to_cardset(defender), [to_meld(m) for m in spread])
    check_chaining(defence, spread)


@settings(COMMON, max_examples=40)
@given(layoff_cases())
def test_layoff_chaining_matches_the_rules(case: tuple[list[Hand], Hand]) -> None:
    chaining_case(case)


@pytest.mark.slow
@settings(COMMON, max_examples=1000)
@given(layoff_cases())
def test_layoff_chaining_matches_the_rules_many(case: tuple[list[Hand], Hand]) -> None:
    chaining_case(case)


# --------------------------------------------------------------------------- rejected spreads


Expected = dict[Identity, tuple[int, Outcome, int]]
"""Brute force: each least-deadwood spread that scores less than the best, with its net for
the knocker, its outcome and the defender's deadwood against it."""


def bf_rejected(
    knocker: Hand, defender: Hand, rules: str, taken: BC | None = None
) -> tuple[Expected, int, int, Outcome]:
    """``(rejected, least deadwood, best net, best outcome)`` by the brute force."""
    hands: list[tuple[BC | None, Hand]] = (
        [(None, knocker)]
        if len(knocker) == 10
        else [(card, knocker - {card}) for card in knocker if card != taken]
    )
    options: list[tuple[Identity, int, int, Outcome, int]] = []
    for discard, hand in hands:
        for melds, dead in bf_spreads(hand, KNOCK_LIMIT):
            alone = bf_min_deadwood(defender)
            defended = alone if dead == 0 else bf_defence(defender, melds)
            net, outcome = bf_score(dead, defended, rules)
            options.append((identity(discard, melds), dead, net, outcome, defended))
    if rules == "standard" and len(knocker) == 11 and bf_min_deadwood(knocker) == 0:
        # Big gin (31 + the defender's deadwood) beats every spread after a discard.
        return {}, 0, 31 + bf_min_deadwood(defender), Outcome.BIG_GIN
    least = min(o[1] for o in options)
    # Equal nets have the same sign, so either outcome tells knock from undercut.
    best_net, best_outcome = max(((o[2], o[3]) for o in options), key=lambda x: x[0])
    expected: Expected = {}
    for ident, dead, net, outcome, defended in options:
        if dead == least and net < best_net:
            assert expected.get(ident, (net, outcome, defended)) == (net, outcome, defended)
            expected[ident] = (net, outcome, defended)
    return expected, least, best_net, best_outcome


def check_rejected(
    result: Showdown, knocker: Hand, defender: Hand, rules: str, taken: BC | None = None
) -> None:
    expected, least, best_net, best_outcome = bf_rejected(knocker, defender, rules, taken)
    chosen = result.chosen
    assert chosen.score.knocker_net == best_net
    if best_outcome is not Outcome.BIG_GIN:
        assert result.least_deadwood == least
    got = {
        identity(
            None if r.discard is None else bc(r.discard), [from_cardset(m) for m in r.spread.melds]
        ): r
        for r in result.rejected
    }
    assert len(got) == len(result.rejected), "a spread rejected twice"
    assert set(got) == set(expected)
    chosen_dead = from_cardset(chosen.spread.deadwood_cards)
    for ident, rejected in got.items():
        net, outcome, defended = expected[ident]
        assert rejected.score.knocker_net == net
        assert rejected.score.outcome is outcome
        assert rejected.defence.deadwood == defended
        assert rejected.points_lost == best_net - net > 0
        assert rejected.spread.deadwood == least
        assert rejected.extra_deadwood == chosen.spread.deadwood - least
        melded = frozenset().union(*ident[1], ident[2])
        assert from_cardset(rejected.held_back) == chosen_dead & melded
        undercut = outcome is Outcome.UNDERCUT and best_outcome is not Outcome.UNDERCUT
        assert rejected.reason is (RejectReason.UNDERCUT if undercut else RejectReason.LAYOFFS)
        # The defender keeps less deadwood against it than against the spread chosen.
        assert defended < chosen.defence.deadwood
        if rejected.spread.deadwood:
            check_chaining(rejected.defence, [from_cardset(m) for m in rejected.spread.melds])
    # In the order an analysis lists them: discard by card order, then the arrangement.
    keys = [
        (-1 if r.discard is None else r.discard.index, r.spread.sort_key()) for r in result.rejected
    ]
    assert keys == sorted(keys)


@pytest.mark.parametrize(
    ("knocker", "defender", "chosen", "rejected", "held_back"),
    [
        # Issue 12: 4♥ held back blocks 3♥ then 2♥: 51, against 50 with the least deadwood.
        ("4H 5H 6H 7H 9S TS JS QS KS 5D", "3H 2H 9H 2C 3C 4D 8D 9C JD KD", 51, 50, "4H"),
        # Issue 12: 5♥ held back blocks 6♥ 7♥: 82 against 74.
        ("2H 3H 4H 5H 9C 9D 9S AC AD 2S", "6H 7H KC KD QC QS JD JH TC 8S", 82, 74, "5H"),
        # RULES.md §4 E2: the same 10 deadwood either way; the run lets 18 points be laid off.
        ("4H 5H 6H 5C 5D 9S TS JS QS KS", "3H 7H 8H 2C 3C 4D 8D 9C JD KD", 54, 36, "4H 6H"),
    ],
)
def test_showdown_says_which_least_deadwood_spread_it_rejects(
    knocker: str, defender: str, chosen: int, rejected: int, held_back: str
) -> None:
    result = showdown(CardSet.parse(knocker), CardSet.parse(defender), STANDARD)
    assert result.points == chosen
    [turned_down] = result.rejected
    assert turned_down.score.knocker_net == rejected
    assert turned_down.points_lost == chosen - rejected
    assert turned_down.held_back == CardSet.parse(held_back)
    assert turned_down.reason is RejectReason.LAYOFFS
    check_rejected(result, hand_of(knocker), hand_of(defender), "standard")


def test_holding_back_can_avoid_an_undercut() -> None:
    knocker, defender = "4H 5H 6H 7H 9S TS JS QS KS 5D", "3H 2H 5C 8D 9D TD JD QC QD QH"
    result = showdown(CardSet.parse(knocker), CardSet.parse(defender), STANDARD)
    assert (result.outcome, result.points, result.spread.deadwood) == (Outcome.KNOCK, 1, 9)
    [turned_down] = result.rejected
    # 5 against 5 after 3♥ and 2♥ are laid off: a tie is an undercut (0 + 25).
    assert turned_down.reason is RejectReason.UNDERCUT
    assert (turned_down.score.outcome, turned_down.score.points) == (Outcome.UNDERCUT, 25)
    assert turned_down.points_lost == 26
    check_rejected(result, hand_of(knocker), hand_of(defender), "standard")


def test_eleven_cards_rejects_the_best_discard_when_it_feeds_layoffs() -> None:
    knocker, defender = "2C 8C 9C TC JC QC 2D 3D 5D AS 2S", "6C 7C KC 6D 9D 7H 8H 9H JH QH"
    verdict = knock_verdict(CardSet.parse(knocker), STANDARD)
    assert [card.code for card in verdict.best_discards] == ["5D"]
    result = showdown(CardSet.parse(knocker), CardSet.parse(defender), STANDARD)
    assert result.discard == Card.parse("8C")
    [turned_down] = result.rejected
    assert turned_down.discard == Card.parse("5D")
    assert (result.points, turned_down.score.points) == (39, 31)
    assert turned_down.laid_off == CardSet.parse("6C 7C KC")
    check_rejected(result, hand_of(knocker), hand_of(defender), "standard")


def test_nothing_rejected_when_the_least_deadwood_spread_is_best() -> None:
    # RULES.md §4 E5: the one least-deadwood spread is the knocker's best.
    result = showdown(
        CardSet.parse("TH JH QH KC KD KS 2C 3C 4C AS"),
        CardSet.parse("7H 8H 9H 7C 7D 5C 8S 9D KH 2D"),
        STANDARD,
    )
    assert result.rejected == ()
    assert result.least_deadwood == result.spread.deadwood == 1


def rejected_case(rules: str, case: tuple[Hand, Hand]) -> None:
    knocker, defender = case
    if bf_min_deadwood(knocker) > KNOCK_LIMIT:
        return
    note(f"knocker: {text(knocker)}; defender: {text(defender)}; rules: {rules}")
    result = showdown(to_cardset(knocker), to_cardset(defender), preset(rules))
    check_rejected(result, knocker, defender, rules)


@pytest.mark.parametrize("rules", ["standard", "classic"])
@settings(COMMON, max_examples=25)
@given(knock_cases())
def test_rejected_spreads_match_brute_force(rules: str, case: tuple[Hand, Hand]) -> None:
    rejected_case(rules, case)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "classic"])
@settings(COMMON, max_examples=500)
@given(knock_cases())
def test_rejected_spreads_match_brute_force_many(rules: str, case: tuple[Hand, Hand]) -> None:
    rejected_case(rules, case)


@settings(COMMON, max_examples=15)
@given(eleven_cases())
def test_eleven_card_rejected_spreads_match_brute_force(
    case: tuple[Hand, Hand, BC | None],
) -> None:
    eleven_rejected_case(case)


@pytest.mark.slow
@settings(COMMON, max_examples=300)
@given(eleven_cases())
def test_eleven_card_rejected_spreads_match_brute_force_many(
    case: tuple[Hand, Hand, BC | None],
) -> None:
    eleven_rejected_case(case)


def eleven_rejected_case(case: tuple[Hand, Hand, BC | None]) -> None:
    knocker, defender, taken = case
    note(f"knocker: {text(knocker)}; defender: {text(defender)}; taken: {taken}")
    taken_card = None if taken is None else Card.parse(code(taken))
    if not knock_verdict(to_cardset(knocker), STANDARD, taken_from_discard=taken_card).can_knock:
        return
    result = showdown(
        to_cardset(knocker), to_cardset(defender), STANDARD, taken_from_discard=taken_card
    )
    check_rejected(result, knocker, defender, "standard", taken)


# --------------------------------------------------------------------------- discard verdicts


@settings(COMMON, max_examples=20)
@given(eleven_cases())
def test_every_discard_carries_its_knock_verdict(case: tuple[Hand, Hand, BC | None]) -> None:
    discard_verdict_case(case)


@pytest.mark.slow
@settings(COMMON, max_examples=300)
@given(eleven_cases())
def test_every_discard_carries_its_knock_verdict_many(
    case: tuple[Hand, Hand, BC | None],
) -> None:
    discard_verdict_case(case)


def discard_verdict_case(case: tuple[Hand, Hand, BC | None]) -> None:
    knocker, _, taken = case
    for rules, upcard in (
        (preset("standard"), None),
        (preset("straight"), None),
        (preset("oklahoma"), Card.parse("4D")),
    ):
        taken_card = None if taken is None else Card.parse(code(taken))
        verdict = knock_verdict(to_cardset(knocker), rules, upcard, taken_card)
        limit = 4 if upcard else rules.knock_limit
        assert {bc(o.card) for o in verdict.discards} == knocker - ({taken} if taken else set())
        for option in verdict.discards:
            deadwood = bf_min_deadwood(knocker - {bc(option.card)})
            assert option.deadwood == deadwood
            assert option.knock_limit == limit
            assert option.can_knock == (deadwood <= limit)
            assert option.gin == (deadwood == 0)
            assert option.points_to_shed == max(0, deadwood - limit)
            expected = (
                KnockReason.GIN
                if deadwood == 0
                else KnockReason.GIN_ONLY
                if limit == 0
                else KnockReason.WITHIN_LIMIT
                if deadwood <= limit
                else KnockReason.OVER_LIMIT
            )
            assert option.reason is expected


# --------------------------------------------------------------------------- no showdown


@pytest.mark.parametrize(
    ("hand", "opponent", "rules", "reason"),
    [
        (
            "7C 7D 7S 4H 5H 6H TD JD 2D KC",
            "AC 2C 3D 4D 5D 6D 8D 9D KD QH",
            "standard",
            KnockReason.OVER_LIMIT,
        ),
        (
            "2C 3C 4C 9D TD JD QD 2S 4H 5S",
            "AH 2H 3H 8C 8D 8S KH JH 7S 6S",
            "standard",
            KnockReason.OVER_LIMIT,
        ),
        (
            "7C 7D 7S 4H 5H 6H TD JD QD KC",
            "AC 2C 3D 4D 5D 6D 8D 9D KD QH",
            "straight",
            KnockReason.GIN_ONLY,
        ),
    ],
)
def test_analysis_with_an_opponent_says_why_there_is_no_showdown(
    hand: str, opponent: str, rules: str, reason: KnockReason
) -> None:
    defender = CardSet.parse(opponent)
    result = analyze(CardSet.parse(hand), preset(rules), opponent=defender)
    assert result.showdown is None
    assert result.opponent == defender
    assert result.no_showdown is reason
    assert not result.verdict.can_knock


def test_analysis_without_opponent_or_with_a_knock_has_no_no_showdown() -> None:
    hand = CardSet.parse("7C 7D 7S 4H 5H 6H TD JD QD KC")
    assert analyze(hand, STANDARD).no_showdown is None
    knock = analyze(hand, STANDARD, opponent=CardSet.parse("AC 2C 3D 4D 5D 6D 8D 9D KD QH"))
    assert knock.showdown is not None and knock.no_showdown is None
