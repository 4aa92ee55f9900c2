"""The puzzle generator: reproducible for a seed on any number of processes, its exact filters,
and what it writes passes ``puzzles check`` at the puzzle budget."""

from __future__ import annotations

import dataclasses
import re

import pytest

from gintutor.content.puzzlegen import (
    _exposure,
    _hints,
    _layoffs_may_decide,
    generate,
    to_yaml,
)
from gintutor.content.puzzlerules import fact_violations, hint_violations
from gintutor.content.puzzles import check_puzzles
from gintutor.content.verdicts import verdict_of
from gintutor.engine.cards import Card, CardSet
from gintutor.engine.evaluate import Position, evaluate
from gintutor.engine.rules import preset
from gintutor.tutor.puzzles import (
    Puzzle,
    Solution,
    Theme,
    choice_codes,
    natural_choice,
    solve_puzzle,
)

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


_COMPARED = (
    re.compile(r"Compare (?:knocking after )?the (\S+) with (?:knocking after )?the (\S+?):"),
    re.compile(r"Throwing the (\S+) leaves \{\w+\.deadwood\}: what does the (\S+) leave"),
)
"""The two cards a second hint compares, in each theme's words."""


def _solved_with_natural_best(theme: Theme, hand: str, known: str = "") -> tuple[Puzzle, Solution]:
    """A puzzle of ``theme`` whose verdict (made up: each discard loses its extra deadwood
    over the least, a point more for the heavier of equals) makes the natural discard best."""
    position = Position(
        CardSet.parse(hand),
        preset("standard"),
        dead=CardSet.parse("KD KH"),
        opponent_known=CardSet.parse(known),
        stock_size=29,
    )
    puzzle = Puzzle(f"{theme.value}-x", "x", theme, 3, position, "?", (), (), "")
    if theme is Theme.DEADWOOD:
        return puzzle, solve_puzzle(puzzle)
    codes = choice_codes(puzzle)
    options = sorted(
        (e for e in evaluate(position).options if e.card.code in codes),
        key=lambda e: (e.deadwood, -e.card.points, -e.card.index),
    )
    verb = "knock" if theme is Theme.LAYOFF_EXPOSURE else "discard"
    least = options[0].deadwood
    judged = [
        [
            f"{verb} {e.card.code}",
            -float(i),
            0.2,
            float(e.deadwood - least + i),
            0.2,
            None,
            None,
            "best" if i == 0 else "mistake",
            i == 0,
            256,
        ]
        for i, e in enumerate(options)
    ]
    verdict = verdict_of(
        {"player": 0, "phase": "discard", "worlds": 256, "seconds": 1.0, "judged": judged}
    )
    return puzzle, solve_puzzle(puzzle, verdict)


@pytest.mark.parametrize(
    ("theme", "hand", "known"),
    [
        (Theme.OUTS, "4C 4D 4H AC 2C 5C 7C 2H 5H AS 6S", ""),
        (Theme.SAFETY, "5H 5D 6D 7D 8D 2C 3C 4C 9C JS QS", "JH"),
        (Theme.DEADWOOD, "9C 9D 9S 3H 4H 5H 2C 2S 7D 8S KS", ""),
        (Theme.LAYOFF_EXPOSURE, "3H 4H 5H 6H 9C 9D 9S AC AD 2S 5C", "7H"),
    ],
)
def test_a_hint_never_compares_a_card_with_itself(theme: Theme, hand: str, known: str) -> None:
    puzzle, solution = _solved_with_natural_best(theme, hand, known)
    assert natural_choice(solution) == solution.rows[0].code  # the case that went wrong
    hints = _hints(puzzle, solution)
    compared = [m.groups() for p in _COMPARED for m in p.finditer(hints[1])]
    assert len(compared) == 1, hints[1]
    one, other = (Card.parse(code).code for code in compared[0])
    assert one != other, hints[1]
    assert solution.rows[0].code in (one, other)  # the answer, against its strongest rival
    written = dataclasses.replace(puzzle, hints=hints)
    assert fact_violations(written, solution) == []
    assert hint_violations(written, solution) == []


def test_a_layoff_explanation_says_the_natural_knock_saved_count_only_when_it_did() -> None:
    """The generator's ``layoff-exposure`` text: 'saved a little count' only where the natural
    knock really leaves less deadwood than the best (the two often tie)."""
    from gintutor.content.puzzlegen import _layoff_explanation
    from gintutor.content.puzzles import load_puzzles
    from gintutor.content.verdicts import load_verdicts, solve
    from gintutor.engine.cards import Card
    from gintutor.engine.solver import min_deadwood_mask
    from gintutor.tutor.puzzles import Theme, natural_choice

    table = load_verdicts()
    ties = saved = 0
    for puzzle in load_puzzles():
        if puzzle.theme is not Theme.LAYOFF_EXPOSURE:
            continue
        solution = solve(puzzle, table)
        text = _layoff_explanation(puzzle.position, solution)
        if text is None:
            continue
        hand = puzzle.position.hand.mask
        natural, best = natural_choice(solution), solution.rows[0].code
        lower = min_deadwood_mask(hand & ~Card.parse(natural).mask) < min_deadwood_mask(
            hand & ~Card.parse(best).mask
        )
        assert ("saved a little count" in text or "lower count" in text) == lower, puzzle.id
        ties += not lower
        saved += lower
    assert ties and saved  # both cases are in the pack
