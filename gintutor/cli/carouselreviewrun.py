"""``gintutor carousel review``'s work: each of the learner's turns in a saved Carousel game
judged against the best play (declared in :mod:`gintutor.cli.carousel`)."""

from __future__ import annotations

import json

import typer

from gintutor.cli.shared import progress_bar, terminal
from gintutor.content.carouselgames import (
    carousel_games_folder,
    find_carousel_game,
    load_carousel_game,
)
from gintutor.text.blocks import Line, Style
from gintutor.text.i18n import _, error_text
from gintutor.tutor.carouselplay import Setup
from gintutor.tutor.carouselreview import review_blocks, review_data, review_rounds


def run_review(which: str, as_json: bool, no_color: bool, ascii_only: bool) -> None:
    """Review the saved Carousel game ``which`` (an id, a file or ``last``)."""
    saved = load_carousel_game(find_carousel_game(which, carousel_games_folder()))
    header = saved.header
    setup = Setup(header.players, header.bot, header.seed, header.one_round, header.coach)
    names = ["You"] + [f"Bot{i}" for i in range(2, header.players + 1)]
    with progress_bar(_("judging each decision")) as progress:
        judged = review_rounds(
            setup, [saved_round.entries for saved_round in saved.rounds], progress=progress
        )
    if as_json:
        data = review_data(judged, saved.id, names)
        data["problems"] = list(saved.problems)
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    screen = terminal(no_color, ascii_only)
    for problem in saved.problems:
        screen.show([Line(_("note: {problem}", problem=error_text(problem)))])
    screen.show(review_blocks(judged, saved.id, names, Style(ascii_only=ascii_only)))
