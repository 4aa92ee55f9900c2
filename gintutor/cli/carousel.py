"""``gintutor carousel``: analyse and score Carousel, and its rules in prose."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer


def rules_blocks() -> list[Any]:
    """The Carousel rules as prose blocks (``gintutor rules carousel`` may delegate here)."""
    from gintutor.engine.carousel.rules import STANDARD
    from gintutor.text.carousel import explain_rules

    return explain_rules(STANDARD)


def _terminal(no_color: bool, ascii_only: bool) -> Any:
    from gintutor.cli.render import Terminal

    return Terminal.for_stream(color=not no_color, ascii_only=ascii_only)


def register(app: typer.Typer) -> None:
    """Add the ``carousel`` command group to ``app`` (engine imports stay inside commands)."""
    carousel = typer.Typer(help="Carousel (manipulation rummy): analyse, score, rules.",
                           no_args_is_help=True)
    app.add_typer(carousel, name="carousel")

    @carousel.command("analyze")
    def analyze(
        hand: Annotated[str, typer.Option("--hand", metavar="CARDS",
                                          help='Your cards, e.g. "7C 7D JK 2S".')],
        table: Annotated[str, typer.Option("--table", metavar="MELDS",
                                           help='Melds separated by |, e.g. "7H 8H 9H | JK=7C '
                                           '7D 7S".')] = "",
        first_meld: Annotated[bool, typer.Option("--first-meld",
                                                 help="Only melds of your own cards.")] = False,
        players: Annotated[int, typer.Option(help="2 (one deck) to 5 (two decks).")] = 3,
        as_json: Annotated[bool, typer.Option("--json", help="Machine-readable JSON.")] = False,
        no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="Suits as C D H S.")] = False,
    ) -> None:
        """The best play of your hand onto the table: new table, moves, hand left, knock."""
        from gintutor.engine.carousel.cards import (
            decks_for,
            parse_hand_cards,
            parse_table,
            verify_counts,
        )
        from gintutor.engine.carousel.rules import STANDARD
        from gintutor.engine.carousel.solver import best_play
        from gintutor.text.carousel import explain_play, play_data
        from gintutor.text.explain import Style

        decks = decks_for(players)
        old, cards = parse_table(table), parse_hand_cards(hand)
        verify_counts(old, [cards], decks)
        play = best_play(old, cards, decks, STANDARD, first_meld=first_meld)
        if as_json:
            typer.echo(json.dumps(play_data(old, cards, play, STANDARD), ensure_ascii=False))
            return
        _terminal(no_color, ascii_only).show(
            explain_play(old, cards, play, STANDARD, Style(ascii_only=ascii_only)))

    @carousel.command("rules")
    def rules(
        no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="Suits as C D H S.")] = False,
    ) -> None:
        """The Carousel rules in prose, with the settings the source text leaves open."""
        _terminal(no_color, ascii_only).show(rules_blocks())

    @carousel.command("score")
    def score(
        rounds: Annotated[list[str], typer.Argument(
            metavar="ROUND...", help="One per round: 'A knock 3, B 12, C 20', 'A out, B 9, "
            "C 14' or 'A 5, B 12, C 30' (stock ran out).", show_default=False)],
        no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="Suits as C D H S.")] = False,
    ) -> None:
        """A score sheet for 2-5 players from round results."""
        from gintutor.engine.carousel.game import score_game
        from gintutor.text.carousel import explain_sheet

        names, results = _parse_rounds(rounds)
        _terminal(no_color, ascii_only).show(explain_sheet(score_game(results), names))


def _parse_rounds(rounds: list[str]) -> tuple[list[str], list[Any]]:
    """Names (from the first round) and results; errors name the round and the entry."""
    from gintutor.engine.carousel.game import Ending, RoundResult
    from gintutor.errors import GinError

    names: list[str] = []
    results = []
    for number, text in enumerate(rounds, start=1):
        entries = [e.split() for e in text.split(",") if e.strip()]
        these = [e[0] for e in entries]
        if not names:
            names = these
        if [n.lower() for n in these] != [n.lower() for n in names]:
            raise GinError(f"round {number}: {text!r}: name the players as in round 1 "
                           f"({', '.join(names)}) in the same order")
        points: list[int] = []
        ending, player = Ending.STOCK, None
        for index, entry in enumerate(entries):
            words = [w.lower() for w in entry[1:]]
            if words[:1] in (["knock"], ["out"]):
                if player is not None:
                    raise GinError(f"round {number}: only one player knocks or goes out")
                ending = Ending.KNOCK if words[0] == "knock" else Ending.OUT
                player = index
                words = words[1:] or (["0"] if ending is Ending.OUT else [])
            if len(words) != 1 or not words[0].isdigit():
                raise GinError(f"round {number}: {' '.join(entry)!r}: write NAME [knock|out] "
                               "POINTS")
            points.append(int(words[0]))
        results.append(RoundResult(tuple(points), ending, player))
    return names, results
