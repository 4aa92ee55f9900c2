"""The ``review`` command's work: find the game (saved or a log), review it, show it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import typer

from gintutor.cli.shared import ContentError, UsageError, terminal, workers
from gintutor.content.games import CoachNote, SavedGame
from gintutor.engine.hand import Action
from gintutor.text.i18n import _
from gintutor.tutor.review import (
    NO_HELP,
    REUSE_WORLDS,
    Help,
    PlayedGame,
    PlayedHand,
    Stored,
    review_game,
)


def load_played(target: str) -> PlayedGame:
    """The game to review: the newest saved game, a saved game by id, or a log file."""
    from gintutor.content.gamelog import LogError, read_game_log
    from gintutor.content.games import GameFileError, find_game, latest_game, load_game
    from gintutor.content.store import games_folder
    from gintutor.content.textfile import path_kind

    folder = games_folder()
    path: Path | None
    if target.strip().lower() == "last":
        path = latest_game(folder)
        if path is None:
            raise ContentError(
                _(
                    "no saved games yet: play one with 'gintutor play', or review a game log "
                    "(gintutor review FILE.txt)"
                )
            )
    elif target.endswith(".jsonl") or os.path.lexists(target) or os.sep in target:
        if path_kind(Path(target)) == "folder":
            raise UsageError(
                _("{target}: a folder: give a game log file or a saved game id", target=target)
            )
        path = Path(target)
        if not target.endswith(".jsonl"):
            try:
                return read_game_log(path)
            except LogError as error:
                raise ContentError(str(error)) from None
    else:
        path = find_game(folder, target)
    try:
        saved = load_game(path)
    except GameFileError as error:
        raise ContentError(str(error)) from None
    for problem in saved.problems:
        typer.echo(_("warning: {problem}", problem=problem), err=True)
    return played_of(saved)


def played_of(saved: SavedGame) -> PlayedGame:
    """A saved game as the review takes it: the deals, the actions and the help recorded."""
    hands = tuple(
        PlayedHand(
            hand.deal,
            tuple(saved_action.action for saved_action in hand.actions),
            tuple(_help(saved_action.coach) for saved_action in hand.actions),
            tuple(_stored(saved_action.coach) for saved_action in hand.actions),
        )
        for hand in saved.hands
    )
    return PlayedGame(
        saved.rules,
        saved.header.you,
        hands,
        source=f"saved game {saved.id}",
        bot=saved.header.bot or None,
    )


def _stored(note: CoachNote | None) -> Stored | None:
    if note is None or note.verdict is None:
        return None
    return Stored(note.verdict.version, note.verdict.verdict)


def _help(note: CoachNote | None) -> Help:
    if note is None or not (note.hints or note.taken_back):
        return NO_HELP
    return Help(note.hints, tuple(Action.parse(text) for text in note.taken_back))


def run_review(
    target: str,
    as_json: bool,
    worlds: int | None,
    seed: int,
    jobs: int,
    ascii_only: bool,
    no_color: bool,
    opponent: str | None = None,
) -> None:
    """Review ``target`` and print the review (text or JSON)."""
    from gintutor.engine.coach import OPPONENTS, REVIEW_WORLDS

    if opponent is not None and opponent.strip().lower() not in OPPONENTS:
        raise UsageError(
            _(
                "--opponent-model {value!r}: unknown bot; choose one of {choices}",
                value=opponent,
                choices=", ".join(OPPONENTS),
            )
        )

    processes = workers(jobs)
    budget = REVIEW_WORLDS if worlds is None else worlds
    # --worlds N asks for verdicts on N deals: a stored one on fewer is judged again.
    reuse = REUSE_WORLDS if worlds is None else worlds
    if sys.stderr.isatty():
        # A long game (thousands of hands) takes a while to read and replay before the first
        # verdict: the bar shows each stage.
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("reading the game", total=None)
            game = load_played(target)
            bar.update(task, description="replaying hands")
            review = review_game(
                game,
                worlds=budget,
                seed=seed,
                jobs=processes,
                opponent=opponent,
                reuse_worlds=reuse,
                replaying=lambda done, total: bar.update(task, completed=done, total=total),
                progress=lambda done, total: bar.update(
                    task, description="judging decisions", completed=done, total=total
                ),
            )
    else:
        game = load_played(target)
        review = review_game(
            game,
            worlds=budget,
            seed=seed,
            jobs=processes,
            opponent=opponent,
            reuse_worlds=reuse,
        )
    if as_json:
        from gintutor.text.review import review_data

        typer.echo(json.dumps(review_data(review), ensure_ascii=False, indent=2))
        return
    from gintutor.text.blocks import Style
    from gintutor.text.review import explain_review

    screen = terminal(no_color, ascii_only)
    screen.show(explain_review(review, Style(ascii_only=screen.ascii_only)))
