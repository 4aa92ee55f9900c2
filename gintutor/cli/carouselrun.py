"""``gintutor carousel play`` at work: start or resume a saved game, then the game loop.

The session (``tutor/carouselplay.py``) decides and the text layer (``text/carousel.py``) words
it; this module only asks, shows, confirms the coach's warnings and saves. Every action is in
the game file (``content/carouselgames.py``) before the next question, so ``quit``, Ctrl-C,
the end of piped input or a kill loses at most the turn being typed: ``gintutor carousel play
--resume`` goes on from there.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from gintutor.cli.prompts import Asker, Command, Prompt, Quit, asker_for
from gintutor.cli.render import Terminal
from gintutor.cli.shared import resume_notes, terminal
from gintutor.content.carouselgames import (
    CarouselWriter,
    carousel_games_folder,
    find_carousel_game,
    load_carousel_game,
)
from gintutor.engine.carousel.cards import Table, decks_for
from gintutor.engine.carousel.game import BotLevel, LogEntry
from gintutor.errors import GinError
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.carousel import (
    bot_turn_text,
    entry_text,
    explain_play,
    explain_sheet,
    hint_blocks,
    play_help_blocks,
    play_view,
    round_over_blocks,
    warning_text,
)
from gintutor.text.i18n import _, error_text
from gintutor.tutor.carouselplay import (
    CarouselSession,
    Edit,
    Setup,
    Warning,
    Word,
    read_reply,
    round_seed,
)

DEFAULT_PLAYERS = 3
DEFAULT_BOT = BotLevel.GREEDY


def now() -> dt.datetime:
    """The time a new game is saved under (tests fix it)."""
    return dt.datetime.now()


def play_command(
    *,
    players: int | None,
    bot: str | None,
    seed: int | None,
    one_round: bool,
    coach: str | None,
    resume: str | None,
    no_color: bool,
    ascii_only: bool,
) -> None:
    """Start a game (or resume one) and play it; every action saved as it happens."""
    screen = terminal(no_color, ascii_only)
    asker = asker_for()
    folder = carousel_games_folder()
    coach_on = None if coach is None else _coach_on(coach)
    if resume is not None:
        options = (
            ("--players", players),
            ("--bot", bot),
            ("--seed", seed),
            ("--round", one_round or None),
        )
        given = [name for name, value in options if value is not None]
        if given:
            raise GinError(
                _(
                    "--resume goes on with the saved game's own players, bots and seed: leave "
                    "out {option}",
                    option=given[0],
                )
            )
        runner = _resumed(resume, folder, coach_on, screen, asker, ascii_only)
    else:
        runner = _new_game(
            players, bot, seed, one_round, coach_on, folder, screen, asker, ascii_only
        )
    runner.run_saved()


def _coach_on(text: str) -> bool:
    word = text.strip().lower()
    if word not in ("on", "off"):
        raise GinError(_("--coach {value}: use on or off", value=repr(text)))
    return word == "on"


def _level(text: str) -> BotLevel:
    levels = {level.value: level for level in BotLevel}
    found = levels.get(text.strip().lower())
    if found is None:
        raise GinError(
            _("--bot {value}: use {choices}", value=repr(text), choices=" or ".join(levels))
        )
    return found


def _new_game(
    players: int | None,
    bot: str | None,
    seed: int | None,
    one_round: bool,
    coach: bool | None,
    folder: Path,
    terminal: Terminal,
    asker: Asker,
    ascii_only: bool,
) -> CarouselRunner:
    players = DEFAULT_PLAYERS if players is None else players
    decks_for(players)
    level = DEFAULT_BOT if bot is None else _level(bot)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    setup = Setup(players, level, seed, one_round, True if coach is None else coach)
    writer, header = CarouselWriter.create(
        folder,
        players=players,
        bot=level,
        coach=setup.coach,
        seed=seed,
        one_round=one_round,
        now=now(),
    )
    runner = CarouselRunner(CarouselSession(setup, writer), terminal, asker, ascii_only)
    runner.writer = writer
    values = {
        "game": header.id,
        "target": setup.rules.game_target,
        "bots": players - 1,
        "level": level.value,
        "seed": seed,
    }
    if one_round:
        runner.say(
            _(
                "New game {game}: Carousel, one round, against {bots} {level} bots (seed "
                "{seed}; --seed {seed} deals it again). Type help for what you can type.",
                **values,
            )
        )
    else:
        runner.say(
            _(
                "New game {game}: Carousel to {target}, against {bots} {level} bots (seed "
                "{seed}; --seed {seed} deals it again). Type help for what you can type.",
                **values,
            )
        )
    return runner


def _resumed(
    which: str,
    folder: Path,
    coach: bool | None,
    terminal: Terminal,
    asker: Asker,
    ascii_only: bool,
) -> CarouselRunner:
    saved = load_carousel_game(find_carousel_game(which, folder, unfinished=True))
    if saved.end is not None:
        raise GinError(
            _(
                "game {game} is over ({end}): start a new one with gintutor carousel play",
                game=saved.id,
                end=saved.end,
            )
        )
    header = saved.header
    setup = Setup(
        header.players,
        header.bot,
        header.seed,
        header.one_round,
        header.coach if coach is None else coach,
    )
    writer = CarouselWriter.resume(saved)
    session = CarouselSession(setup, writer)
    try:
        session.resume([saved_round.entries for saved_round in saved.rounds])
    except GinError:
        writer.close()
        raise
    runner = CarouselRunner(session, terminal, asker, ascii_only)
    runner.writer = writer
    for note in resume_notes(saved.problems, writer.kept_damage):
        runner.say(note)
    runner.say(
        _(
            "Resuming game {game} (seed {seed}, {bots} {level} bots), round {round}.",
            game=saved.id,
            seed=header.seed,
            bots=header.players - 1,
            level=header.bot.value,
            round=max(session.number, 1),
        )
    )
    return runner


class CarouselRunner:
    """Deals, plays the bots' turns, asks the learner, shows the end of each round."""

    def __init__(
        self, session: CarouselSession, terminal: Terminal, asker: Asker, ascii_only: bool
    ) -> None:
        self.session = session
        self.terminal = terminal
        self.asker = asker
        self.style = Style(ascii_only=ascii_only)
        self.names = [_("You")] + [f"Bot{i}" for i in range(2, session.players + 1)]
        self.writer: CarouselWriter | None = None
        """The saved game (``None``: not saved)."""

    def sync(self) -> None:
        """Put the saved game's lines on disk (before every question)."""
        if self.writer is not None:
            self.writer.sync()

    def run_saved(self) -> None:
        """Play to the end, saving; ``quit``, Ctrl-C or the end of input leave the game saved
        and say how to go on."""
        writer = self.writer
        assert writer is not None
        game = writer.path.stem
        try:
            sheet = self.session.sheet
            if self.session.game_over and sheet is not None:
                # Resumed after its last round ended, before the end was written.
                self.show(explain_sheet(sheet, self.names, one_round=self.session.setup.one_round))
            self.run()
            writer.end("finished")
            self.say(
                _(
                    "Game over. Saved as {game}; see each of your turns against the best play "
                    "with: gintutor carousel review {game}",
                    game=game,
                )
            )
        except (Quit, KeyboardInterrupt):
            self.say(
                "\n"
                + _(
                    "Game saved as {game}. Go on with: gintutor carousel play --resume",
                    game=game,
                )
            )
        finally:
            writer.close()

    def say(self, text: str) -> None:
        self.terminal.show([Line(text)])

    def show(self, blocks: list[Block]) -> None:
        self.terminal.show(blocks)

    def run(self) -> None:
        """Play rounds until the game (or the one round) is over."""
        session = self.session
        while not session.game_over:
            if not session.in_round:
                session.deal()
                self.say(
                    _("Round {number} (deal seed {seed}).").format(
                        number=session.number, seed=session_seed(session)
                    )
                )
            while session.in_round:
                if session.your_turn:
                    self.turn()
                else:
                    player = session.round.player
                    entries = session.bot_turn()
                    self.say(
                        bot_turn_text(
                            entries,
                            self.names[player],
                            len(session.round.hands[player]),
                            self.style,
                        )
                    )
            result = session.end_round()
            self.show(round_over_blocks(result, session.round.hands, self.names, self.style))
            sheet = session.sheet
            assert sheet is not None
            self.show(explain_sheet(sheet, self.names, one_round=session.setup.one_round))

    def view(self, touched: tuple[int, ...] = ()) -> list[Block]:
        """The table view: numbered melds, stock, players' cards and scores, your hand."""
        session = self.session
        round_ = session.round
        sheet = session.sheet
        return play_view(
            session.draft,
            len(round_.stock),
            self.names,
            [len(hand) for hand in round_.hands],
            sheet.running[-1] if sheet is not None else None,
            self.style,
            touched,
        )

    def narrate(self, entries: list[LogEntry]) -> None:
        for entry in entries:
            text = entry_text(entry, self.names[entry.player], self.style, you=entry.player == 0)
            if text is not None:
                self.say(text)

    def turn(self) -> None:
        """The learner's next step: an automatic draw, or one decision (play, or knock/end)."""
        session = self.session
        entries = session.auto()
        if entries:
            self.narrate(entries)
            return
        self.sync()
        if session.may_play:
            self.decide_play()
        else:
            self.decide_knock()

    def decide_knock(self) -> None:
        """After a play (or the last draw) with a hand you may knock with: knock or done."""
        session = self.session
        points = session.round.hand.points

        def validate(text: str) -> str | None:
            word = text.strip().lower()
            if word in ("knock", "done", "end", "help", "table", "sheet"):
                return None
            return _("type knock or done")

        while True:
            reply = self.asker.ask(
                Prompt(
                    _("{points} points in hand: knock or done?").format(points=points),
                    ["knock", "done", "help", "table", "sheet"],
                    validate,
                )
            )
            if isinstance(reply, Command):
                self.say(_("  (knock, or done to end your turn)"))
                continue
            word = reply.strip().lower()
            if word == "knock":
                self.narrate(session.knock())
                return
            if word in ("done", "end"):
                self.narrate(session.end_turn())
                return
            self.other_word(word)

    def other_word(self, word: str) -> None:
        session = self.session
        if word == "help":
            self.show(play_help_blocks(session.rules))
        elif word == "table":
            self.show(self.view())
        elif word == "sheet":
            sheet = session.sheet
            if sheet is None:
                self.say(_("  (no round has ended yet)"))
            else:
                self.show(explain_sheet(sheet, self.names))

    def decide_play(self) -> None:
        """Edits until the play is made, or the learner draws, passes or knocks."""
        session = self.session
        self.show(self.view())

        def validate(text: str) -> str | None:
            try:
                reply = read_reply(text)
                if isinstance(reply, Edit):
                    reply.apply(session.draft)
                elif isinstance(reply, Table):
                    session.verify(reply)
            except GinError as error:
                return error_text(error)
            return None

        while True:
            answer = self.asker.ask(
                Prompt(
                    _("edit, done, draw, knock, best, hint, undo or help:"),
                    session.completions(),
                    validate,
                )
            )
            if answer is Command.SKIP:
                self.say(_("  (nothing to skip: type draw to place nothing)"))
                continue
            reply = Word.HINT if answer is Command.HINT else read_reply(str(answer))
            if self.act(reply):
                return

    def act(self, reply: Word | Edit | Table) -> bool:
        """Carry out one reply at a play decision; True when the decision is over."""
        session = self.session
        try:
            if isinstance(reply, Edit):
                before = session.draft
                session.edit(reply)
                self.show(self.view(reply.touched(before)))
                return False
            if isinstance(reply, Table):
                return self.commit(reply, knock=False, ask_knock=True)
            if reply is Word.UNDO:
                session.undo()
                self.show(self.view())
                return False
            if reply is Word.HINT:
                hint = session.hint()
                self.show(
                    hint_blocks(
                        hint.level, hint.play, hint.table, hint.hand, session.rules, self.style
                    )
                )
                return False
            if reply is Word.BEST:
                play = session.best()
                if play is None:
                    self.say(_("No card of your hand can be placed: you draw again."))
                    self.narrate(session.pass_turn())
                    return True
                return self.commit(play.table, knock=False, ask_knock=True)
            if reply is Word.DRAW:
                return self.place_nothing()
            if reply is Word.DONE:
                if not session.draft.changed:
                    return self.place_nothing()
                return self.commit(session.finished_draft(), knock=False, ask_knock=False)
            if reply is Word.KNOCK:
                if not session.draft.changed:
                    raise GinError("you may knock after your turn: place cards first, or draw")
                table = session.finished_draft()
                if not session.can_knock_after(table):
                    left = (session.round.hand - session.verify(table)).points
                    raise GinError(
                        _(
                            "this play leaves {left} points in hand: you may knock with at "
                            "most {limit}"
                        ).format(left=left, limit=session.rules.knock_limit)
                    )
                return self.commit(table, knock=True, ask_knock=False)
            if reply is Word.QUIT:
                raise Quit
            self.other_word(reply.value)
            return False
        except GinError as error:
            self.say(f"  ({error_text(error)})")
            return False

    def confirm_warning(self, warning: Warning | None) -> bool:
        """Show the coach's warning and ask whether to go ahead; True to go ahead."""
        if warning is None:
            return True
        session = self.session
        self.say(warning_text(warning.left, warning.best_left, warning.passing))

        def validate(text: str) -> str | None:
            if text.strip().lower() in ("y", "yes", "n", "no", "show"):
                return None
            return _("type y to go ahead, n to take it back, or show")

        while True:
            reply = self.asker.ask(
                Prompt(
                    _("Go ahead anyway? y, n (take it back) or show (the better play):"),
                    ["yes", "no", "show"],
                    validate,
                )
            )
            word = str(reply.value if isinstance(reply, Command) else reply).strip().lower()
            if word == "show" or reply is Command.HINT:
                round_ = session.round
                self.show(
                    explain_play(
                        round_.table, round_.hand, warning.play, session.rules, self.style
                    )[3:]
                )
                continue
            if word in ("y", "yes"):
                return True
            self.say(_("Taken back: go on with your turn (best plays the better play)."))
            return False

    def place_nothing(self) -> bool:
        session = self.session
        warning = session.check(None)
        if not self.confirm_warning(warning):
            return False
        self.narrate(session.pass_turn(warning))
        return True

    def commit(self, table: Table, *, knock: bool, ask_knock: bool) -> bool:
        """Play ``table`` (after the coach's check); then knock, end the turn or ask."""
        session = self.session
        warning = session.check(table)
        if not self.confirm_warning(warning):
            return False
        self.narrate(session.play(table, warning))
        if not session.in_round:
            return True
        if knock:
            self.narrate(session.knock())
        elif not ask_knock or not session.round.can_knock():
            self.narrate(session.end_turn())
        return True


def session_seed(session: CarouselSession) -> int:
    """The deal seed of the round being played."""
    return round_seed(session.setup.seed, session.number)
