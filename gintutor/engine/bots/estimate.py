"""Bayesian estimation of the opponent's hidden cards from what it took, passed and threw.

Prior: the opponent's unknown cards are a uniformly random subset of the cards this player
has not seen (the rest is the stock). Likelihood: a player rarely throws away or passes a card
that would meld with the cards it holds, so a sampled hand pays a factor ``slip`` (the chance
of such a choice) for every card the opponent discarded or passed that melds with it (a
3-card meld of that card and two cards of the sampled hand); and a player who has discarded
and not knocked rarely held a hand that could knock (its hand now is the hand it kept at its
last discard), so a sampled hand within the knock limit pays a factor ``no_knock``. A card the
opponent took from the pile and still holds was taken to meld: the built estimate (``built``)
samples it with two cards it melds with (:data:`TAKEN_MELDS`), and a hand in which it melds with
nothing pays ``slip``. Samples are drawn from the prior and resampled by these weights; the hand
now stands in for the hand at the time of each choice, the approximation every card-counting
player makes.

>>> import random
>>> from gintutor.engine.hand import Deal, HandState
>>> from gintutor.engine.rules import preset
>>> state = HandState(Deal.shuffled(random.Random(1)), preset("eaai"))
>>> samples = sample_opponent_hands(state.infoset(), 50, random.Random(2))
>>> len(samples), round(sum(w for _, w in samples), 6)
(50, 1.0)
"""

from __future__ import annotations

import random

from gintutor.engine.bots.heuristic import PARTNERS
from gintutor.engine.cards import CARD_POINTS
from gintutor.engine.hand import DEALT, InfoSet, Kind
from gintutor.engine.solver import min_deadwood_mask

SLIP = 0.2
"""The chance a player throws or passes a card that melds with its hand."""
NO_KNOCK = 0.1
"""The chance a player who could knock after its discard plays on instead (most players, and
every bot on the ladder below the expert, knock at the first chance)."""
TAKEN_MELDS = 0.75
"""The built estimate's chance of sampling, with each card the opponent took and still holds,
two cards of a 3-card meld through it (when two such unseen cards are left to sample).
Measured by ``benchmarks/bench_estimate.py`` (expert against expert, eaai rules, 80 hands, seed
1): at the 711 decisions where the player could knock the real opponent held 9.1 deadwood on
average and was within 10 points of a knock in 71% of them; the built estimate without the
taken cards' melds sampled 18.4 deadwood (38% within 10), with them 10.5 (62%); over all 1,689
discard decisions 22.5 against the real 22.6. (0.9 measured within a point of 0.75 on a
throwaway run; 0.75 puts fewer hands at gin late in the hand.)"""
OVERSAMPLE = 4
"""Prior samples drawn per posterior sample."""
STOCK_AT_DEAL = 52 - DEALT - 1
"""The stock after the deal and the first upcard."""


def choice_likelihood(hand: int, avoided: int, slip: float = SLIP) -> float:
    """The likelihood of the opponent's passes and discards ``avoided`` if it holds ``hand``."""
    weight = 1.0
    cards = avoided
    while cards:
        low = cards & -cards
        cards ^= low
        card = low.bit_length() - 1
        for others in PARTNERS[card]:
            if others & hand == others:
                weight *= slip
                break
    return weight


def sample_opponent_hands(
    info: InfoSet,
    n: int,
    rng: random.Random,
    slip: float = SLIP,
    no_knock: float = NO_KNOCK,
    built: bool = False,
) -> list[tuple[int, float]]:
    """``n`` opponent hands (masks, known cards included), each with weight ``1/n``.

    Sampling-importance-resampling: ``OVERSAMPLE * n`` hands from the prior, weighted by
    :func:`choice_likelihood` (and ``no_knock`` for a hand that could have knocked after the
    opponent's last discard), then ``n`` drawn from them in proportion to the weights, so the
    returned sample is (approximately) from the posterior with equal weights, and a mean over
    it has the ordinary standard error. With ``built`` each prior hand is first built up as the
    opponent built its own: the cards it took from the pile sampled with cards they meld with
    (:func:`_with_melds`), then once per stock card it drew a draw and a discard
    (:func:`build_hand`): a uniformly random hand ignores that a player who has drawn and
    discarded ten times holds a made hand.
    """
    unseen = info.unseen
    pool = [i for i in range(52) if unseen >> i & 1]
    hidden = info.opponent_hidden
    avoided = info.opponent_discards | info.opponent_passed
    opponent = 1 - info.player
    declined = any(seen.player == opponent and seen.kind is Kind.DISCARD for seen in info.events)
    draws = stock_draws(info) if built else 0
    limit = info.knock_limit
    known = info.opponent_known
    hands = []
    weights = []
    for _ in range(OVERSAMPLE * n):
        hand = _with_melds(known, hidden, unseen, rng) if built else known
        free = pool if hand == known else [card for card in pool if not hand >> card & 1]
        for card in rng.sample(free, hidden - (hand & ~known).bit_count()):
            hand |= 1 << card
        if draws:
            hand = build_hand(hand, known, pool, draws, rng)
        hands.append(hand)
        weight = choice_likelihood(hand, avoided & ~hand, slip)
        if built:
            weight *= slip ** _loners(known, hand)
        if declined and min_deadwood_mask(hand) <= limit:
            weight *= no_knock
        weights.append(weight)
    if sum(weights) <= 0:
        weights = [1.0] * len(hands)
    chosen = rng.choices(hands, weights, k=n)
    return [(hand, 1 / n) for hand in chosen]


def _with_melds(known: int, hidden: int, unseen: int, rng: random.Random) -> int:
    """``known`` with, for each of its cards at chance :data:`TAKEN_MELDS`, the two other cards
    of a random 3-card meld through it drawn from ``unseen`` (at most ``hidden`` cards added)."""
    hand = known
    left = hidden
    cards = known
    while cards and left >= 2:
        low = cards & -cards
        cards ^= low
        if rng.random() >= TAKEN_MELDS:
            continue
        fits = [
            others
            for others in PARTNERS[low.bit_length() - 1]
            if not others & ~(unseen | hand) and (others & ~hand).bit_count() <= left
        ]
        if fits:
            others = rng.choice(fits)
            left -= (others & ~hand).bit_count()
            hand |= others
    return hand


def _loners(known: int, hand: int) -> int:
    """How many cards of ``known`` meld with no two other cards of ``hand``."""
    count = 0
    cards = known
    while cards:
        low = cards & -cards
        cards ^= low
        if not any(others & hand == others for others in PARTNERS[low.bit_length() - 1]):
            count += 1
    return count


def stock_draws(info: InfoSet) -> int:
    """How many cards the opponent has drawn from the stock this hand (public). A position
    without its record of turns (a puzzle) counts half the cards gone from the stock since
    the deal, rounded down (the player to move has drawn as often or once more).

    >>> from dataclasses import replace
    >>> from gintutor.engine.hand import Deal, HandState
    >>> from gintutor.engine.rules import preset
    >>> info = HandState(Deal.shuffled(random.Random(1)), preset("standard")).infoset()
    >>> stock_draws(info), stock_draws(replace(info, stock_size=20))
    (0, 5)
    """
    if not info.events:
        return max(0, STOCK_AT_DEAL - info.stock_size) // 2
    opponent = 1 - info.player
    return sum(1 for seen in info.events if seen.player == opponent and seen.kind is Kind.DRAW)


def build_hand(hand: int, known: int, pool: list[int], draws: int, rng: random.Random) -> int:
    """``hand`` after ``draws`` turns of the opponent's own making: each turn a random card of
    ``pool`` it does not hold comes in and the card (not of ``known``) whose loss leaves the
    least deadwood goes out. The cards stay within ``pool | known``.

    >>> from gintutor.engine.cards import CardSet
    >>> clubs = CardSet.parse("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC").mask
    >>> start = CardSet.parse("2C 9C KD KH KS QD QH QS JD JH").mask
    >>> pool = [i for i in range(52) if clubs >> i & 1]
    >>> built = build_hand(start, 0, pool, 12, random.Random(1))
    >>> min_deadwood_mask(start), min_deadwood_mask(built), built & ~(start | clubs)
    (31, 0, 0)
    """
    for _ in range(draws):
        free = [card for card in pool if not hand >> card & 1]
        if not free:
            break
        eleven = hand | 1 << rng.choice(free)
        hand = eleven ^ 1 << _least_deadwood_discard(eleven, eleven & ~known)
    return hand


_BY_POINTS = tuple(sorted(range(52), key=lambda card: (-CARD_POINTS[card], card)))
"""Every card, the highest first (the lowest card first among equals)."""


def _least_deadwood_discard(hand: int, allowed: int) -> int:
    """The lowest card of ``allowed`` whose loss leaves ``hand`` the least deadwood (the first
    minimum of :func:`~gintutor.engine.solver.discard_deadwoods`), with fewer solves: losing
    card ``c`` leaves at least ``deadwood(hand) - points(c)`` (a hand without ``c`` arranged
    is the hand arranged with ``c`` loose), so the cards are tried from the highest and the
    search stops at the first that cannot do better. It runs once per stock draw of every
    built hand.
    """
    whole = min_deadwood_mask(hand)
    out, least = -1, 1 << 30
    for card in _BY_POINTS:
        if not allowed >> card & 1:
            continue
        bound = whole - CARD_POINTS[card]
        if bound > least:
            break
        if bound == least and card > out:
            continue
        left = min_deadwood_mask(hand ^ 1 << card)
        if left < least or (left == least and card < out):
            out, least = card, left
    return out


def card_chances(samples: list[tuple[int, float]]) -> list[float]:
    """The estimated chance that the opponent holds each card (by bit index)."""
    chances = [0.0] * 52
    for hand, weight in samples:
        cards = hand
        while cards:
            low = cards & -cards
            cards ^= low
            chances[low.bit_length() - 1] += weight
    return chances


def public_record(info: InfoSet) -> tuple[int, int]:
    """What the opponent knows of this player: ``(cards it surely holds, cards it threw or
    passed)``, rebuilt from the public events (the pile replayed turn by turn)."""
    me = info.player
    pile = [info.upcard]
    held = 0
    avoided = 0
    for seen in info.events:
        kind = seen.kind
        if kind is Kind.PASS:
            if seen.player == me:
                avoided |= 1 << pile[-1]
        elif kind is Kind.TAKE:
            card = pile.pop()
            if seen.player == me:
                held |= 1 << card
        elif kind is Kind.DRAW:
            if seen.player == me and pile:
                avoided |= 1 << pile[-1]
        elif kind is Kind.DISCARD:
            pile.append(seen.card)
            if seen.player == me:
                held &= ~(1 << seen.card)
                avoided |= 1 << seen.card
    return held, avoided
