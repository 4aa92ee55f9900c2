"""``gintutor carousel play`` at work: the game loop on the terminal.

The session (``tutor/carouselplay.py``) decides and the text layer (``text/carousel.py``) words
it; this module only asks, shows and confirms the coach's warnings.
"""

from __future__ import annotations

from typing import Any

from gintutor.cli.prompts import Asker, Command, Prompt, Quit
from gintutor.cli.render import Terminal
from gintutor.engine.carousel.cards import Table
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
from gintutor.text.i18n import _
from gintutor.tutor.carouselplay import CarouselSession, Edit, Warning, Word, read_reply


class CarouselRunner:
    """Deals, plays the bots' turns, asks the learner, shows the end of each round."""

    def __init__(
        self, session: CarouselSession, terminal: Terminal, asker: Asker, ascii_only: bool
    ) -> None:
        self.session = session
        self.terminal = terminal
        self.asker = asker
        self.style = Style(ascii_only=ascii_only)
        self.names = ["You"] + [f"Bot{i}" for i in range(2, session.players + 1)]
        self.sync: Any = lambda: None
        """Called before every question (the saved game's lines go to disk)."""

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

    def narrate(self, entries: list[Any]) -> None:
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
            return "type knock or done"

        while True:
            reply = self.asker.ask(
                Prompt(
                    _("{points} points in hand: knock or done?").format(points=points),
                    ["knock", "done", "help", "table", "sheet"],
                    validate,
                )
            )
            if isinstance(reply, Command):
                self.say("  (knock, or done to end your turn)")
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
                self.say("  (no round has ended yet)")
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
                return str(error)
            return None

        while True:
            answer = self.asker.ask(
                Prompt(
                    "edit, done, draw, knock, best, hint, undo or help:",
                    session.completions(),
                    validate,
                )
            )
            if answer is Command.SKIP:
                self.say("  (nothing to skip: type draw to place nothing)")
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
                    self.say("No card of your hand can be placed: you draw again.")
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
            self.say(f"  ({error})")
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
            return "type y to go ahead, n to take it back, or show"

        while True:
            reply = self.asker.ask(
                Prompt(
                    "Go ahead anyway? y, n (take it back) or show (the better play):",
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
            self.say("Taken back: go on with your turn (best plays the better play).")
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
    from gintutor.tutor.carouselplay import round_seed

    return round_seed(session.setup.seed, session.number)
