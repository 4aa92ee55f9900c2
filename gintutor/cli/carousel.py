"""``gintutor carousel``: analyse and score Carousel, and its rules in prose."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from gintutor.errors import GinError

MAX_HAND = 40
"""The largest hand ``carousel analyze`` takes. The solver's relaxed bound grows steeply with
the hand (measured with two decks, two of the cards jokers: 42 cards 0.3 s and 55 MB, 52 cards
up to 1.5 s and 400 MB, 67 a MemoryError past 2 GB, exit 70), and a round deals 10 cards: hands
in play stay under 30."""


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
    carousel = typer.Typer(
        help="Carousel (manipulation rummy): play, analyse, score, rules.", no_args_is_help=True
    )
    app.add_typer(carousel, name="carousel")

    @carousel.command("analyze")
    def analyze(
        hand: Annotated[
            str, typer.Option("--hand", metavar="CARDS", help='Your cards, e.g. "7C 7D JK 2S".')
        ],
        table: Annotated[
            str,
            typer.Option(
                "--table",
                metavar="MELDS",
                help='Melds separated by |, e.g. "7H 8H 9H | JK=7C 7D 7S".',
            ),
        ] = "",
        first_meld: Annotated[
            bool, typer.Option("--first-meld", help="Only melds of your own cards.")
        ] = False,
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
        from gintutor.text.blocks import Style
        from gintutor.text.carousel import explain_play, play_data

        decks = decks_for(players)
        old, cards = parse_table(table), parse_hand_cards(hand)
        if len(cards) > MAX_HAND:
            raise GinError(
                f"--hand: {len(cards)} cards: gintutor analyses a hand of at most {MAX_HAND} "
                "cards (a round deals 10)"
            )
        verify_counts(old, [cards], decks)
        play = best_play(old, cards, decks, STANDARD, first_meld=first_meld)
        if as_json:
            import json

            typer.echo(json.dumps(play_data(old, cards, play, STANDARD), ensure_ascii=False))
            return
        _terminal(no_color, ascii_only).show(
            explain_play(old, cards, play, STANDARD, Style(ascii_only=ascii_only))
        )

    @carousel.command("rules")
    def rules(
        no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="Suits as C D H S.")] = False,
    ) -> None:
        """The Carousel rules in prose, with the settings the source text leaves open."""
        _terminal(no_color, ascii_only).show(rules_blocks())

    @carousel.command("score")
    def score(
        rounds: Annotated[
            list[str],
            typer.Argument(
                metavar="ROUND...",
                help="One per round: 'A knock 3, B 12, C 20', 'A out, B 9, "
                "C 14' or 'A 5, B 12, C 30' (stock ran out).",
                show_default=False,
            ),
        ],
        no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="Suits as C D H S.")] = False,
    ) -> None:
        """A score sheet for 2-5 players from round results."""
        from gintutor.engine.carousel.game import score_game
        from gintutor.text.carousel import explain_sheet, parse_rounds

        names, results = parse_rounds(rounds)
        _terminal(no_color, ascii_only).show(explain_sheet(score_game(results), names))

    @carousel.command("puzzle")
    def puzzle(
        puzzle_id: Annotated[
            str | None,
            typer.Option("--id", metavar="ID", help="A puzzle by its id, e.g. carousel-007."),
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="The puzzle and its best play as JSON.")
        ] = False,
        no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="Suits as C D H S.")] = False,
    ) -> None:
        """A "play the most you can" puzzle (the puzzle of the day, or --id): type the new
        table; hint shows a hint, skip the answer."""
        from gintutor.content.store import CAROUSEL_PUZZLES, cache_file
        from gintutor.tutor.carouselpuzzles import puzzle_data, solve_puzzle

        chosen = _carousel_puzzle(puzzle_id, cache_file(CAROUSEL_PUZZLES))
        if as_json:
            import json

            typer.echo(json.dumps(puzzle_data(solve_puzzle(chosen)), ensure_ascii=False))
            return
        _solve_interactively(chosen, _terminal(no_color, ascii_only), ascii_only)

    @carousel.command("play")
    def play(
        players: Annotated[int, typer.Option(help="2 (one deck) to 5 (two decks).")] = 3,
        bot: Annotated[str, typer.Option(help="Bot level: greedy or careful.")] = "greedy",
        seed: Annotated[int, typer.Option(help="Deal seed (the same seed, the same deal).")] = 1,
        game: Annotated[
            bool,
            typer.Option("--game", help="Play rounds until the game ends (150), not one round."),
        ] = False,
        no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="Suits as C D H S.")] = False,
    ) -> None:
        """Play Carousel against bots: you are player 1. Type a new table (melds separated by
        |), or best, pass, hint, quit."""
        from gintutor.cli.prompts import Quit, asker_for
        from gintutor.engine.carousel.cards import decks_for
        from gintutor.engine.carousel.game import BotLevel
        from gintutor.errors import GinError

        decks_for(players)
        levels = {level.value: level for level in BotLevel}
        if bot.lower() not in levels:
            raise GinError(f"--bot {bot!r}: use {' or '.join(levels)}")
        session = _Session(
            players,
            levels[bot.lower()],
            seed,
            asker_for(),
            _terminal(no_color, ascii_only),
            ascii_only,
        )
        try:
            session.run(game)
        except (Quit, KeyboardInterrupt):
            typer.echo("\nGame left.")


class _Session:
    """One human (player 1) against bots: drives the engine's round, asks, shows."""

    def __init__(
        self, players: int, level: Any, seed: int, asker: Any, terminal: Any, ascii_only: bool
    ) -> None:
        from gintutor.text.blocks import Style

        self.players, self.level, self.seed = players, level, seed
        self.asker, self.terminal = asker, terminal
        self.style = Style(ascii_only=ascii_only)
        self.names = ["You"] + [f"Bot{i}" for i in range(2, players + 1)]
        self.results: list[Any] = []

    def say(self, text: str) -> None:
        from gintutor.text.blocks import Line

        self.terminal.show([Line(text)])

    def run(self, game: bool) -> None:
        """Play one round, or rounds until the game is over; show the score sheet."""
        from gintutor.engine.carousel.game import score_game
        from gintutor.text.carousel import explain_sheet

        number = 0
        while True:
            self.results.append(self.round(number))
            sheet = score_game(self.results)
            self.terminal.show(explain_sheet(sheet, self.names))
            number += 1
            if not game or sheet.over:
                return

    def round(self, number: int) -> Any:
        """Play one round; returns its result."""
        from gintutor.engine.carousel.game import Phase, Round

        self.say(f"Round {number + 1} (seed {self.seed + number})")
        round_ = Round.deal(self.players, self.seed + number, first=number % self.players)
        while round_.phase is not Phase.ROUND_OVER:
            if round_.player == 0:
                self.human_step(round_)
            else:
                self.bot_turn(round_)
        result = round_.result
        assert result is not None
        ending = result.ending.value
        who = "" if result.player is None else f" by {self.names[result.player]}"
        self.say(
            f"Round over ({ending}{who}): "
            + ", ".join(
                f"{n} {h.display(ascii_only=self.style.ascii_only) or '-'} ({h.points})"
                for n, h in zip(self.names, round_.hands, strict=True)
            )
        )
        return result

    def bot_turn(self, round_: Any) -> None:
        from gintutor.engine.carousel.game import Action, bot_turn

        start, player = len(round_.log), round_.player
        name = self.names[player]
        bot_turn(round_, self.level)
        done = round_.log[start:]
        draws = sum(1 for entry in done if entry.action is Action.DRAW)
        plays = [entry.detail for entry in done if entry.action is Action.PLAY]
        what = f"plays {' '.join(plays)}" if plays else "does not play"
        knock = ", knocks" if any(e.action is Action.KNOCK for e in done) else ""
        self.say(f"{name} draws {draws}, {what}{knock}; {len(round_.hands[player])} cards left.")

    def show_table(self, round_: Any) -> None:
        from gintutor.text.blocks import Heading, Line
        from gintutor.text.carousel import hand_text, table_lines

        hand = round_.hand
        self.terminal.show(
            [
                Heading("Table"),
                *table_lines(round_.table, self.style),
                Line(f"Your hand: {hand_text(hand, self.style)} ({hand.points} points)"),
            ]
        )

    def human_step(self, round_: Any) -> None:
        """One step of your turn: draw, play or pass, knock or end."""
        from gintutor.engine.carousel.solver import best_play, nearby_melds

        if round_.can_draw():
            card = round_.draw()
            shown = "JK" if card is None else card.display(ascii_only=self.style.ascii_only)
            self.say(f"You draw {shown}.")
            return
        if round_.can_play():
            self.show_table(round_)
            hint = best_play(
                round_.table,
                round_.hand,
                round_.decks,
                round_.rules,
                first_meld=round_.first_meld,
                only=nearby_melds(round_.table, round_.hand),
            )
            reply = self.ask_play(round_)
            if reply == "hint":
                self.show_hint(round_, hint)
            elif reply == "pass":
                round_.pass_turn()
            elif reply == "best":
                if hint is None:
                    self.say("No card of your hand can be placed: pass.")
                else:
                    round_.play(hint.table)
                    self.say(f"You play {hint.placed.text()}.")
            else:
                placed = round_.play(self.parsed(reply))
                self.say(f"You play {placed.text()}.")
            return
        if round_.can_knock() and self.asker.confirm(
            f"Knock with {round_.hand.points} points in hand?"
        ):
            round_.knock()
            return
        round_.end_turn()

    def parsed(self, reply: str) -> Any:
        from gintutor.engine.carousel.cards import parse_table

        return parse_table(reply)

    def ask_play(self, round_: Any) -> str:
        """Your choice: a new table, best, pass or hint (checked before it counts)."""
        from gintutor.cli.prompts import Command, Prompt
        from gintutor.errors import GinError

        def validate(text: str) -> str | None:
            if text.strip().lower() in ("pass", "best"):
                return None
            try:
                round_.verify_play(self.parsed(text))
            except GinError as error:
                return str(error)
            return None

        words = sorted(
            {c.code for c in round_.hand.cards}
            | {s.code for s in round_.table.slots()}
            | {"pass", "best", "|"}
        )
        reply = self.asker.ask(Prompt("new table, best, pass or hint:", words, validate))
        if reply is Command.HINT:
            return "hint"
        if reply is Command.SKIP:
            return "pass"
        text = str(reply).strip()
        return text.lower() if text.lower() in ("pass", "best") else text

    def show_hint(self, round_: Any, play: Any) -> None:
        from gintutor.text.carousel import explain_play

        self.terminal.show(explain_play(round_.table, round_.hand, play, round_.rules, self.style))


def _carousel_puzzle(puzzle_id: str | None, cache: Path | None = None) -> Any:
    """The Carousel puzzle asked for (the day's if ``None``) from the shipped pack.

    With ``cache`` (a file in the data folder) the pack read cleanly before by exactly this
    code is taken from it (no YAML is read), and where it can be written a clean full reading
    is kept there. Otherwise only the puzzle's entry is parsed when it reads cleanly; else the
    whole pack (its problems and errors are the reader's)."""
    import datetime as dt

    from gintutor.content.carouselpuzzles import (
        carousel_pack_files,
        check_carousel_puzzles,
        find_carousel_puzzle,
    )
    from gintutor.errors import GinError
    from gintutor.tutor.daily import daily_id

    files = carousel_pack_files()
    puzzles = None
    if cache is not None:
        import hashlib
        import json

        from gintutor.content.cachefile import can_store, code_fingerprint, keep, kept

        try:
            key = hashlib.blake2b(json.dumps([code_fingerprint(), files]).encode()).hexdigest()
        except OSError:
            key = ""
        found = kept(cache, key) if key else None
        if isinstance(found, dict) and found:
            puzzles = list(found.values())
        elif key and can_store(cache):
            puzzles, problems = check_carousel_puzzles(files, solve=False)
            if problems:
                raise GinError("\n".join(str(problem) for problem in problems))
            keep(cache, key, {puzzle.id: puzzle for puzzle in puzzles})
    if puzzles is None:
        from gintutor.content.carouselpuzzles import read_carousel_puzzles
        from gintutor.content.packs import ID_LINE, entry_only

        ids = [match.group(1) for _, text in files for match in ID_LINE.finditer(text)]
        if ids:
            wanted = puzzle_id if puzzle_id is not None else daily_id(ids, dt.date.today())
            for path, text in files:
                entry = entry_only(text, wanted)
                if entry is not None:
                    read, problems = read_carousel_puzzles(entry, path)
                    if not problems and len(read) == 1 and read[0].id == wanted:
                        return read[0]
        puzzles, problems = check_carousel_puzzles(files, solve=False)
        if problems:
            raise GinError("\n".join(str(problem) for problem in problems))
    if not puzzles:
        raise GinError("the Carousel puzzle pack is missing")
    if puzzle_id is None:
        puzzle_id = daily_id((p.id for p in puzzles), dt.date.today())
    return find_carousel_puzzle(puzzles, puzzle_id)


def _solve_interactively(puzzle: Any, terminal: Any, ascii_only: bool) -> None:
    """Ask for the new table (hints on request), grade the first real answer, explain.

    The best play is searched once the learner replies: nothing waits on it before the
    prompt, or if the learner leaves."""
    from gintutor.cli.prompts import Command, Prompt, Quit, asker_for
    from gintutor.errors import GinError
    from gintutor.text.blocks import Line, Style
    from gintutor.tutor.carouselpuzzles import (
        Grade,
        fill_explanation,
        grade,
        puzzle_blocks,
        solution_blocks,
        solve_puzzle,
    )

    style = Style(ascii_only=ascii_only)
    terminal.show(puzzle_blocks(puzzle, style))
    solved: list[Any] = []

    def solution() -> Any:
        if not solved:
            solved.append(solve_puzzle(puzzle))
        return solved[0]

    def validate(text: str) -> str | None:
        best = solution()  # a puzzle with no play is an error, never a bad answer
        try:
            grade(best, text)
        except GinError as error:
            return str(error)
        return None

    position = puzzle.position
    words = sorted({s.code for s in position.table.slots()} | set(position.hand.codes()))
    prompt = Prompt("new table (or hint, skip):", [*words, "|", "none"], validate)
    asker = asker_for()
    hints = 0
    try:
        while True:
            reply = asker.ask(prompt)
            if reply is Command.HINT and hints < len(puzzle.hints):
                terminal.show(
                    [Line("Hint: " + fill_explanation(puzzle.hints[hints], solution(), style))]
                )
                hints += 1
                continue
            if isinstance(reply, str):
                graded = grade(solution(), reply)
                word = graded.grade.value.capitalize()
                mark = "✓" if graded.grade is Grade.BEST else "✗"
                terminal.show([Line(f"{mark} {word}: {graded.reason}.")])
            else:
                terminal.show([Line("The answer:")])
            break
    except Quit:
        return
    terminal.show(solution_blocks(solution(), style))
