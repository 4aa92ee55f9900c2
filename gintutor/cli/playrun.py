"""``gintutor play`` at work: start or resume a saved game, then the game loop on the terminal.

The session (``tutor/session.py``) decides and the text layer (``text/play.py``) words it; this
module only asks, shows and saves. Every deal and action is on disk (``content/games.py``)
before the next question, so ``quit``, Ctrl-C, the end of piped input or a kill loses nothing:
``gintutor play --resume`` goes on from there.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable
from pathlib import Path

from gintutor.cli.prompts import Asker, Command, Prompt, Quit, asker_for
from gintutor.cli.render import Terminal
from gintutor.cli.shared import resume_notes, terminal
from gintutor.content.gamefile import GameFileError, find_game, latest_game
from gintutor.content.games import CoachNote, GameWriter, StoredVerdict, load_game
from gintutor.content.houserules import load_rules
from gintutor.content.store import games_folder
from gintutor.content.textfile import read_text
from gintutor.engine.bots import BOT_NAMES
from gintutor.engine.cards import Card
from gintutor.engine.hand import Action, Deal
from gintutor.engine.judgement import VERSION
from gintutor.engine.rules import RULE_SETS, RuleSet
from gintutor.errors import GinError, Phrase
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.i18n import _, error_text
from gintutor.text.play import (
    flag_text,
    hand_end_blocks,
    hand_start_blocks,
    help_blocks,
    hint_blocks,
    moves_text,
    prompt_text,
    sheet_blocks,
    table_blocks,
)
from gintutor.tutor.session import CoachedGame, CoachMode, Note, Word

DEFAULT_BOT = "simple"
"""The default opponent: the AAAI/EAAI challenge's simple player (melds, knocks at once)."""
DEFAULT_COACH = "on"


def now() -> dt.datetime:
    """The time a new game is saved under (tests fix it)."""
    return dt.datetime.now()


class Resigned(Exception):
    """The learner gave the game up."""


class _Saver:
    """The session's recorder: the game file's writer, with the coach's notes converted."""

    def __init__(self, writer: GameWriter) -> None:
        self.writer = writer

    def hand(self, number: int, deal: Deal) -> None:
        self.writer.hand(number, deal)

    def action(self, hand: int, player: int, action: Action, coach: Note | None = None) -> None:
        note = None
        if coach is not None:
            stored = None
            if coach.verdict is not None:
                budget = coach.budget
                stored = StoredVerdict(
                    VERSION,
                    coach.verdict,
                    None if budget is None else (budget.worlds, budget.seconds),
                )
            note = CoachNote(
                coach.flagged, coach.best, coach.loss, coach.taken_back, coach.hints, stored
            )
        self.writer.action(hand, player, action, note)


def _coach_mode(text: str) -> CoachMode:
    try:
        return CoachMode(text.strip().lower())
    except ValueError:
        raise GinError(_("--coach {value!r}: use off, quiet or on", value=text)) from None


def _bot_name(text: str) -> str:
    name = text.strip().lower()
    if name not in BOT_NAMES:
        raise GinError(
            _(
                "--bot {value!r}: unknown bot; choose one of {choices}",
                value=text,
                choices=", ".join(BOT_NAMES),
            )
        )
    return name


def _rules(spec: str) -> tuple[RuleSet, str | dict[str, str]]:
    """The rule set and how the game file names it (a preset, or the house-rules text)."""
    rules = load_rules(spec)
    key = spec.strip().lower()
    if key in RULE_SETS:
        return rules, key
    return rules, {"name": rules.name, "house": read_text(Path(spec), Phrase("the house rules"))}


def play_command(
    *,
    bot: str | None,
    rules: str | None,
    coach: str | None,
    seed: int | None,
    resume: str | None,
    no_color: bool,
    ascii_only: bool,
) -> None:
    """Start a game (or resume one) and play it; every step saved as it happens."""
    screen = terminal(no_color, ascii_only)
    asker = asker_for()
    ascii_only = ascii_only or screen.ascii_only
    mode = _coach_mode(coach) if coach is not None else None
    folder = games_folder()
    if resume is not None:
        options = (("--bot", bot), ("--rules", rules), ("--seed", seed))
        given = [name for name, value in options if value is not None]
        if given:
            raise GinError(
                _(
                    "--resume continues the saved game with its own bot, rules and seed: leave "
                    "out {option}",
                    option=given[0],
                )
            )
        runner = _resumed(resume, folder, mode, screen, asker, ascii_only)
    else:
        runner = _new_game(bot, rules, mode, seed, folder, screen, asker, ascii_only)
    runner.run()


def _new_game(
    bot: str | None,
    rules: str | None,
    mode: CoachMode | None,
    seed: int | None,
    folder: Path,
    terminal: Terminal,
    asker: Asker,
    ascii_only: bool,
) -> PlayRunner:
    bot_name = _bot_name(bot or DEFAULT_BOT)
    rule_set, rules_spec = _rules(rules or "standard")
    mode = mode or CoachMode(DEFAULT_COACH)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    # The first dealer is cut from the seed, like the deals.
    first_dealer = random.Random(f"first-dealer:{seed}").randrange(2)
    writer, header = GameWriter.create(
        folder,
        rules=rule_set,
        rules_spec=rules_spec,
        bot=bot_name,
        coach=mode.value,
        seed=seed,
        you=0,
        first_dealer=first_dealer,
        now=now(),
    )
    session = CoachedGame(
        rule_set,
        bot_name,
        mode,
        seed,
        _Saver(writer),
        you=0,
        first_dealer=first_dealer,
        think_ahead=asker.interactive,
    )
    runner = PlayRunner(session, writer, terminal, asker, ascii_only)
    runner.say(
        _(
            "New game {game} against {bot} ({rules} rules, coach {coach}, seed {seed}). Type "
            "help for what you can type.",
            game=header.id,
            bot=runner.bot_label,
            rules=rule_set.name,
            coach=mode.value,
            seed=seed,
        )
    )
    return runner


def _resumed(
    which: str,
    folder: Path,
    mode: CoachMode | None,
    terminal: Terminal,
    asker: Asker,
    ascii_only: bool,
) -> PlayRunner:
    if which.strip().lower() == "last":
        path = latest_game(folder, unfinished=True)
        if path is None:
            raise GinError(
                _(
                    "no unfinished game to resume in {folder}: start one with gintutor play",
                    folder=folder,
                )
            )
    else:
        path = find_game(folder, which)
    saved = load_game(path)
    if saved.end is not None:
        raise GinError(
            _(
                "game {game} is over ({end}): start a new one with gintutor play",
                game=saved.id,
                end=saved.end,
            )
        )
    header = saved.header
    if header.bot not in BOT_NAMES:
        raise GameFileError(
            "{path}:1: unknown bot {bot!r} (this gintutor has {names}): the game cannot go on",
            path=saved.path,
            bot=header.bot,
            names=", ".join(BOT_NAMES),
        )
    mode = mode or _coach_mode(header.coach)
    writer = GameWriter.resume(saved)
    session = CoachedGame(
        saved.rules,
        header.bot,
        mode,
        header.seed,
        _Saver(writer),
        you=header.you,
        first_dealer=header.first_dealer,
        think_ahead=asker.interactive,
    )
    session.resume([(h.deal, [a.action for a in h.actions]) for h in saved.hands])
    runner = PlayRunner(session, writer, terminal, asker, ascii_only)
    for note in resume_notes(saved.problems, writer.kept_damage):
        runner.say(note)
    runner.say(
        _(
            "Resuming game {game} against {bot} ({rules} rules, coach {coach}), hand {hand}.",
            game=saved.id,
            bot=runner.bot_label,
            rules=saved.rules.name,
            coach=mode.value,
            hand=session.hand_number,
        )
    )
    if session.in_hand:
        runner.show(
            hand_start_blocks(session.hand_start(), session.you, runner.bot_label, runner.style)
        )
    return runner


class PlayRunner:
    """The game loop: deal, the bot's turns, the learner's decisions, the end of each hand."""

    def __init__(
        self,
        session: CoachedGame,
        writer: GameWriter,
        terminal: Terminal,
        asker: Asker,
        ascii_only: bool,
    ) -> None:
        self.session = session
        self.writer = writer
        self.terminal = terminal
        self.asker = asker
        self.style = Style(ascii_only=ascii_only)
        self.bot_label = session.bot_name.capitalize()
        names = ["", ""]
        names[session.you], names[1 - session.you] = "You", self.bot_label
        self.players = names

    def say(self, text: str) -> None:
        self.terminal.show([Line(text)])

    def show(self, blocks: Iterable[Block]) -> None:
        self.terminal.show(blocks)

    def run(self) -> None:
        """Play to the end of the game; ``quit``/EOF/Ctrl-C leave it saved and resumable."""
        session = self.session
        try:
            while not session.game_over:
                if not session.in_hand:
                    start = session.deal()
                    self.show(hand_start_blocks(start, session.you, self.bot_label, self.style))
                while session.in_hand:
                    if session.your_turn:
                        self.turn()
                    else:
                        for sentence in moves_text(session.bot_turn(), self.bot_label, self.style):
                            self.say(sentence)
                end = session.end_hand()
                explain = session.coach is CoachMode.ON
                self.show(hand_end_blocks(end, self.bot_label, self.style, explain=explain))
                self.show(sheet_blocks(end.sheet, self.players, session.rules))
            self.writer.end("finished")
            self.say(_("Game over. Saved as {game}.", game=self.writer.path.stem))
            self.offer_review()
        except Resigned:
            self.writer.end("resigned")
            self.say(_("You resigned. The game is saved as {game}.", game=self.writer.path.stem))
            self.offer_review()
        except (Quit, KeyboardInterrupt):
            self.say(
                "\n"
                + _(
                    "Game saved ({game}). Go on with: gintutor play --resume",
                    game=self.writer.path.stem,
                )
            )
        finally:
            self.writer.close()

    def offer_review(self) -> None:
        """One line telling how to review the game just ended (no question: piped input and
        scripts go on as before)."""
        self.say(
            _(
                "Every decision of yours judged by the coach: gintutor review {game}",
                game=self.writer.path.stem,
            )
        )

    def turn(self) -> None:
        """One decision of the learner: show the table, ask until an action is committed."""
        session = self.session
        self.writer.sync()  # every line so far on disk before the learner is asked
        view = session.table()
        self.show(table_blocks(view, self.bot_label, self.style))
        session.ponder()  # the coach thinks while the learner does (on a terminal)

        def validate(text: str) -> str | None:
            try:
                session.read(text)
            except GinError as error:
                return error_text(error)
            return None

        while True:
            reply = self.asker.ask(
                Prompt(prompt_text(view, self.style), session.completions(), validate)
            )
            if reply is Command.SKIP:
                self.say(
                    "  " + _("(nothing to skip in a game: play, or quit to stop and resume later)")
                )
                continue
            chosen = Word.HINT if reply is Command.HINT else session.read(str(reply))
            if isinstance(chosen, Word):
                if self.word(chosen, view.top):
                    self.show(table_blocks(view, self.bot_label, self.style))
                continue
            flag = session.check(chosen)
            if flag is not None:
                self.say(flag_text(flag, self.style, view.top))
                if not self.asker.confirm(_("Keep it anyway?"), default=False):
                    session.take_back(flag)
                    self.say(_("Taken back: choose again."))
                    continue
            session.play(chosen, flagged=flag is not None)
            return

    def word(self, word: Word, top: Card | None = None) -> bool:
        """Answer a word typed at the prompt; True when the table should be shown again."""
        session = self.session
        if word is Word.HINT:
            try:
                self.show(hint_blocks(session.hint(), self.style, top))
            except GinError as error:
                self.say(f"  ({error_text(error)})")
            return False
        if word is Word.HELP:
            self.show(help_blocks())
            return False
        if word is Word.SHEET:
            self.show(sheet_blocks(session.sheet, self.players, session.rules))
            return False
        if word is Word.TABLE:
            return True
        if word is Word.QUIT:
            raise Quit
        if self.asker.confirm(_("Resign this game?"), default=False):
            raise Resigned
        return False
