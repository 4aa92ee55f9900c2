"""The coach's fast play-out (``bots.playout.World``) against the rules engine (``HandState``).

The coach and the expert value actions by play-outs in a ``World``: masks and lists, no rule
checked. Every turn such a play-out makes is replayed here through ``HandState``, which checks
every rule: each action must be legal, both must hold the same cards in the same places after
each turn, and a hand that ends must end the same way with the same points.
"""

from __future__ import annotations

import random

import pytest
from worlds import world_of

from gintutor.engine.bots import make_bot
from gintutor.engine.bots.common import best_layoffs
from gintutor.engine.bots.heuristic import GREEDY, knock_spread
from gintutor.engine.bots.playout import FAST, World
from gintutor.engine.cards import DECK_MASK
from gintutor.engine.hand import Action, Deal, HandState, Kind, Phase
from gintutor.engine.rules import preset


def _at_first_draw(seed: int, rules: str) -> HandState:
    """A dealt hand played by ``simple`` until a player is to draw after a discard (a World
    starts there: the upcard offers, and the draw they may force, are the coach's own code)."""
    state = HandState(Deal.shuffled(random.Random(f"playout:{seed}"), seed % 2), preset(rules))
    bot, rng = make_bot("simple"), random.Random(seed)
    while not state.over and (
        state.phase is not Phase.DRAW or state.log[-1].kind is not Kind.DISCARD
    ):
        state.do(bot.act(state.infoset(), rng))
    return state


def _replay_turn(
    state: HandState, world: World, player: int, knocks: list[tuple[int, int]]
) -> float | None:
    """Play one World turn of ``player`` and the same actions in ``state``; the World's result."""
    hand, stock, pile = world.hands[player], len(world.stock), list(world.pile)
    top = pile[-1] if pile else None
    result = world.turn(player, FAST if player == 0 else GREEDY)
    if len(world.stock) < stock:
        event = state.do(Action(Kind.DRAW))
        drawn = event.drawn
    else:
        assert top is not None and world.pile[: len(pile) - 1] == pile[:-1]
        state.do(Action(Kind.TAKE))
        drawn = top
    eleven = hand | 1 << drawn
    if result is None or not knocks:
        # A discard (the hand goes on, or ends void when the stock runs out).
        thrown = eleven ^ world.hands[player]
        assert thrown.bit_count() == 1
        state.do(Action.discard(thrown.bit_length() - 1))
        return result
    ((knocker, ten),) = knocks
    assert knocker == player
    card = (eleven ^ ten).bit_length() - 1
    pile_mask = sum(1 << c for c in world.pile)
    state.do(Action.knock(card, knock_spread(ten, DECK_MASK & ~(ten | pile_mask))))
    if not state.over:
        state.do(best_layoffs(state.infoset()))
    return result


@pytest.mark.parametrize("rules", ["standard", "eaai", "oklahoma"])
def test_a_fast_play_out_is_a_legal_hand_scored_as_the_rules_engine_scores_it(rules: str) -> None:
    ended = {"knock": 0, "void": 0}
    for seed in range(30):
        state = _at_first_draw(seed, rules)
        if state.over:
            continue
        world = world_of(state)
        knocks: list[tuple[int, int]] = []
        knock = world.knock

        def spy(player: int, hand10: int, deadwood: int, knock=knock, knocks=knocks) -> float:
            knocks.append((player, hand10))
            return knock(player, hand10, deadwood)

        world.knock = spy  # type: ignore[method-assign]
        player = state.to_move
        result: float | None = None
        while result is None:
            result = _replay_turn(state, world, player, knocks)
            if result is None:
                assert state.hands == world.hands and state.stock == world.stock
                assert state.pile == world.pile
                player = 1 - player
        assert state.over and state.result is not None
        if knocks:
            ended["knock"] += 1
            assert state.result.net(player) == result, (seed, rules)
        else:
            ended["void"] += 1
            assert state.result.void and result == 0.0
    assert ended["knock"] > 10  # the hands end both ways, mostly by a knock
