"""What the commands share: the usage error, the help layout, the common options, the worker
count, the progress bar and the terminal.

A leaf of the command line: it imports no other command module, so every command group
(``cli/app.py``, ``cli/match.py``, ``cli/carousel.py``, ...) imports it and none imports another.
Only public Typer API: Typer (since 0.26) vendors Click and exports none of Click's classes but
:class:`typer.BadParameter`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from gintutor.cli.guard import shortened
from gintutor.cli.language import click_text, localize_help
from gintutor.errors import GinError
from gintutor.text.i18n import _, error_text

if TYPE_CHECKING:
    from pathlib import Path

    from gintutor.cli.render import Terminal


class UsageError(GinError):
    """Bad command-line usage that the engine cannot see (a missing option): exit 2."""


class ContentError(GinError):
    """A problem in what the command read or did, not in its command line (a damaged game
    log, no saved game yet, a match that could not finish): exit 1."""

    exit_code = 1


def _command_line_error() -> type[Exception]:
    """The class of every error Typer finds in a command line (no such option, a missing
    argument, a value out of range): Click's ``UsageError``, which Typer exports only through
    its subclass :class:`typer.BadParameter` (exit status 2 in Click's contract)."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "UsageError":
            return cls
    return typer.BadParameter  # pragma: no cover (a Typer without Click's hierarchy)


CommandLineError = _command_line_error()


def usage_exit(error: Exception) -> typer.Exit:
    """A bad option or argument as one ``error:`` line naming the command's help (exit 2)."""
    message = getattr(error, "format_message", error.__str__)()
    if type(error).__name__ == "NoArgsIsHelpError":
        # A group run without a command (no_args_is_help): its help page is the message, shown
        # as Click shows it, on stderr with exit status 2, not as an error line.
        typer.echo(message, err=True)
        return typer.Exit(2)
    context = getattr(error, "ctx", None)
    command = context.command_path if context is not None else "gintutor"
    seen = _(
        "{message} (see '{command} --help')",
        message=shortened(click_text(message)),
        command=command,
    )
    typer.echo(_("error: {message}", message=seen), err=True)
    return typer.Exit(2)


def _with_context(error: Exception, ctx: Any) -> Exception:
    """``error`` knowing the command it was found in: Click's option parser raises a missing
    value (``Option '--seed' requires an argument.``) without it, and :func:`usage_exit` would
    name the root's help instead of the command's (``gintutor carousel play --help``)."""
    if getattr(error, "ctx", None) is None:
        error.ctx = ctx  # type: ignore[attr-defined]
    return error


class Command(TyperCommand):
    """A command whose help page names each argument by its metavar (``HAND``), without the
    value's type that Typer appends (``HAND <list[str]>``): the metavar already says it."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except CommandLineError as error:
            raise _with_context(error, ctx) from None

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append((param.metavar or record[0], record[1]))
            elif param.param_type_name == "option":
                options.append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)


Builder = Callable[[], Any]
"""Builds one Click command or group from its Typer app (:func:`subcommand`, :func:`subgroup`)."""


class _Built(MutableMapping[str, Any]):
    """A group's Click commands, each built by its :data:`Builder` when first asked for (a run
    asks for one; the help page, a typo's suggestions and completion for all)."""

    def __init__(
        self,
        builders: dict[str, Builder],
        built: MutableMapping[str, Any],
        ready: Callable[[Any], None],
    ) -> None:
        self._builders = builders
        self._built = dict(built)
        self._ready = ready

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            command = self._builders[name]()  # KeyError: no such command
            self._ready(command)
            self._built[name] = command
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        self._builders.pop(name, None)
        del self._built[name]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._builders, *self._built]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*self._builders, *self._built]))

    def built(self) -> list[Any]:
        """The commands built so far."""
        return list(self._built.values())


class LazyCommands(TyperGroup):
    """A command group whose commands Typer builds only when one is asked for (Click's lazy
    loading of subcommands): building one evaluates its annotations into Click parameters,
    and a run needs only the one it runs. :attr:`builders` holds each command's builder
    (:func:`subcommand`, :func:`subgroup`), in the order the help page lists them; a command
    built after the language was chosen gets its help texts in it (:meth:`ready`).

    Measured: building the whole app took 59 ms of CPU here, the app with the one command run
    5-7 ms; the ``carousel`` group with all six of its commands 18 ms, the group with the one
    command run 8.5 ms. ``play`` (EOF) is 1.31x the bare Typer + Rich app's least CPU with
    one command built, 1.43x with every command built.
    """

    builders: ClassVar[dict[str, Builder]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Built(self.builders, self.commands, self.ready)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except CommandLineError as error:
            raise _with_context(error, ctx) from None

    def ready(self, command: Any) -> None:
        """Put a command just built in the active language (the root's help texts were put in
        it as the language was chosen, before any command was built)."""
        localize_help(command)


def lazy_group(builders: dict[str, Builder]) -> type[LazyCommands]:
    """A :class:`LazyCommands` class whose commands ``builders`` builds."""
    return type("LazyCommands", (LazyCommands,), {"builders": builders})


F = TypeVar("F", bound=Callable[..., Any])


def subcommand(builders: dict[str, Builder], name: str, **options: Any) -> Callable[[F], F]:
    """Register the decorated function as the command ``name`` of a :class:`LazyCommands`
    group's ``builders`` (a one-command Typer app, built as a group would build it)."""
    one = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)
    builders[name] = lambda: typer.main.get_command(one)
    return one.command(name, cls=Command, **options)


def subgroup(builders: dict[str, Builder], group: typer.Typer) -> None:
    """Register the Typer app ``group`` (made with ``name=`` and ``rich_markup_mode=None``) as
    a command group of a :class:`LazyCommands` group's ``builders``."""
    name = group.info.name
    assert isinstance(name, str), "a subgroup's Typer app is made with its name"
    builders[name] = lambda: typer.main.get_group(group)


HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
"""``-h`` works like ``--help`` everywhere."""

NoColorOption = Annotated[bool, typer.Option("--no-color", help="No colour (NO_COLOR works too).")]
AsciiOption = Annotated[bool, typer.Option("--ascii", help="Write suits as C D H S, not symbols.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


MAX_JOBS = 64
"""The most worker processes a ``--jobs`` option may ask for (``0``, one per core, is not
capped): each is a forked process, and ``--jobs 99999`` started processes until the system ran
out (909 of them in 6 s from ``puzzles generate``)."""

JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", metavar="N", min=0, max=MAX_JOBS, help="Processes to use (0: one per core)."
    ),
]
"""Typer refuses a negative number or one over :data:`MAX_JOBS` before any work."""

MAX_WORLDS = 100_000
"""The most sampled worlds a decision may take (``match --worlds``, ``review --worlds``)."""


def workers(jobs: int) -> int:
    """The processes ``--jobs`` asks for (every command that takes it): 0 is one per core."""
    return jobs or os.cpu_count() or 1


@contextmanager
def progress_bar(what: str) -> Iterator[Callable[[int, int], None]]:
    """A Rich progress bar on standard error when it is a terminal; nothing when piped."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    # Only on a terminal: rich.progress costs ~40-90 ms of CPU to import (python -X importtime,
    # load ~5 on 2 cores), a tenth to a fifth of the bare Typer + Rich app's start.
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(what, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def terminal(no_color: bool, ascii_only: bool) -> Terminal:
    """The one owner of the Rich console for a command's output.

    Rich is loaded here, when a command prints text, not by the modules that import this one:
    ``--json`` output, ``--help`` and usage errors never load it (``analyze HAND --json``
    0.89x the bare Typer + Rich app's least CPU, ``analyze HAND`` 1.06x: bench_startup.py,
    10 rounds, load ~8)."""
    from gintutor.cli.render import Terminal

    return Terminal.for_stream(color=not no_color, ascii_only=ascii_only)


def resume_notes(problems: Iterable[str], kept_damage: Path | None) -> list[str]:
    """What a resumed game's file told its reader (a cut-short or damaged line), as notes."""
    notes = [_("note: {problem}", problem=error_text(problem)) for problem in problems]
    if kept_damage is not None:
        notes.append(
            _("note: the file as it was, damage included, is kept as {path}", path=kept_damage)
        )
    return notes
