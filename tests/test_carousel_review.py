"""``carousel review``: each of the learner's decisions against the exact solver's best play."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import run

from gintutor.content.carouselgames import load_carousel_game
from gintutor.engine.carousel.game import Action
from gintutor.tutor.carouselplay import COACH_MARGIN

BEST = "best\nknock\n" * 300  # the best play at every decision, knocking when allowed
NOTHING = "draw\ny\n" * 300  # never place a card (and go ahead when the coach warns)


def saved(home: Path) -> Path:
    [path] = sorted((home / "games" / "carousel").glob("*.jsonl"))
    return path


def review_json(*args: str) -> dict:  # type: ignore[type-arg]
    code, out, err = run("carousel", "review", *args, "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_every_decision_is_judged_as_carousel_analyze_judges_it(home: Path) -> None:
    run("carousel", "play", "--seed", "5", "--round", "--ascii", stdin=BEST)
    game = load_carousel_game(saved(home))
    data = review_json("last")
    learner = [
        a for r in game.rounds for a in r.actions if a.entry.player == 0 and a.coach is not None
    ]
    assert len(data["decisions"]) == len(learner) > 3
    for decision, action in zip(data["decisions"], learner, strict=True):
        # The session's note, written while playing, and the replay agree.
        assert decision["best_left"] == action.coach["best_left"] or (  # type: ignore[index]
            action.coach["best_left"] is None  # type: ignore[index]
            and decision["best"] is None
        )
        code, out, _ = run(
            "carousel",
            "analyze",
            "--table",
            " | ".join(" ".join(meld) for meld in decision["table"]),
            "--hand",
            " ".join(decision["hand"]),
            *(["--first-meld"] if not decision["table"] else []),
            "--json",
        )
        assert code == 0
        analyzed = json.loads(out)["play"]
        if analyzed is None:
            assert decision["best"] is None
            assert decision["best_left"] == decision["left"]
        else:
            assert decision["best_left"] == analyzed["points_after"]
            assert decision["best"]["placed"] == analyzed["placed"]
        # Playing best: never above the best.
        assert decision["gap"] == 0
    summary = data["summary"]
    assert summary["best"] == summary["graded"] and summary["points_above_best"] == 0
    assert data["rounds"][0]["ending"] in ("knock", "out", "stock")


def test_placing_nothing_is_graded_only_at_the_last_chance(home: Path) -> None:
    run("carousel", "play", "--seed", "5", "--ascii", stdin=NOTHING[: 12 * 4] + "quit\n")
    data = review_json(saved(home).stem)
    decisions = data["decisions"]
    assert decisions and all(d["placed"] == [] for d in decisions)
    for d in decisions:
        assert d["graded"] == (d["draw"] >= 2)
        assert d["gap"] == (max(0, d["left"] - d["best_left"]) if d["graded"] else 0)
    summary = data["summary"]
    graded = [d for d in decisions if d["graded"]]
    assert summary["graded"] == len(graded)
    assert summary["points_above_best"] == sum(d["gap"] for d in graded)
    assert summary["costly"] == sum(d["gap"] >= COACH_MARGIN for d in graded) > 0
    assert summary["best"] == sum(d["gap"] == 0 for d in graded)


def test_the_text_names_the_costly_turns_and_sums_up(home: Path) -> None:
    run("carousel", "play", "--seed", "5", "--ascii", stdin=NOTHING[: 12 * 4] + "quit\n")
    code, out, _ = run("carousel", "review", "--ascii")
    assert code == 0
    assert out.startswith(f"Review of Carousel game {saved(home).stem}")
    assert "waited" in out and "you left" in out
    costly = review_json()["summary"]["costly"]
    assert out.count("best play leaves") == costly
    assert f"left {COACH_MARGIN} or more points above the best" in out


def test_a_game_with_no_decision_yet(home: Path) -> None:
    run("carousel", "play", "--seed", "5", "--ascii", stdin="quit\n")
    code, out, _ = run("carousel", "review")
    assert code == 0 and "no play decision" in out


def test_no_game_or_an_unknown_one_is_an_error(home: Path) -> None:
    code, _, err = run("carousel", "review")
    assert code == 1 and "no saved Carousel game" in err
    run("carousel", "play", "--seed", "5", "--ascii", stdin="quit\n")
    code, _, err = run("carousel", "review", "nope")
    assert code == 2 and err.startswith("error: no saved game 'nope'")


def test_the_review_counts_only_the_learners_decisions(home: Path) -> None:
    run("carousel", "play", "--seed", "9", "--round", "--ascii", stdin=BEST)
    game = load_carousel_game(saved(home))
    mine = sum(
        a.entry.player == 0 and a.entry.action in (Action.PLAY, Action.PASS)
        for r in game.rounds
        for a in r.actions
    )
    assert review_json()["summary"]["decisions"] == mine
