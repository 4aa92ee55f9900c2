"""Asking the learner: prompt-toolkit on a terminal, plain lines when input is piped.

Both ask one question at a time and return what was typed, or a :class:`Command` (``hint``,
``skip``, ``quit``). Input that is not an answer (``you don't hold 9S``) is refused before it
counts as a try: the reason is shown and the question asked again with an empty line.
Ctrl-C and Ctrl-D (end of input) become :class:`Quit`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol, TextIO

from gintutor.text.blocks import visible
from gintutor.text.i18n import _, pgettext

if TYPE_CHECKING:  # annotations only: prompt_toolkit is imported by the prompt that uses it
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.input import Input
    from prompt_toolkit.key_binding import KeyPressEvent
    from prompt_toolkit.output import Output


def is_yes(reply: str) -> bool:
    """``y``/``yes``, or the active language's yes (Indonesian ``ya``, Norwegian ``ja``/``j``,
    Portuguese ``sim``/``s``) to a yes-or-no question.

    >>> is_yes("y"), is_yes("yes"), is_yes("no")
    (True, True, False)
    """
    word = reply.strip().lower()
    local = pgettext("answer", "yes").lower()
    return word in ("y", "yes", local, local[:1])


class Command(Enum):
    """Words the learner may type instead of an answer."""

    HINT = "hint"
    SKIP = "skip"
    QUIT = "quit"


_COMMANDS = {
    "hint": Command.HINT,
    "?": Command.HINT,
    "skip": Command.SKIP,
    "quit": Command.QUIT,
    "exit": Command.QUIT,
    "q": Command.QUIT,
}


class Quit(Exception):
    """The learner left (``quit``, Ctrl-C or end of input); progress is already saved."""


LONGEST_LINE = 64 * 1024
"""The longest answer line read from a pipe (an answer is a few words)."""

Validate = Callable[[str], str | None]
"""Returns why the text is not an answer, or ``None`` when it may be judged."""


@dataclass(frozen=True)
class Prompt:
    """What to ask: the prompt text, words to complete, and the validator."""

    text: str
    completions: Sequence[str] = ()
    validate: Validate | None = None
    keys: Sequence[tuple[str, str]] = ()
    """On a terminal: keys that answer at once with a word (``("left", "p")``: ← types p)."""


class Asker(Protocol):
    """Asks one question; returns the answer text or a command."""

    interactive: bool
    """A person at a terminal (the coach may think while they do), not piped lines."""

    def ask(self, prompt: Prompt) -> str | Command: ...

    def confirm(self, question: str, default: bool = False) -> bool: ...


def command_of(text: str) -> Command | None:
    """The command a reply names, if any."""
    return _COMMANDS.get(text.strip().lower())


def completions_for(words: Sequence[str], typed: str) -> list[str]:
    """The words that complete ``typed``, any case; ``10`` stands for ``T`` as in card codes.

    >>> completions_for(["TS", "TH", "9S", "hint"], "10")
    ['TS', 'TH']
    >>> completions_for(["TS", "TH", "9S", "hint"], "h")
    ['hint']
    """
    prefix = typed.strip().upper()
    if prefix.startswith("10"):
        prefix = "T" + prefix[2:]
    return [word for word in words if word.upper().startswith(prefix)]


class PlainAsker:
    """Reads answers line by line (for scripts, tests and pipes)."""

    interactive = False

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self._first = True

    def _read(self) -> str | None:
        """The next line ('' at the end of input), or ``None`` when it is not UTF-8 text.

        Bytes are read from the binary buffer when there is one, so that one bad line cannot
        jam the text decoder for the lines after it. A UTF-8 byte-order mark where the input
        starts is dropped; a line longer than :data:`LONGEST_LINE` (``< /dev/zero``) ends the
        input, in bounded memory.
        """
        first, self._first = self._first, False
        raw = getattr(self.stdin, "buffer", None)
        text: str | None
        if raw is None:
            try:
                text = self.stdin.readline(LONGEST_LINE + 1)
            except UnicodeDecodeError:
                return None
            size = len(text)
        else:
            data: bytes = raw.readline(LONGEST_LINE + 1)
            size = len(data)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = None
        if size > LONGEST_LINE:
            ended = _("(a line longer than {limit} bytes: input ends here)", limit=LONGEST_LINE)
            self.stdout.write(f"\n  {ended}")
            return ""
        return text.removeprefix("\ufeff") if text is not None and first else text

    def _line(self, text: str) -> str:
        self.stdout.write(text)
        self.stdout.flush()
        try:
            line = self._read()
        except KeyboardInterrupt:
            self.stdout.write("\n")
            raise Quit from None
        if line is None:
            # A line that is not UTF-8 is no answer: say so and read the next one.
            self.stdout.write("\n  (that line is not UTF-8 text: type the answer again)\n")
            return ""
        if not line:
            self.stdout.write("\n")
            raise Quit
        # Piped input is not echoed by a terminal: write it so the transcript reads well.
        answer = line.rstrip("\n")
        self.stdout.write(visible(answer.rstrip("\r")) + "\n")
        return answer

    def ask(self, prompt: Prompt) -> str | Command:
        while True:
            reply = self._line(f"{prompt.text} ")
            command = command_of(reply)
            if command is Command.QUIT:
                raise Quit
            if command is not None:
                return command
            if not reply.strip():
                continue
            problem = prompt.validate(reply) if prompt.validate else None
            if problem is None:
                return reply
            self.stdout.write(f"  ({problem})\n")

    def confirm(self, question: str, default: bool = False) -> bool:
        """Yes or no; Enter means ``default``, the end of input means no."""
        try:
            reply = self._line(f"{question} [{'Y/n' if default else 'y/N'}] ").strip().lower()
        except Quit:
            return False
        return is_yes(reply) or (default and reply == "")


class TerminalAsker:
    """prompt-toolkit: completion of what makes sense, validation, history, F2 for a hint.

    Every Ctrl-C ends the question as :class:`Quit`. prompt-toolkit's own SIGINT handling is
    off (``handle_sigint=False``): while a prompt runs, the terminal is raw and Ctrl-C is a key,
    whose binding ends the prompt with ``KeyboardInterrupt``; as a prompt opens or closes, the
    terminal is cooked and Ctrl-C is a SIGINT signal, which prompt-toolkit turned into a key
    press queued for a prompt already closed: ``Exception: Application is not running.
    Application.exit() failed.``, and the Ctrl-C was lost (1 in 20 bursts of refused entries
    and Ctrl-C). Left to Python and asyncio, the signal is a ``KeyboardInterrupt`` wherever it
    lands.
    """

    interactive = True

    def __init__(self, input: Input | None = None, output: Output | None = None) -> None:
        # prompt-toolkit only on an interactive terminal: ~270-350 ms of CPU to import (python
        # -X importtime, load ~5 on 2 cores), most of a start; piped input never loads it.
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        self.session: PromptSession[str] = PromptSession(
            history=InMemoryHistory(), input=input, output=output
        )

    def ask(self, prompt: Prompt) -> str | Command:
        # Loaded with the session above (already imported by then).
        from prompt_toolkit.completion import Completer, Completion
        from prompt_toolkit.key_binding import KeyBindings

        bindings = KeyBindings()

        def _answer(word: str) -> Callable[[KeyPressEvent], None]:
            def handler(event: KeyPressEvent) -> None:
                event.app.current_buffer.text = word
                event.app.current_buffer.validate_and_handle()

            return handler

        bindings.add("f2")(_answer("hint"))
        for key, word in prompt.keys:
            bindings.add(key)(_answer(word))

        words = [*prompt.completions, "hint", "skip", "quit"]

        class _Words(Completer):
            def get_completions(
                self, document: Document, complete_event: CompleteEvent
            ) -> Iterator[Completion]:
                typed = document.get_word_before_cursor(WORD=True)
                for word in completions_for(words, typed):
                    yield Completion(word, start_position=-len(typed))

        try:
            while True:
                reply: str = self.session.prompt(
                    f"{prompt.text} ",
                    completer=_Words(),
                    complete_while_typing=True,
                    key_bindings=bindings,
                    bottom_toolbar=" hint (F2) · skip · quit ",
                    handle_sigint=False,  # see the class's docstring
                )
                if not reply.strip():
                    continue
                command = command_of(reply)
                problem = (
                    None
                    if command is not None or prompt.validate is None
                    else (prompt.validate(reply))
                )
                if problem is None:
                    break
                # The entry is refused before it counts: say why and ask on a clean line.
                print(f"  ({problem})")
            if command is Command.QUIT:
                raise Quit
            return command if command is not None else reply
        except (KeyboardInterrupt, EOFError):
            raise Quit from None

    def confirm(self, question: str, default: bool = False) -> bool:
        """Yes or no; Enter means ``default``."""
        try:
            reply: str = self.session.prompt(
                f"{question} [{'Y/n' if default else 'y/N'}] ", handle_sigint=False
            )
            answer = reply.strip().lower()
            return is_yes(answer) or (default and answer == "")
        except (KeyboardInterrupt, EOFError):
            raise Quit from None


def asker_for(stdin: TextIO | None = None) -> Asker:
    """prompt-toolkit on an interactive terminal, plain lines otherwise."""
    stream = stdin or sys.stdin
    if stream.isatty() and sys.stdout.isatty():
        return TerminalAsker()
    return PlainAsker(stream)
