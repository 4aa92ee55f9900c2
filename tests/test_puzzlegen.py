"""The puzzle generator: reproducible for a seed on any number of processes, its exact filters,
and what it writes passes ``puzzles check`` at the puzzle budget."""

from __future__ import annotations

import pytest

from gintutor.content.puzzlegen import _exposure, _layoffs_may_decide, generate, to_yaml
from gintutor.content.puzzles import check_puzzles
from gintutor.engine.cards import CardSet
from gintutor.engine.evaluate import Position
from gintutor.engine.rules import preset
from gintutor.tutor.puzzles import Theme

CHEAP = ("simple", "simple")
"""Quick bots for the tests' hands (the generator's own are stronger and slower)."""


@pytest.mark.slow  # generates twice, one process then two: ~40 s CPU
def test_the_same_seed_gives_the_same_puzzles_on_any_number_of_processes() -> None:
    wanted = {Theme.DEADWOOD: 2, Theme.KNOCK_OR_PLAY: 1}
    one = generate(wanted, preset("classic"), seed=5, players=CHEAP, jobs=1)
    two = generate(wanted, preset("classic"), seed=5, players=CHEAP, jobs=2)
    assert to_yaml(one) == to_yaml(two)
    assert [p.theme for p in one] == [Theme.DEADWOOD, Theme.DEADWOOD, Theme.KNOCK_OR_PLAY]


@pytest.mark.slow  # a whole generation and check, ~5 s CPU
def test_judged_puzzles_state_the_answers_of_the_verdict_at_the_puzzle_budget() -> None:
    made = generate({Theme.KNOCK_OR_PLAY: 1}, preset("classic"), seed=2, players=CHEAP)
    puzzles, problems = check_puzzles([("new.yaml", to_yaml(made))], judge_missing=True)
    assert problems == [] and [p.id for p in puzzles] == [p.id for p in made]


HAND = CardSet.parse("3H 4H 5H 6H 9C 9D 9S AC AD 2S 5C")
"""Knocks with 5C (4 deadwood, the natural knock) or with 6H (9 deadwood): 6H closes the run
at 5H, so a 7H in the defender's hand has nowhere to go."""


def _knock_position(opponent_known: str) -> Position:
    return Position(
        HAND,
        preset("standard"),
        dead=CardSet.parse("9H KD"),
        opponent_known=CardSet.parse(opponent_known),
        stock_size=20,
    )


def test_exposure_counts_a_card_known_in_the_defender_hand_in_full() -> None:
    position = _knock_position("7H")
    natural = _exposure(HAND.mask & ~CardSet.parse("5C").mask, 4, position)
    closed = _exposure(HAND.mask & ~CardSet.parse("6H").mask, 9, position)
    assert natural - closed > 7 - 1  # the 7H in full, less a share of the 2H


def test_layoffs_decide_when_they_outweigh_the_extra_deadwood() -> None:
    assert _layoffs_may_decide(_knock_position("7H"))  # 7 points saved for 5 more deadwood
    assert not _layoffs_may_decide(_knock_position(""))  # a chance of 7H: too little for 5


@pytest.mark.slow
def test_every_theme_generated_by_the_named_bots_passes_the_check() -> None:
    made = generate(dict.fromkeys(Theme, 1), preset("standard"), seed=1, jobs=2)
    assert sorted(p.theme.value for p in made) == sorted(t.value for t in Theme)
    puzzles, problems = check_puzzles([("new.yaml", to_yaml(made))], judge_missing=True, jobs=2)
    assert problems == [] and len(puzzles) == len(made)
