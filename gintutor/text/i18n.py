"""The language gintutor speaks: gettext catalogs, the choice of language, local numbers.

Four catalogs (gettext *domains*) per language, compiled to ``gintutor/locale/<lang>/
LC_MESSAGES/<domain>.mo`` from the ``.po`` files beside them (``python -m
gintutor.content.catalogs`` extracts, updates and compiles; ``gintutor/locale/README.md`` says
how a translator works):

- ``gintutor``: the interface (CLI and text layers), marked in the code with :func:`_`,
  :func:`ngettext`, :func:`pgettext` and :func:`N_`;
- ``lessons``: every text of every lesson, looked up by :func:`lesson_text` with the lesson id
  and the field as context;
- ``rules``: the rules reference (:func:`_r`) and the rule sets' descriptions;
- ``puzzles``: every puzzle's title, question, hints and explanation (Gin Rummy's pack and
  Carousel's), looked up by :func:`puzzle_text` with the field as context.

A message is whole sentences with named placeholders (``{points}``), filled after translation;
a translation that is missing, stale (fuzzy: not compiled) or whose placeholders do not match
the source's shows the English text, never an error. English is the source language: with it
active no catalog is read. The engine and every ``--json`` output never depend on the language.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from gettext import GNUTranslations, NullTranslations
from pathlib import Path

from gintutor.errors import Number

ENGLISH = "en"
LANGUAGES = (ENGLISH, "id", "pt_BR", "nb")
"""The languages gintutor speaks: English (the source) and the three it is translated to."""

LANGUAGE_NAMES = {
    ENGLISH: "English",
    "id": "Bahasa Indonesia",
    "pt_BR": "Português (Brasil)",
    "nb": "Norsk bokmål",
}

ALIASES = {"pt": "pt_BR", "no": "nb", "nn": "nb", "in": "id"}
"""Other names of a language gintutor speaks: a language whose translation we have is taken for
its neighbours (Nynorsk readers read Bokmål; ``in`` is Indonesian's old ISO code)."""

DOMAINS = ("gintutor", "lessons", "rules", "puzzles")

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
"""The compiled catalogs (and the ``.po`` sources, the glossaries) inside the package."""

LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The standard variables read after ``--lang``, ``GINTUTOR_LANG`` and the saved setting, in
the order gettext reads them (``LANGUAGE`` may be a list, ``pt_BR:en``)."""


def normalize(name: str) -> str | None:
    """The language gintutor speaks that ``name`` (a code or a POSIX locale) asks for, or
    ``None`` if it is none of them.

    >>> [normalize(n) for n in ("pt", "pt-br", "nb_NO.UTF-8", "no", "in", "id_ID", "C", "fr")]
    ['pt_BR', 'pt_BR', 'nb', 'nb', 'id', 'id', 'en', None]
    """
    tag = name.strip().split(".")[0].split("@")[0].replace("-", "_")
    if tag in ("C", "POSIX"):
        return ENGLISH
    language = tag.split("_")[0].lower()
    language = ALIASES.get(language, language)
    if language == "pt":
        return "pt_BR"
    return language if language in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the standard variables ask for (English when none names one we have).

    ``LANGUAGE``'s first language we speak wins; otherwise the first of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set decides (``fr_FR.UTF-8``: English).

    >>> from_environment({"LANGUAGE": "fr:pt", "LANG": "nb_NO.UTF-8"})
    'pt_BR'
    >>> from_environment({"LC_ALL": "", "LANG": "nb_NO.UTF-8"})
    'nb'
    >>> from_environment({"LC_ALL": "fr_FR.UTF-8", "LANG": "nb_NO.UTF-8"})
    'en'
    """
    environ = os.environ if environ is None else environ
    for name in environ.get("LANGUAGE", "").split(":"):
        found = normalize(name) if name else None
        if found is not None:
            return found
    for variable in LANGUAGE_VARIABLES[1:]:
        value = environ.get(variable, "")
        if value:
            return normalize(value) or ENGLISH
    return ENGLISH


def choose(
    option: str | None,
    saved: Callable[[], str | None] | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[str, str | None]:
    """The language to speak and a warning (or ``None``): ``--lang``, then ``GINTUTOR_LANG``,
    then the saved setting (read only when neither is given), then the standard variables,
    then English.

    A language asked for by name that gintutor does not speak is a warning, and English.

    >>> choose("no")
    ('nb', None)
    >>> choose(None, environ={"GINTUTOR_LANG": "pt", "LANG": "nb_NO.UTF-8"})
    ('pt_BR', None)
    >>> choose(None, lambda: "id", environ={"LANG": "nb_NO.UTF-8"})
    ('id', None)
    >>> choose("xx", environ={})
    ('en', "warning: gintutor does not speak 'xx' (--lang): use en, id, pt_BR or nb; English it is")
    """
    environ = os.environ if environ is None else environ
    asked: list[tuple[Callable[[], str | None], str]] = [
        (lambda: option, "--lang"),
        (lambda: environ.get("GINTUTOR_LANG"), "GINTUTOR_LANG"),
    ]
    if saved is not None:
        asked.append((saved, "the saved setting (gintutor settings lang)"))
    for value_of, where in asked:
        value = value_of()
        if value:
            found = normalize(value)
            if found is None:
                known = ", ".join(LANGUAGES[:-1]) + " or " + LANGUAGES[-1]
                return ENGLISH, (
                    f"warning: gintutor does not speak {value!r} ({where}): use {known}; "
                    "English it is"
                )
            return found, None
    return from_environment(environ), None


class _State:
    """The active language and its catalogs, read when first used."""

    language = ENGLISH
    folder = LOCALE_DIR
    catalogs: dict[str, NullTranslations] = {}  # noqa: RUF012 (one process-wide state)


def use(language: str, folder: Path | None = None) -> None:
    """Speak ``language`` (one of :data:`LANGUAGES`) from now on, with the catalogs shipped
    (or those in ``folder``, laid out as :data:`LOCALE_DIR`: for tests)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    _State.language = language
    _State.folder = folder or LOCALE_DIR
    _State.catalogs = {}


def active() -> str:
    """The language spoken now."""
    return _State.language


def catalog_path(
    language: str, domain: str, suffix: str = ".mo", folder: Path = LOCALE_DIR
) -> Path:
    """Where ``domain``'s catalog of ``language`` is (compiled: ``.mo``; source: ``.po``)."""
    return folder / language / "LC_MESSAGES" / f"{domain}{suffix}"


def catalog_fingerprint(domain: str) -> str:
    """What identifies the texts ``domain`` gives now: the language and its compiled
    catalog's size and time (a cache of translated texts is stale when it changes)."""
    if _State.language == ENGLISH:
        return ENGLISH
    try:
        found = catalog_path(_State.language, domain, folder=_State.folder).stat()
    except OSError:
        return f"{_State.language}:none"
    return f"{_State.language}:{found.st_size}:{found.st_mtime_ns}"


def _catalog(domain: str) -> NullTranslations:
    found = _State.catalogs.get(domain)
    if found is None:
        found = NullTranslations()
        if _State.language != ENGLISH:
            try:
                path = catalog_path(_State.language, domain, folder=_State.folder)
                with path.open("rb") as file:
                    found = GNUTranslations(file)
            except (OSError, ValueError, UnicodeDecodeError):
                pass  # a catalog missing or damaged: English, as for a missing message
        _State.catalogs[domain] = found
    return found


def _filled(translated: str, source: str, values: Mapping[str, object]) -> str:
    """``translated`` with its placeholders filled; the source's if the translation's do not
    fit (a translator's slip shows English, never an error)."""
    if not values:
        return translated
    try:
        return translated.format_map(values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return source.format_map(values)


def _(message: str, /, **values: object) -> str:
    """``message`` in the active language, its ``{placeholders}`` filled from ``values``.

    >>> _("{points} points", points=12)
    '12 points'
    """
    if _State.language == ENGLISH:
        return message.format_map(values) if values else message
    return _filled(_catalog("gintutor").gettext(message), message, values)


def error_text(error: object) -> str:
    """An error's message in the active language: its template (:mod:`gintutor.errors`)
    translated and filled, a nested error or :class:`~gintutor.errors.Phrase` among its values
    translated the same way; the English ``str(error)`` for an error without a template (or
    when untranslated).

    >>> from gintutor.errors import CardError
    >>> error_text(CardError("{where}: {error}", where="line 2", error=CardError("no cards")))
    'line 2: no cards'
    """
    template = getattr(error, "template", None)
    params = getattr(error, "params", None)
    if _State.language == ENGLISH or not isinstance(params, dict) or not template:
        return str(error)
    translated = _catalog("gintutor").gettext(str(template))
    if not params:
        return translated
    values = {name: _value_text(value) for name, value in params.items()}
    try:
        return translated.format_map(values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(template).format_map(values)


def _value_text(value: object) -> object:
    """A value of an error's message as the reader reads it: a nested message translated, a
    :class:`~gintutor.errors.Number` written with the language's decimal sign."""
    if hasattr(value, "template"):
        return error_text(value)
    if isinstance(value, Number):
        return number(value.value, value.digits)
    return value


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of a message for the number ``n`` (the language's plural rule), filled.

    >>> ngettext("{n} card", "{n} cards", 1, n=1), ngettext("{n} card", "{n} cards", 3, n=3)
    ('1 card', '3 cards')
    """
    source = singular if n == 1 else plural
    if _State.language == ENGLISH:
        return source.format_map(values) if values else source
    return _filled(_catalog("gintutor").ngettext(singular, plural, n), source, values)


def pgettext(context: str, message: str, /, **values: object) -> str:
    """``message`` translated in ``context`` (one English word used in two senses), filled."""
    if _State.language == ENGLISH:
        return message.format_map(values) if values else message
    return _filled(_catalog("gintutor").pgettext(context, message), message, values)


def N_(message: str) -> str:
    """``message`` unchanged: marks a text for the catalog that is translated where it is shown
    (a help text defined before the language is known, a table of names)."""
    return message


def _r(message: str, /, **values: object) -> str:
    """A sentence of the rules reference in the active language (the ``rules`` catalog)."""
    if _State.language == ENGLISH:
        return message.format_map(values) if values else message
    return _filled(_catalog("rules").gettext(message), message, values)


def rules_text(context: str, message: str) -> str:
    """A rule set's own text (its description) in the active language; ``context`` names it."""
    if _State.language == ENGLISH:
        return message
    return _catalog("rules").pgettext(context, message)


def lesson_context(lesson_id: str, field: str, step: int | None = None) -> str:
    """The catalog context of a lesson's text: ``cards/title``, ``cards/step-5/hint-1``.

    ``step`` counts a lesson's steps from 1 in the file's order; hints count from 1.
    """
    return f"{lesson_id}/{field}" if step is None else f"{lesson_id}/step-{step}/{field}"


def lesson_source(text: str) -> str:
    """The English of a lesson text as the catalog keys it (surrounding blank space off)."""
    return text.strip()


def lesson_text(context: str, text: str) -> str:
    """A lesson's text in the active language (``text`` as written when untranslated);
    ``context`` from :func:`lesson_context`. Placeholders are the lesson's own
    (``{knock_limit}``), filled by the lesson reader after this."""
    if _State.language == ENGLISH:
        return text
    english = lesson_source(text)
    translated = _catalog("lessons").pgettext(context, english)
    return text if translated == english else translated


PUZZLE_FIELDS = ("title", "question", "hint", "explanation")
"""The texts of a puzzle the ``puzzles`` catalog holds, each its context (one English text is
translated once wherever it is used: the pack's titles, questions and templates repeat)."""

_PUZZLE_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def puzzle_placeholders(text: str) -> list[str]:
    """The placeholders of a puzzle text, as written and sorted (the engine fills them).

    >>> puzzle_placeholders("{best} keeps {best.knock_outs:n} outs; {best} is {best.vs_best}")
    ['{best.knock_outs:n}', '{best.vs_best}', '{best}', '{best}']
    """
    return sorted(_PUZZLE_PLACEHOLDER.findall(text))


def puzzle_text(field: str, text: str) -> str:
    """A puzzle's text (``field``: one of :data:`PUZZLE_FIELDS`) in the active language, its
    placeholders left for the puzzle's filler; the English (as written) when untranslated,
    stale, or when the translation's placeholders are not exactly the source's (a translator's
    slip shows English, never an error). Never for ``--json``."""
    if _State.language == ENGLISH:
        return text
    english = text.strip()
    translated = _catalog("puzzles").pgettext(field, english)
    if translated == english or puzzle_placeholders(translated) != puzzle_placeholders(english):
        return text
    return translated


def rule_set_context(name: str) -> str:
    """The catalog context of a named rule set's description: ``indonesian/source``."""
    return f"{name}/source"


def rule_set_description(name: str, source: str) -> str:
    """A named rule set's description (where it comes from) in the active language; a house
    rule set's own is shown as written."""
    return rules_text(rule_set_context(name), source)


NUMBER_SYMBOLS: dict[str, tuple[str, str, str]] = {
    "id": (",", ".", "{}%"),
    "pt_BR": (",", ".", "{}%"),
    "nb": (",", "\u00a0", "{}\u00a0%"),
}
"""Each translated language's decimal sign, digit-group separator and percent pattern, from
CLDR (read once from Babel 2.19's data: ``12,5%`` in Indonesian and Portuguese, ``12,5 %``
with a no-break space in Norwegian, ``1.234`` / ``1 234``; a test holds them equal to Babel's
formatting). English keeps the plain ``12.5`` / ``12.5%`` gintutor always printed."""


def number(value: float, digits: int = 0, *, signed: bool = False) -> str:
    """``value`` written for a reader of the active language, ``digits`` after the decimal
    sign (``signed``: ``+`` before a positive number). Never for ``--json``.

    >>> number(12.345, 1), number(-3, signed=True), number(0.5, 2, signed=True)
    ('12.3', '-3', '+0.50')
    """
    text = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    symbols = NUMBER_SYMBOLS.get(_State.language)
    if symbols is None:
        return text
    decimal, group, _pattern = symbols
    sign = text[0] if text[0] in "+-" else ""
    whole, _dot, fraction = text.removeprefix(sign).partition(".")
    grouped = f"{int(whole):,}".replace(",", group)
    return sign + grouped + (decimal + fraction if fraction else "")


def percent(fraction: float, digits: int = 0) -> str:
    """``fraction`` (0.125) as a percentage in the active language: ``12.5%`` in English,
    ``12,5%`` in Indonesian and Portuguese, ``12,5 %`` in Norwegian. Never for ``--json``.

    >>> percent(0.125, 1), percent(0.6)
    ('12.5%', '60%')
    """
    symbols = NUMBER_SYMBOLS.get(_State.language)
    pattern = "{}%" if symbols is None else symbols[2]
    return pattern.format(number(100 * fraction, digits))


def either(items: list[str]) -> str:
    """Choices written as a list the active language reads: ``6♣``, ``6♣ or 5♥``,
    ``6♣, 5♥ or 4♦``.

    >>> either(["6♣"]), either(["6♣", "5♥", "4♦"])
    ('6♣', '6♣, 5♥ or 4♦')
    """
    if len(items) < 2:
        return "".join(items)
    return _("{choices} or {last}", choices=", ".join(items[:-1]), last=items[-1])
