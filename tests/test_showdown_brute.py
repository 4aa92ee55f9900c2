"""An independent brute force of the showdown, checked against the engine (RULES.md §1, §4).

Nothing here uses the engine's solver, layoff or packing helpers: the brute force is written from
the rules text alone, over its own card representation (``(rank, suit)`` pairs, rank 1 = ace ...
13 = king, suit 0..3 in the order C D H S). The engine is only called through
``best_defence`` and ``showdown``, and ``CardSet`` / ``Meld`` / ``preset`` carry hands, melds and
rule sets in and out.

* Defender: every sequence of single layoffs onto the (growing) knocker melds is explored with
  memoisation on the state; at every state the cards left are melded by a brute force over all
  melds. The least deadwood reached must equal ``best_defence(...).deadwood``.
* Knocker: every collection of disjoint melds whose leftover deadwood is within the knock limit
  is a legal spread; each is scored against the defender's best defence and the knocker takes the
  best. ``showdown`` must agree on the net points, outcome, winner and (tie-break) the smallest
  knocker deadwood among the best spreads.
* 11 cards: the best over every legal discard (never the card taken from the discard pile), and
  big gin where the rules recognise it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.layoffs import Defence, best_defence
from gintutor.engine.melds import Meld
from gintutor.engine.rules import preset
from gintutor.engine.scoring import Outcome, Side
from gintutor.engine.showdown import Showdown, showdown
from gintutor.errors import IllegalError

BC = tuple[int, int]
"""A brute-force card: ``(rank 1..13, suit 0..3)``."""
Hand = frozenset[BC]
Pick = Callable[[int, int], int]
"""``pick(lo, hi)``: an integer in ``lo..hi`` inclusive (Hypothesis draw or ``Random.randint``)."""
T = TypeVar("T", int, BC)

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
DECK: tuple[BC, ...] = tuple((rank, suit) for suit in range(4) for rank in range(1, 14))
KNOCK_LIMIT = 10

# RULES.md §2, written out again here so the scoring below does not lean on the engine's presets.
BONUSES: dict[str, dict[str, int]] = {
    "standard": {"gin": 25, "big_gin": 31, "undercut": 25},
    "classic": {"gin": 20, "big_gin": 0, "undercut": 10},
}

COMMON = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# --------------------------------------------------------------------------- cards in and out


def code(card: BC) -> str:
    return RANK_CHARS[card[0] - 1] + SUIT_CHARS[card[1]]


def text(cards: Iterable[BC]) -> str:
    return " ".join(code(c) for c in sorted(cards, key=lambda c: (c[1], c[0])))


def hand_of(codes: str) -> Hand:
    return frozenset(bc(card) for card in CardSet.parse(codes))


def bc(card: Card) -> BC:
    return (card.rank.number, card.suit.index)


def to_cardset(cards: Iterable[BC]) -> CardSet:
    return CardSet.parse(" ".join(code(c) for c in cards))


def to_meld(cards: Iterable[BC]) -> Meld:
    return Meld.parse(" ".join(code(c) for c in cards))


def from_cardset(cards: Iterable[Card]) -> Hand:
    return frozenset(bc(card) for card in cards)


def value(card: BC) -> int:
    """Card value: ace 1, two to ten face value, J Q K 10."""
    return min(card[0], 10)


def points(cards: Iterable[BC]) -> int:
    return sum(value(c) for c in cards)


# --------------------------------------------------------------------------- melds from the rules


def is_set(cards: Hand) -> bool:
    return len(cards) in (3, 4) and len({rank for rank, _ in cards}) == 1


def is_run(cards: Hand) -> bool:
    if len(cards) < 3 or len({suit for _, suit in cards}) != 1:
        return False
    ranks = sorted(rank for rank, _ in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(cards: Hand) -> bool:
    return is_set(cards) or is_run(cards)


def melds_in(hand: Hand) -> list[Hand]:
    """Every meld made of cards of ``hand``: sets of 3 or 4 of a rank, runs 3+ of a suit."""
    found: list[Hand] = []
    for rank in range(1, 14):
        same = [c for c in hand if c[0] == rank]
        for size in (3, 4):
            found.extend(frozenset(combo) for combo in combinations(same, size))
    for suit in range(4):
        ranks = {rank for rank, s in hand if s == suit}
        for low in range(1, 12):
            for high in range(low + 2, 14):
                if not all(r in ranks for r in range(low, high + 1)):
                    break
                found.append(frozenset((r, suit) for r in range(low, high + 1)))
    return found


@lru_cache(maxsize=1 << 17)
def bf_min_deadwood(hand: Hand) -> int:
    """Least deadwood of ``hand``: leave everything, or meld any meld and recurse."""
    best = points(hand)
    for meld in melds_in(hand):
        best = min(best, bf_min_deadwood(hand - meld))
    return best


def accepts(meld: Hand, card: BC) -> bool:
    """Whether ``card`` may be laid off onto ``meld`` (which may already have grown)."""
    if card in meld:
        return False
    if is_set(meld):
        # The missing fourth card of a 3-card set; a 4-card set takes nothing.
        return len(meld) == 3 and card[0] == next(iter(meld))[0]
    assert is_run(meld)
    suit = next(iter(meld))[1]
    ranks = [rank for rank, _ in meld]
    # One below the lowest or one above the highest; ace is low only (no K-A, no wrap).
    return card[1] == suit and card[0] in (min(ranks) - 1, max(ranks) + 1) and 1 <= card[0] <= 13


def bf_defence(defender: Hand, spread: Sequence[Hand]) -> int:
    """The defender's least deadwood choosing own melds and layoffs (with chaining) together."""
    return _bf_defence(defender, tuple(sorted(spread, key=sorted)))


@lru_cache(maxsize=1 << 14)
def _bf_defence(defender: Hand, spread: tuple[Hand, ...]) -> int:
    @cache
    def explore(rest: Hand, melds: tuple[Hand, ...]) -> int:
        best = bf_min_deadwood(rest)
        for i, meld in enumerate(melds):
            for card in rest:
                if accepts(meld, card):
                    grown = (*melds[:i], meld | {card}, *melds[i + 1 :])
                    best = min(best, explore(rest - {card}, grown))
        return best

    return explore(defender, spread)


def bf_spreads(hand: Hand, limit: int) -> list[tuple[tuple[Hand, ...], int]]:
    """Every legal spread: any collection of disjoint melds leaving at most ``limit`` deadwood."""
    melds = melds_in(hand)
    found: list[tuple[tuple[Hand, ...], int]] = []

    def grow(start: int, used: Hand, chosen: tuple[Hand, ...]) -> None:
        dead = points(hand - used)
        if dead <= limit:
            found.append((chosen, dead))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                grow(i + 1, used | melds[i], (*chosen, melds[i]))

    grow(0, frozenset(), ())
    return found


def bf_score(knocker_deadwood: int, defender_deadwood: int, rules: str) -> tuple[int, Outcome]:
    """The knocker's net points and the outcome, by RULES.md §1 (knock, undercut on ties, gin)."""
    bonus = BONUSES[rules]
    if knocker_deadwood == 0:
        return bonus["gin"] + defender_deadwood, Outcome.GIN
    if knocker_deadwood < defender_deadwood:
        return defender_deadwood - knocker_deadwood, Outcome.KNOCK
    return -(knocker_deadwood - defender_deadwood + bonus["undercut"]), Outcome.UNDERCUT


Option = tuple[int, int, Outcome]
"""``(knocker net, knocker deadwood as spread, outcome)`` of one legal way to end the hand."""


def bf_options_10(knocker: Hand, defender: Hand, rules: str) -> list[Option]:
    out: list[Option] = []
    for spread, dead in bf_spreads(knocker, KNOCK_LIMIT):
        # No layoffs after gin.
        defence = bf_min_deadwood(defender) if dead == 0 else bf_defence(defender, spread)
        net, outcome = bf_score(dead, defence, rules)
        out.append((net, dead, outcome))
    return out


def bf_options_11(
    knocker: Hand, defender: Hand, rules: str, taken: BC | None = None
) -> list[Option]:
    out: list[Option] = []
    big_gin = BONUSES[rules]["big_gin"]
    if big_gin and bf_min_deadwood(knocker) == 0:
        out.append((big_gin + bf_min_deadwood(defender), 0, Outcome.BIG_GIN))
    for discard in knocker:
        if discard != taken:
            out.extend(bf_options_10(knocker - {discard}, defender, rules))
    return out


def best_option(options: list[Option]) -> Option:
    """Best net for the knocker; among those, the smallest knocker deadwood."""
    return min(options, key=lambda o: (-o[0], o[1]))


# --------------------------------------------------------------------------- engine output checks


def check_defence(defence: Defence, defender: Hand, spread: Sequence[Hand]) -> None:
    """The engine's Defence is a legal, complete, self-consistent answer to ``spread``."""
    laid = [bc(layoff.card) for layoff in defence.layoffs]
    assert len(set(laid)) == len(laid), "a card laid off twice"
    assert set(laid) <= defender, "laid off a card the defender does not hold"
    own: set[BC] = set()
    for meld in defence.melds:
        cards = from_cardset(meld)
        assert is_meld(cards), f"defender meld {text(cards)} is not a meld"
        assert not cards & own, "defender melds overlap"
        own |= cards
    dead = from_cardset(defence.deadwood_cards)
    assert not own & set(laid), "a card both melded and laid off"
    assert not dead & (own | set(laid))
    assert dead | own | set(laid) == defender, "defender cards lost or invented"
    assert len(dead) + len(own) + len(laid) == len(defender)
    assert defence.deadwood == points(dead)
    # The arrangement of the cards kept is optimal for them.
    assert defence.deadwood == bf_min_deadwood(defender - set(laid))
    # Replay the layoffs in the given order onto the named knocker melds.
    grown: dict[Hand, Hand] = {meld: meld for meld in spread}
    for layoff in defence.layoffs:
        onto = from_cardset(layoff.onto)
        assert onto in grown, f"layoff onto {text(onto)}, which the knocker did not spread"
        card = bc(layoff.card)
        assert accepts(grown[onto], card), (
            f"{code(card)} cannot be laid off onto {text(grown[onto])} at this point"
        )
        grown[onto] = grown[onto] | {card}


# --------------------------------------------------------------------------- generators


def sample(pick: Pick, pool: Iterable[T], k: int) -> list[T]:
    """Up to ``k`` distinct items of ``pool``, drawn one at a time from its sorted order."""
    rest = sorted(pool)
    out: list[T] = []
    for _ in range(min(k, len(rest))):
        out.append(rest.pop(pick(0, len(rest) - 1)))
    return out


def gen_melds(pick: Pick, total: int, used: frozenset[BC] = frozenset()) -> list[Hand]:
    """Random disjoint runs and sets with ``total`` cards in all when it works out (else fewer)."""
    melds: list[Hand] = []
    taken = set(used)
    count = 0
    for _ in range(30):
        remaining = total - count
        if remaining < 3:
            break
        sizes = [n for n in range(3, min(6, remaining) + 1) if remaining - n not in (1, 2)]
        size = sizes[pick(0, len(sizes) - 1)]
        if pick(0, 2) == 0 and size <= 4:
            rank = pick(1, 13)
            meld = frozenset((rank, suit) for suit in sample(pick, range(4), size))
        else:
            suit = pick(0, 3)
            low = pick(1, 14 - size)
            meld = frozenset((rank, suit) for rank in range(low, low + size))
        if meld & taken:
            continue
        melds.append(meld)
        taken |= meld
        count += len(meld)
    return melds


def neighbours(melds: Sequence[Hand], reach: int) -> set[BC]:
    """Cards that lay off onto the melds (directly or by chaining up to ``reach`` deep)."""
    near: set[BC] = set()
    for meld in melds:
        if is_set(meld):
            rank = next(iter(meld))[0]
            near |= {(rank, suit) for suit in range(4)}
        else:
            suit = next(iter(meld))[1]
            ranks = [rank for rank, _ in meld]
            for step in range(1, reach + 1):
                near |= {(min(ranks) - step, suit), (max(ranks) + step, suit)}
    return {c for c in near if 1 <= c[0] <= 13}


def gen_defender(pick: Pick, melds: Sequence[Hand], taken: frozenset[BC]) -> Hand:
    """10 cards, dense around the knocker's melds so that layoffs and chaining happen, plus
    cards of the same rank or suit nearby so that the defender's own melds compete for them.
    A third of the time the defender also holds melds of their own and low cards, so that
    undercuts happen."""
    chosen: set[BC] = set()
    strong = pick(0, 2) == 0
    if strong:
        for meld in gen_melds(pick, pick(3, 7), taken):
            chosen |= meld
    tier1 = neighbours(melds, 3) - taken - chosen
    tier2 = {
        (rank + dr, suit2)
        for rank, suit in tier1
        for suit2 in range(4)
        for dr in (-1, 0, 1)
        if (dr == 0) != (suit2 == suit)
    }
    tier2 = {c for c in tier2 if 1 <= c[0] <= 13} - taken - tier1 - chosen
    chosen |= set(sample(pick, tier1, min(pick(2, 6), 10 - len(chosen))))
    chosen |= set(sample(pick, tier2, min(pick(1, 4), 10 - len(chosen))))
    pool = set(DECK) - taken - chosen
    if strong:
        low = {c for c in pool if c[0] <= 3}
        chosen |= set(sample(pick, low, min(pick(0, 3), 10 - len(chosen))))
    return frozenset(chosen | set(sample(pick, pool - chosen, 10 - len(chosen))))


def gen_knocker(pick: Pick, size: int = 10) -> tuple[Hand, list[Hand]]:
    """A hand of ``size`` cards built from random melds plus a few low or adjacent cards."""
    melds = gen_melds(pick, pick(6, size))
    melded = frozenset().union(*melds)
    low = {c for c in DECK if c[0] <= 4}
    pool = (low | neighbours(melds, 2)) - melded
    fill = sample(pick, pool, size - len(melded))
    return melded | set(fill), melds


def hypothesis_pick(draw: st.DrawFn) -> Pick:
    def pick(lo: int, hi: int) -> int:
        return draw(st.integers(lo, hi))

    return pick


@st.composite
def layoff_cases(draw: st.DrawFn) -> tuple[list[Hand], Hand]:
    pick = hypothesis_pick(draw)
    spread = gen_melds(pick, pick(3, 12))
    taken = frozenset().union(*spread)
    return spread, gen_defender(pick, spread, taken)


@st.composite
def knock_cases(draw: st.DrawFn) -> tuple[Hand, Hand]:
    pick = hypothesis_pick(draw)
    knocker, melds = gen_knocker(pick)
    return knocker, gen_defender(pick, melds, knocker)


@st.composite
def eleven_cases(draw: st.DrawFn) -> tuple[Hand, Hand, BC | None]:
    pick = hypothesis_pick(draw)
    if pick(0, 3) == 0:
        # All 11 cards in melds: big gin where recognised.
        melds = gen_melds(pick, 11)
        knocker: Hand = frozenset().union(*melds)
        if len(knocker) < 11:
            knocker = knocker | set(sample(pick, set(DECK) - knocker, 11 - len(knocker)))
    else:
        knocker, melds = gen_knocker(pick, 11)
    defender = gen_defender(pick, melds, knocker)
    cards = sorted(knocker)
    choice = pick(-1, len(cards) - 1)
    return knocker, defender, None if choice < 0 else cards[choice]


# --------------------------------------------------------------------------- the brute force itself


def test_brute_force_melds_match_rules_examples() -> None:
    # E1: greedy is wrong; 7S added makes gin.
    e1 = hand_of("7C 7D 7H 5H 6H 8H AS 2S 3S KD")
    assert bf_min_deadwood(e1) == 24
    assert bf_min_deadwood(e1 - {(13, 1)} | {(7, 3)}) == 0
    # No Q-K-A, no K-A-2.
    assert bf_min_deadwood(hand_of("QS KS AS")) == 21
    assert bf_min_deadwood(hand_of("KS AS 2S")) == 13
    # E4: a 4-card set takes nothing, a 3-card set exactly one card.
    assert not accepts(hand_of("7C 7D 7H 7S"), (7, 0))
    assert accepts(hand_of("7C 7D 7H"), (7, 3))
    assert not accepts(hand_of("7C 7D 7H"), (8, 0))
    assert not accepts(hand_of("JS QS KS"), (1, 3))
    assert accepts(hand_of("AS 2S 3S"), (4, 3))
    assert not accepts(hand_of("AS 2S 3S"), (13, 3))


def test_rule_values_match_presets() -> None:
    for name, bonus in BONUSES.items():
        rules = preset(name)
        assert (rules.gin_bonus, rules.big_gin_bonus, rules.undercut_bonus) == (
            bonus["gin"],
            bonus["big_gin"],
            bonus["undercut"],
        )
        assert rules.knock_limit == KNOCK_LIMIT
        assert rules.tie_is_undercut is True


# --------------------------------------------------------------------------- RULES.md §4 cases


def test_e2_spread_choice_changes_layoffs() -> None:
    knocker = hand_of("4H 5H 6H 5C 5D 9S TS JS QS KS")
    defender = hand_of("3H 7H 8H 2C 3C 4D 8D 9C JD KD")
    spades = hand_of("9S TS JS QS KS")
    spread_a = [hand_of("4H 5H 6H"), spades]
    spread_b = [hand_of("5C 5D 5H"), spades]
    alone = bf_min_deadwood(defender)
    assert alone - bf_defence(defender, spread_a) == 18  # 3H, then 7H and 8H chained
    assert alone - bf_defence(defender, spread_b) == 0
    assert points(knocker - spread_a[0] - spades) == points(knocker - spread_b[0] - spades) == 10
    for rules in ("standard", "classic"):
        best = best_option(bf_options_10(knocker, defender, rules))
        assert best[0] == alone - 10 == 54
        result = showdown(to_cardset(knocker), to_cardset(defender), preset(rules))
        assert result.score.knocker_net == 54
        assert {from_cardset(m) for m in result.spread.melds} == set(spread_b)
        assert not result.defence.layoffs


def test_e3_chaining() -> None:
    spread = [hand_of("5H 6H 7H")]
    defender = hand_of("4H 8H 9H KS KD 2C 3D 9S JC QD")
    assert bf_min_deadwood(defender) - bf_defence(defender, spread) == 21
    defence = best_defence(to_cardset(defender), [to_meld(m) for m in spread])
    assert defence.deadwood == bf_defence(defender, spread) == 54
    assert defence.laid_off_points == 21
    check_defence(defence, defender, spread)


def test_e5_joint_defence() -> None:
    spread = [hand_of("TH JH QH"), hand_of("KC KD KS"), hand_of("2C 3C 4C")]
    defender = hand_of("7H 8H 9H 7C 7D 5C 8S 9D KH 2D")
    assert bf_defence(defender, spread) == 19
    # Melding 7-8-9♥ first, then laying off, leaves 33.
    assert bf_defence(defender - hand_of("7H 8H 9H"), spread) == 33
    defence = best_defence(to_cardset(defender), [to_meld(m) for m in spread])
    assert defence.deadwood == 19
    check_defence(defence, defender, spread)
    knocker = frozenset().union(*spread) | hand_of("AS")
    for rules in ("standard", "classic"):
        assert best_option(bf_options_10(knocker, defender, rules))[0] == 18
        result = showdown(to_cardset(knocker), to_cardset(defender), preset(rules))
        assert result.score.knocker_net == 18
        assert result.outcome is Outcome.KNOCK


def test_e8_big_gin() -> None:
    knocker = hand_of("AS 2S 3S 4S 5S 7C 7D 7H JD QD KD")
    defender = hand_of("2C 3C 9C 4D 6D 8H 9H 6S 8S TS")
    alone = bf_min_deadwood(defender)
    standard = showdown(to_cardset(knocker), to_cardset(defender), preset("standard"))
    assert standard.outcome is Outcome.BIG_GIN
    assert (
        standard.score.knocker_net
        == 31 + alone
        == best_option(bf_options_11(knocker, defender, "standard"))[0]
    )
    assert standard.discard is None
    classic = showdown(to_cardset(knocker), to_cardset(defender), preset("classic"))
    assert classic.outcome is Outcome.GIN
    assert (
        classic.score.knocker_net
        == 20 + alone
        == best_option(bf_options_11(knocker, defender, "classic"))[0]
    )
    assert classic.discard is not None and classic.discard.code in ("AS", "5S")


def test_e10_taken_card_is_not_a_legal_discard() -> None:
    knocker = hand_of("AC 2C 3C 4C 5H 6H 7H 8H 4D 5S KD")
    defender = hand_of("2D 3D 9C TC 6S 7S 8D 9H JH QS")
    free = showdown(to_cardset(knocker), to_cardset(defender), preset("standard"))
    assert free.discard is not None and free.discard.code == "KD"
    assert free.spread.deadwood == 9
    assert free.score.knocker_net == best_option(bf_options_11(knocker, defender, "standard"))[0]
    # Having just taken K♦ from the discard pile, no legal discard leaves 10 or less.
    assert not bf_options_11(knocker, defender, "standard", (13, 1))
    with pytest.raises(IllegalError):
        showdown(
            to_cardset(knocker),
            to_cardset(defender),
            preset("standard"),
            taken_from_discard=Card.parse("KD"),
        )


# --------------------------------------------------------------------------- the generators bite


@pytest.mark.slow
def test_generators_produce_layoffs_and_choices() -> None:
    rng = random.Random(20240611)
    pick: Pick = rng.randint
    n = 300
    helped = chained = 0
    for _ in range(n):
        spread = gen_melds(pick, pick(3, 12))
        defender = gen_defender(pick, spread, frozenset().union(*spread))
        if bf_defence(defender, spread) < bf_min_deadwood(defender):
            helped += 1
            defence = best_defence(to_cardset(defender), [to_meld(m) for m in spread])
            # A card that does not fit the meld as spread went on by chaining.
            if any(not accepts(from_cardset(lay.onto), bc(lay.card)) for lay in defence.layoffs):
                chained += 1
    assert helped >= n * 0.4, f"layoffs help in only {helped}/{n} generated cases"
    assert chained >= n * 0.05, f"chaining needed in only {chained}/{n} generated cases"

    knockable = matters = layoffs_in_best = 0
    for _ in range(120):
        knocker, melds = gen_knocker(pick)
        if bf_min_deadwood(knocker) > KNOCK_LIMIT:
            continue
        knockable += 1
        defender = gen_defender(pick, melds, knocker)
        options = bf_options_10(knocker, defender, "standard")
        if len({o[0] for o in options}) > 1:
            matters += 1
        spreads = bf_spreads(knocker, KNOCK_LIMIT)
        if any(d and bf_defence(defender, s) < bf_min_deadwood(defender) for s, d in spreads):
            layoffs_in_best += 1
    assert knockable >= 60, f"only {knockable}/120 generated knocker hands can knock"
    assert matters >= knockable * 0.3, f"spread choice matters in {matters}/{knockable}"
    assert layoffs_in_best >= knockable * 0.4, f"layoffs possible in {layoffs_in_best}/{knockable}"


# --------------------------------------------------------------------------- property tests


# Each property runs on a small sample in the developer loop and on a large one with
# --run-slow (CI): the same check, written once.


def check_best_defence(case: tuple[list[Hand], Hand]) -> None:
    spread, defender = case
    note(f"spread: {' | '.join(text(m) for m in spread)}; defender: {text(defender)}")
    defence = best_defence(to_cardset(defender), [to_meld(m) for m in spread])
    assert defence.deadwood == bf_defence(defender, spread)
    check_defence(defence, defender, spread)


@settings(COMMON, max_examples=60)
@given(layoff_cases())
def test_best_defence_matches_brute_force(case: tuple[list[Hand], Hand]) -> None:
    check_best_defence(case)


@pytest.mark.slow
@settings(COMMON, max_examples=2000)
@given(layoff_cases())
def test_best_defence_matches_brute_force_many(case: tuple[list[Hand], Hand]) -> None:
    check_best_defence(case)


def check_showdown(rules: str, case: tuple[Hand, Hand]) -> None:
    knocker, defender = case
    assume(bf_min_deadwood(knocker) <= KNOCK_LIMIT)
    note(f"knocker: {text(knocker)}; defender: {text(defender)}; rules: {rules}")
    best = best_option(bf_options_10(knocker, defender, rules))
    result = showdown(to_cardset(knocker), to_cardset(defender), preset(rules))
    check_chosen(result, best, knocker, defender)
    assert result.discard is None


@pytest.mark.parametrize("rules", ["standard", "classic"])
@settings(COMMON, max_examples=30)
@given(knock_cases())
def test_showdown_matches_brute_force(rules: str, case: tuple[Hand, Hand]) -> None:
    check_showdown(rules, case)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "classic"])
@settings(COMMON, max_examples=600)
@given(knock_cases())
def test_showdown_matches_brute_force_many(rules: str, case: tuple[Hand, Hand]) -> None:
    check_showdown(rules, case)


def check_chosen(result: Showdown, best: Option, hand: Hand, defender: Hand) -> None:
    """The engine's chosen spread scores the brute force's best, legally and consistently."""
    best_net, best_dead, best_outcome = best
    assert result.score.knocker_net == best_net
    assert result.outcome is best_outcome
    assert result.winner is (Side.DEFENDER if best_net < 0 else Side.KNOCKER)
    assert result.spread.deadwood == best_dead
    # The chosen spread is legal and its defence is the defender's best against it.
    spread = [from_cardset(m) for m in result.spread.melds]
    cards = frozenset().union(*spread) if spread else frozenset()
    dead = from_cardset(result.spread.deadwood_cards)
    assert all(is_meld(m) for m in spread)
    assert sum(len(m) for m in spread) == len(cards)
    assert not cards & dead
    if result.discard is not None:
        assert cards | dead | {bc(result.discard)} == hand
        assert len(cards | dead) == 10
    else:
        assert cards | dead == hand
    assert points(dead) == result.spread.deadwood <= KNOCK_LIMIT
    assert result.score.knocker_deadwood == result.spread.deadwood
    if result.spread.deadwood == 0:
        assert not result.defence.layoffs
        assert result.defence.deadwood == bf_min_deadwood(defender)
    else:
        assert result.defence.deadwood == bf_defence(defender, spread)
        check_defence(result.defence, defender, spread)
    assert result.score.defender_deadwood == result.defence.deadwood


@pytest.mark.parametrize("rules", ["standard", "classic"])
@settings(COMMON, max_examples=20)
@given(eleven_cases())
def test_eleven_card_showdown_matches_brute_force(
    rules: str, case: tuple[Hand, Hand, BC | None]
) -> None:
    check_eleven(rules, case)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "classic"])
@settings(COMMON, max_examples=400)
@given(eleven_cases())
def test_eleven_card_showdown_matches_brute_force_many(
    rules: str, case: tuple[Hand, Hand, BC | None]
) -> None:
    check_eleven(rules, case)


def check_eleven(rules: str, case: tuple[Hand, Hand, BC | None]) -> None:
    knocker, defender, taken = case
    note(f"knocker: {text(knocker)}; defender: {text(defender)}; rules: {rules}")
    note(f"taken from discard: {None if taken is None else code(taken)}")
    options = bf_options_11(knocker, defender, rules, taken)
    taken_card = None if taken is None else Card.parse(code(taken))
    if not options:
        with pytest.raises(IllegalError):
            showdown(
                to_cardset(knocker),
                to_cardset(defender),
                preset(rules),
                taken_from_discard=taken_card,
            )
        return
    result = showdown(
        to_cardset(knocker), to_cardset(defender), preset(rules), taken_from_discard=taken_card
    )
    best = best_option(options)
    check_chosen(result, best, knocker, defender)
    if result.outcome is Outcome.BIG_GIN:
        assert result.discard is None
        assert from_cardset(result.spread.melded) == knocker
    else:
        assert result.discard is not None
        assert taken is None or bc(result.discard) != taken
