"""Play the rest of a hand fast, both sides by the heuristic, in a world where every card is
placed (a determinization): the expert's and the coach's rollouts.

Each side keeps only what it could know (the pile, the cards the other took from the pile,
the cards the other passed or threw), so the policy inside a rollout is the same honest
heuristic; the world only fixes which cards the stock and the hidden hand hold.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from gintutor.engine.bots.heuristic import (
    BASELINE,
    DEFAULT,
    TUNED,
    Params,
    View,
    cheapest_discard,
    knock_spread,
    should_knock,
    takes,
)
from gintutor.engine.cards import DECK_MASK
from gintutor.engine.layoffs import defence_deadwood
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Side, score_hand
from gintutor.engine.solver import min_deadwood_mask

FAST = dataclasses.replace(BASELINE, lookahead=0)
"""The coach's rollout policy: the baseline heuristic without the one-draw lookahead (frozen
with :data:`~.heuristic.BASELINE`: the coach's stored verdicts depend on it)."""
TUNED_FAST = dataclasses.replace(TUNED, lookahead=0)
"""The bots' own policy without the lookahead: how the expert plays itself in its rollouts."""
NO_CARD = -1
_BITS = [1 << card for card in range(52)]
"""Each card's bit, looked up (twice as fast as building the pile's mask bit by bit)."""


@dataclass
class World:
    """A hand in progress with every card placed; ``hands[p]`` masks, stock top last."""

    hands: list[int]
    stock: list[int]
    pile: list[int]
    known: list[int]
    """``known[p]``: cards player ``p`` knows the other holds."""
    avoid: list[int]
    """``avoid[p]``: cards the other player threw or passed, as ``p`` saw."""
    rules: RuleSet
    limit: int
    multiplier: int = 1
    settled: list[tuple[int, int]] = field(default_factory=lambda: [(-1, 0), (-1, 0)])
    """``settled[p]``: (a hand of ``p``, its least deadwood) as ``p``'s last discard left it,
    so the next turn's take-or-draw does not solve that hand again (keyed by the hand, so a
    hand changed from outside is solved afresh)."""

    def view(self, player: int, hand: int) -> View:
        pile = sum(map(_BITS.__getitem__, self.pile))  # distinct cards: the sum is the union
        live = DECK_MASK & ~(hand | pile | self.known[player])
        return View(
            hand,
            live,
            self.known[player],
            self.avoid[player],
            len(self.stock),
            self.limit,
            10 - self.known[player].bit_count(),
        )

    def knock(self, player: int, hand10: int, deadwood: int) -> float:
        """Points for ``player`` after knocking with ``hand10`` (``deadwood`` after the spread)."""
        other = self.hands[1 - player]
        if deadwood == 0:
            defender = min_deadwood_mask(other)
        else:
            live = self.view(player, hand10).live
            defender = defence_deadwood(other, knock_spread(hand10, live))
        score = score_hand(deadwood, defender, self.rules, multiplier=self.multiplier)
        return float(score.points if score.winner is Side.KNOCKER else -score.points)

    def finish_turn(
        self, player: int, hand: int, taken: int, params: Params, view: View | None = None
    ) -> float | None:
        """Discard or knock from 11 cards; the knocker's points if the hand ends, else None
        (0.0 when the hand is void). ``view``: ``self.view(player, hand)`` when already known."""
        if view is None:
            view = self.view(player, hand)
        card, left, knock_card, deadwood = cheapest_discard(view, hand, taken, params)
        if should_knock(deadwood, view, params):
            return self.knock(player, hand ^ 1 << knock_card, deadwood)
        bit = 1 << card
        self.hands[player] = hand ^ bit
        self.settled[player] = (hand ^ bit, left)
        self.known[1 - player] &= ~bit
        self.avoid[1 - player] |= bit
        self.pile.append(card)
        if len(self.stock) <= self.rules.void_at_stock:
            return 0.0
        return None

    def turn(self, player: int, params: Params) -> float | None:
        """One whole turn by the heuristic."""
        hand = self.hands[player]
        top = self.pile[-1] if self.pile else NO_CARD
        if top == NO_CARD:
            return self.finish_turn(player, hand | 1 << self.stock.pop(), NO_CARD, params)
        mask, deadwood = self.settled[player]
        seen = self.view(player, hand)
        # The view after the take or draw is this one changed by a card (built here, not again
        # from the pile: the rollouts' hot path): taking moves the top from the pile to the
        # hand, so what is live stays; a drawn card leaves what is live and the stock.
        if takes(seen, top, params, deadwood if mask == hand else None):
            self.pile.pop()
            self.known[1 - player] |= 1 << top
            hand |= 1 << top
            after = View(
                hand,
                seen.live,
                seen.opponent_known,
                seen.avoid,
                seen.stock,
                seen.limit,
                seen.hidden,
            )
            return self.finish_turn(player, hand, top, params, after)
        self.avoid[1 - player] |= 1 << top
        bit = 1 << self.stock.pop()
        hand |= bit
        after = View(
            hand,
            seen.live & ~bit,
            seen.opponent_known,
            seen.avoid,
            seen.stock - 1,
            seen.limit,
            seen.hidden,
        )
        return self.finish_turn(player, hand, NO_CARD, params, after)

    def play(
        self, to_move: int, me: int, params: Params = FAST, other: Params | None = None
    ) -> float:
        """Play turns from ``to_move`` until the hand ends; points from ``me``'s side
        (``me`` plays by ``params``, the other player by ``other``, the same when None)."""
        policies = [params, params]
        if other is not None:
            policies[1 - me] = other
        player = to_move
        for _ in range(200):
            result = self.turn(player, policies[player])
            if result is not None:
                return result if player == me else -result
            player = 1 - player
        return 0.0


__all__ = ["DEFAULT", "FAST", "TUNED_FAST", "World"]
