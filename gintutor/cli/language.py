"""The language of a run: chosen before anything is printed, saved in the data folder.

``--lang`` (a root option: ``gintutor --lang id learn``), then ``GINTUTOR_LANG``, then the
saved setting (``gintutor settings lang id``), then ``LANGUAGE`` / ``LC_ALL`` /
``LC_MESSAGES`` / ``LANG``, then English (:func:`gintutor.text.i18n.choose`). The choice is
made from the raw arguments as the root command's context is made, so help pages, errors
about the arguments and the command's own output all speak it.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gintutor.content.store import SETTINGS, data_dir, write_atomically
from gintutor.content.textfile import FileError, read_bytes
from gintutor.errors import GinError, Phrase
from gintutor.text.i18n import ENGLISH, LANGUAGES, N_, _, active, choose, normalize, use

HELP_WORDS = (
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)
"""Help texts that Typer and Click write themselves, translated like ours."""

HELP_HEADINGS = {
    "Usage: ": N_("Usage: "),
    "Arguments": N_("Arguments"),
    "Options": N_("Options"),
    "Commands": N_("Commands"),
    "[required]": N_("[required]"),
    "[default: ": N_("[default: "),
}
"""The words of a help page that Click writes in English: its usage line's prefix, the
sections' titles, an option's required and default marks."""


CLICK_MESSAGES = (
    N_("No such command {name}. Did you mean {choices}?"),
    N_("No such command {name}."),
    N_("Missing command."),
    N_("No such option: {option} (Possible options: {choices})"),
    N_("No such option: {option}"),
    N_("Missing argument {name}."),
    N_("Missing option {name}."),
    N_("Invalid value for {name}: {reason}"),
    N_("Invalid value: {reason}"),
    N_("Got unexpected extra argument(s) ({arguments})"),
    N_("Option {option} requires an argument."),
    N_("Option {option} requires {count} arguments."),
    N_("Option {option} does not take a value."),
    N_("Argument {name} takes {count} values."),
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid integer, got a number with a fractional part"),
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be less than or equal to {limit}"),
    N_("Input should be greater than or equal to {limit}"),
)
"""The usage errors that Typer's vendored Click (and the pydantic checks of an option's type
and range) write in English, as they write them: Typer 0.29 builds them with f-strings, not
gettext, so no catalog can reach them where they are made. :func:`click_text` reads one back
into its template and values and gives it in the active language (a test holds each template
equal to what Typer writes today). The first template that matches wins: the longer of two
with the same start comes first."""


def click_text(message: str) -> str:
    """A usage error's message as Click wrote it, in the active language: matched whole
    against :data:`CLICK_MESSAGES` (a reason inside ``Invalid value for ...`` too); as it
    was when no template matches (a newer Typer's words) or English is active.

    >>> click_text("No such command 'anlyze'.")
    "No such command 'anlyze'."
    """
    if active() == ENGLISH:
        return message
    found = click_message(message)
    if found is None:
        return message
    template, values = found
    if "reason" in values:
        values["reason"] = click_text(values["reason"])
    return _(template, **values)


def click_message(message: str) -> tuple[str, dict[str, str]] | None:
    """The template of :data:`CLICK_MESSAGES` that wrote ``message``, and its values; ``None``
    for words of Click's that it does not hold.

    >>> click_message("Missing argument 'HAND'.")
    ('Missing argument {name}.', {'name': "'HAND'"})
    """
    for template, pattern in _click_patterns():
        found = pattern.fullmatch(message)
        if found is not None:
            return template, found.groupdict()
    return None


def _click_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Each of :data:`CLICK_MESSAGES` with the expression that reads it (built on the first
    usage error of a run, never at start)."""
    if not _PATTERNS:
        for template in CLICK_MESSAGES:
            parts = re.split(r"\{(\w+)\}", template)
            expression = "".join(
                re.escape(part) if index % 2 == 0 else f"(?P<{part}>.+?)"
                for index, part in enumerate(parts)
            )
            _PATTERNS.append((template, re.compile(expression, re.DOTALL)))
    return _PATTERNS


_PATTERNS: list[tuple[str, re.Pattern[str]]] = []


def lang_argument(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` among the root options (before the command's name).

    >>> lang_argument(["--lang", "id", "learn"]), lang_argument(["--lang=nb", "--help"])
    ('id', 'nb')
    >>> lang_argument(["analyze", "--lang", "id"]) is None
    True
    """
    for index, word in enumerate(argv):
        if word == "--lang":
            return argv[index + 1] if index + 1 < len(argv) else None
        if word.startswith("--lang="):
            return word.removeprefix("--lang=")
        if not word.startswith("-"):
            return None
    return None


def settings_path() -> Path:
    return data_dir() / SETTINGS


MAX_SETTINGS_BYTES = 64 * 1024


def read_settings() -> dict[str, Any]:
    """The saved settings (empty when there are none, or the file is not a small JSON
    object: ``gintutor settings lang`` overwrites it)."""
    try:
        path = settings_path()
        path.stat()
    except (OSError, GinError):  # GINTUTOR_HOME unusable: the command says so
        return {}  # the common case, at every start
    try:
        data = json.loads(read_bytes(path, Phrase("the settings"), MAX_SETTINGS_BYTES))
    except (FileError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def saved_language() -> str | None:
    value = read_settings().get("lang")
    return value if isinstance(value, str) else None


def save_language(value: str | None) -> None:
    """Save ``value`` as the language (``None``: follow the environment again)."""
    settings = read_settings()
    if value is None:
        settings.pop("lang", None)
    else:
        settings["lang"] = value
    text = json.dumps(settings, indent=2, sort_keys=True) + "\n"
    write_atomically(settings_path(), text, make_folder=True)


def activate(argv: Sequence[str]) -> None:
    """Speak the language ``argv`` and the environment ask for; a language gintutor does
    not speak is a one-line warning on stderr, and English."""
    language, warning = choose(lang_argument(argv), saved_language)
    if warning is not None:
        print(warning, file=sys.stderr)
    use(language)


def localize_help(command: Any) -> None:
    """Put ``command``'s help texts (and its subcommands', its options') in the active
    language: Typer builds them from English docstrings and ``help=`` texts before the
    language is known. The catalog holds them as :func:`help_text` gives them."""
    if active() == ENGLISH:
        return
    for name in ("help", "short_help", "epilog"):
        text = getattr(command, name, None)
        if text:
            setattr(command, name, _(help_text(text)))
    for param in getattr(command, "params", ()):
        if getattr(param, "help", None):
            param.help = _(help_text(param.help))
    commands = getattr(command, "commands", {})
    # A lazy group (cli/shared.py's LazyCommands) puts each command in the language as it
    # builds it: only those built so far are done here, none built for this.
    built = getattr(commands, "built", None)
    for sub in built() if built is not None else commands.values():
        localize_help(sub)
    make_help_option = getattr(command, "get_help_option", None)
    if make_help_option is not None:
        # Click makes the -h/--help option when a help page or the arguments need it.
        def get_help_option(ctx: Any) -> Any:
            option = make_help_option(ctx)
            if option is not None and option.help == HELP_WORDS[0]:
                option.help = _(HELP_WORDS[0])
            return option

        command.get_help_option = get_help_option
    format_help = getattr(command, "format_help", None)
    if format_help is not None:
        command.format_help = _headings_translated(format_help)


def _headings_translated(format_help: Any) -> Any:
    """``format_help`` writing the page's headings in the active language: through the
    formatter's public ``write_usage`` and ``section`` (Typer offers no setting for them)."""

    def translated(ctx: Any, formatter: Any) -> None:
        write_usage, section = formatter.write_usage, formatter.section

        def usage(prog: str, args: str = "", prefix: str | None = None) -> None:
            write_usage(prog, args, _(HELP_HEADINGS["Usage: "]) if prefix is None else prefix)

        def titled(name: str) -> Any:
            return section(_(HELP_HEADINGS[name]) if name in HELP_HEADINGS else name)

        def described(rows: Any, *rest: Any, **options: Any) -> None:
            marks = [(mark, _(HELP_HEADINGS[mark])) for mark in ("[required]", "[default: ")]
            for mark, text in marks:
                rows = [(term, about.replace(mark, text)) for term, about in rows]
            write_dl(rows, *rest, **options)

        write_dl = formatter.write_dl
        formatter.write_usage, formatter.section = usage, titled
        formatter.write_dl = described
        format_help(ctx, formatter)

    return translated


def help_text(text: str) -> str:
    """A help text as the catalog keys it: as Click shows it (indentation cleaned)."""
    return inspect.cleandoc(text)


def language_value(value: str) -> str:
    """The setting for ``value`` (``auto``: none, follow the environment); an error naming
    the languages for one gintutor does not speak."""
    if value.strip().lower() == "auto":
        return "auto"
    found = normalize(value)
    if found is None:
        known = ", ".join(LANGUAGES)
        raise GinError(_("{value!r}: gintutor speaks {known} (or auto)", value=value, known=known))
    return found
