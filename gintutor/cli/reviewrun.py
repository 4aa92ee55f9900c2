"""The ``review`` command's work: find the game (saved or a log), review it, show it."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

import typer

from gintutor.cli.prompts import Asker, Command, Prompt, Quit, asker_for
from gintutor.cli.render import Terminal
from gintutor.cli.shared import ContentError, UsageError, terminal, workers
from gintutor.content.gamefile import GameFileError, find_game, latest_game
from gintutor.content.gamelog import LogError, read_game_log
from gintutor.content.games import CoachNote, SavedGame, load_game
from gintutor.content.store import games_folder
from gintutor.content.textfile import path_kind
from gintutor.engine.coach import OPPONENTS, REVIEW_WORLDS
from gintutor.engine.hand import Action
from gintutor.errors import Note
from gintutor.text.blocks import Line, Style
from gintutor.text.i18n import _, error_text
from gintutor.text.review import explain_review, review_data, step_blocks
from gintutor.tutor.review import (
    NO_HELP,
    REUSE_WORLDS,
    GameReview,
    Help,
    PlayedGame,
    PlayedHand,
    Stored,
    review_game,
)


def load_played(target: str) -> PlayedGame:
    """The game to review: the newest saved game, a saved game by id, or a log file."""
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
                raise ContentError(error.template, **error.params) from None
    else:
        path = find_game(folder, target)
    try:
        saved = load_game(path)
    except GameFileError as error:
        raise ContentError(error.template, **error.params) from None
    for problem in saved.problems:
        typer.echo(_("warning: {problem}", problem=error_text(problem)), err=True)
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
        source=Note("saved game {id}", id=saved.id),  # the words translated where shown
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
    step: bool = False,
) -> None:
    """Review ``target`` and print the review (text or JSON); ``step``: walk through it."""
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
        # verdict: the bar shows each stage. Only on a terminal, as shared.progress_bar's.
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(_("reading the game"), total=None)
            game = load_played(target)
            bar.update(task, description=_("replaying hands"))
            review = review_game(
                game,
                worlds=budget,
                seed=seed,
                jobs=processes,
                opponent=opponent,
                reuse_worlds=reuse,
                replaying=lambda done, total: bar.update(task, completed=done, total=total),
                progress=lambda done, total: bar.update(
                    task, description=_("judging decisions"), completed=done, total=total
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
        typer.echo(json.dumps(review_data(review), ensure_ascii=False, indent=2))
        return
    screen = terminal(no_color, ascii_only)
    if step:
        with contextlib.suppress(Quit):  # q, Ctrl-C or the end of input: the walk ends
            step_through(review, screen, asker_for(), Style(ascii_only=screen.ascii_only))
        return
    screen.show(explain_review(review, Style(ascii_only=screen.ascii_only)))


STEP_WORDS = {
    "n": 1,
    "next": 1,
    "p": -1,
    "prev": -1,
    "previous": -1,
}


def step_through(review: GameReview, screen: Terminal, asker: Asker, style: Style) -> None:
    """``review --step``: one decision at a time, like an analysis board. ``n``/→ the next,
    ``p``/← the previous, ``e`` the next error, a number that decision, ``q`` (or the end of
    input) to stop. Commands are read a line at a time (piped input works the same way)."""
    decisions = [d for hand in review.hands for d in hand.decisions if not d.forced]
    if not decisions:
        screen.show([Line(_("No decision with a choice."))])
        return
    total = len(decisions)
    prompt = Prompt(
        _("n next, p previous, e next error, a number, q quit:"),
        ("n", "p", "e", "q"),
        keys=(("right", "n"), ("left", "p")),
    )
    index = 0
    shown = True
    while True:
        if shown:
            screen.show(step_blocks(decisions[index], index + 1, total, review.opponent, style))
        shown = True
        reply = asker.ask(prompt)
        word = "n" if reply is Command.SKIP else "" if isinstance(reply, Command) else reply
        word = word.strip().lower()
        if word in STEP_WORDS:
            moved = index + STEP_WORDS[word]
            if 0 <= moved < total:
                index = moved
                continue
            screen.show(
                [
                    Line(
                        _("That was the last decision.")
                        if moved >= total
                        else _("This is the first decision.")
                    )
                ]
            )
        elif word in ("e", "error"):
            later = [i for i in range(index + 1, total) if decisions[i].is_error]
            if later:
                index = later[0]
                continue
            screen.show([Line(_("No error after this decision."))])
        elif word.isdigit() and 1 <= int(word) <= total:
            index = int(word) - 1
            continue
        else:
            screen.show([Line(_("Type n, p, e, a number from 1 to {total}, or q.", total=total))])
        shown = False
