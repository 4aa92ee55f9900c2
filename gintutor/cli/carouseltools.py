"""The one-shot Carousel commands' work: ``carousel analyze``, ``carousel score`` and the rules
in prose (``carousel rules``, ``rules carousel``); declared in :mod:`gintutor.cli.carousel`."""

from __future__ import annotations

import json

import typer

from gintutor.cli.shared import terminal
from gintutor.engine.carousel.cards import decks_for, parse_hand_cards, parse_table, verify_counts
from gintutor.engine.carousel.game import score_game
from gintutor.engine.carousel.rules import STANDARD
from gintutor.engine.carousel.solver import best_play
from gintutor.errors import GinError
from gintutor.text.blocks import Style
from gintutor.text.carousel import explain_play, explain_rules, explain_sheet, play_data
from gintutor.tutor.carouselrounds import parse_rounds

MAX_HAND = 40
"""The largest hand ``carousel analyze`` takes. The solver's relaxed bound grows steeply with
the hand (measured with two decks, two of the cards jokers: 42 cards 0.3 s and 55 MB, 52 cards
up to 1.5 s and 400 MB, 67 a MemoryError past 2 GB, exit 70), and a round deals 10 cards: hands
in play stay under 30."""


def show_rules(no_color: bool, ascii_only: bool) -> None:
    """Print the standard Carousel rules in prose."""
    terminal(no_color, ascii_only).show(explain_rules(STANDARD))


def analyze(
    hand: str,
    table: str,
    first_meld: bool,
    players: int,
    as_json: bool,
    no_color: bool,
    ascii_only: bool,
) -> None:
    """Show the best play of ``hand`` onto ``table`` (text or JSON)."""
    decks = decks_for(players)
    old, cards = parse_table(table), parse_hand_cards(hand)
    if len(cards) > MAX_HAND:
        raise GinError(
            "--hand: {count} cards: gintutor analyses a hand of at most {most} cards "
            "(a round deals 10)",
            count=len(cards),
            most=MAX_HAND,
        )
    verify_counts(old, [cards], decks)
    play = best_play(old, cards, decks, STANDARD, first_meld=first_meld)
    if as_json:
        typer.echo(json.dumps(play_data(old, cards, play, STANDARD), ensure_ascii=False))
        return
    terminal(no_color, ascii_only).show(
        explain_play(old, cards, play, STANDARD, Style(ascii_only=ascii_only))
    )


def score(rounds: list[str], no_color: bool, ascii_only: bool) -> None:
    """Show the score sheet of the rounds' results."""
    names, results = parse_rounds(rounds)
    terminal(no_color, ascii_only).show(explain_sheet(score_game(results), names))
