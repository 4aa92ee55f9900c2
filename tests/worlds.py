"""A fast play-out's ``World`` of a hand in progress, for the tests of the play-outs."""

from __future__ import annotations

from gintutor.engine.bots.playout import World
from gintutor.engine.hand import HandState


def world_of(state: HandState) -> World:
    """The world of a hand in progress: every card where it really is, nothing known to either
    player of the other's hand."""
    return World(
        list(state.hands),
        list(state.stock),
        list(state.pile),
        [0, 0],
        [0, 0],
        state.rules,
        state.knock_limit,
        state.multiplier,
    )
