"""The translation catalogs: what each one holds, extracted from the code and the content.

Four gettext domains (see :mod:`gintutor.text.i18n`). ``gintutor`` and the rules
reference's sentences are marked in the code (:func:`~gintutor.text.i18n._`,
:func:`~gintutor.text.i18n._r`, ...) and extracted by Babel; every text field of every lesson
and every rule set's description are walked here (:func:`lesson_messages`,
:func:`rules_messages`), each with a context naming its place, so the lesson reader looks a
text up by the same key and one English text may be translated two ways in two places. Every
puzzle's title, question, hints and explanation are walked too (:func:`puzzle_messages`), with
the field as context: the pack's titles, questions and explanation templates repeat, and each
is translated once.

The development command (Babel is a test dependency, imported only by the functions that use
it: ``lessons check`` and ``puzzles check`` count translations without it; the runtime reads the
compiled ``.mo`` files with the standard library)::

    python -m gintutor.content.catalogs          # write the .pot, update the .po, compile .mo
    python -m gintutor.content.catalogs --check  # exit 1 if any of them is out of date

Updating follows Babel's (and msgmerge's) rules: a message whose English changed keeps its
translation marked *fuzzy* (stale: shown in English until a translator confirms it), with the
old English beside it; a message only moved (same English, new context) keeps its translation.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import io
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from gintutor.content.carouselpuzzles import carousel_pack_files
from gintutor.content.lessons import lesson_files
from gintutor.content.puzzles import puzzle_files
from gintutor.content.yamlread import compose
from gintutor.engine.rules import RULE_SETS
from gintutor.text.i18n import (
    DOMAINS,
    ENGLISH,
    LANGUAGES,
    LOCALE_DIR,
    PUZZLE_FIELDS,
    catalog_path,
    lesson_context,
    lesson_source,
    rule_set_context,
)

if TYPE_CHECKING:
    import yaml
    from babel.messages.catalog import Catalog

PACKAGE = Path(__file__).resolve().parents[1]

PLURAL_FORMS = {
    "id": "nplurals=1; plural=0;",
    "pt_BR": "nplurals=2; plural=(n > 1);",
    "nb": "nplurals=2; plural=(n != 1);",
}
"""The gettext plural rule of each language (CLDR's cardinal one/other: Indonesian has one
form; Portuguese's singular is 0 and 1, Norwegian's 1 alone)."""

KEYWORDS: dict[str, dict[str, object]] = {
    "gintutor": {
        "_": None,
        "N_": None,
        "ngettext": (1, 2),
        "pgettext": ((1, "c"), 2),
    },
    "rules": {"_r": None},
}
"""The functions whose literal arguments are messages of each code domain (Babel's spec)."""

FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""The templates' creation date: fixed, so a template changes only when its messages do."""


@dataclass(frozen=True)
class Message:
    """One text to translate: its English (the msgid), its context, where it comes from."""

    context: str | None
    text: str | tuple[str, str]
    path: str
    comments: tuple[str, ...] = ()


def _scalar_text(node: yaml.Node) -> str | None:
    if isinstance(node, yaml.ScalarNode) and isinstance(node.value, str) and node.value.strip():
        return lesson_source(node.value)
    return None


def lesson_messages(path: str, text: str) -> list[Message]:
    """Every text of one lesson file, in reading order: title, summary, then each step's
    prose, caption, prompt, hints and explanation (hands, answers and settings are not text).
    A file that is not a lesson gives what could be found (``lessons check`` names its
    problems)."""
    root, problems = compose(path, text)
    if problems or not isinstance(root, yaml.MappingNode):
        return []
    top = {str(key.value): value for key, value in root.value}
    lesson_id = _scalar_text(top["id"]) if "id" in top else None
    if lesson_id is None:
        return []
    found: list[Message] = []

    def add(node: yaml.Node, field: str, step: int | None = None) -> None:
        english = _scalar_text(node)
        if english is not None:
            found.append(Message(lesson_context(lesson_id, field, step), english, path))

    for field in ("title", "summary"):
        if field in top:
            add(top[field], field)
    steps = top.get("steps")
    if not isinstance(steps, yaml.SequenceNode):
        return found
    for number, step in enumerate(steps.value, start=1):
        if not isinstance(step, yaml.MappingNode):
            continue
        items = {str(key.value): value for key, value in step.value}
        if "prose" in items:
            add(items["prose"], "prose", number)
        show = items.get("show")
        if isinstance(show, yaml.MappingNode):
            for key, value in show.value:
                if key.value == "caption":
                    add(value, "caption", number)
        if "prompt" in items:
            add(items["prompt"], "prompt", number)
        hints = items.get("hints")
        if isinstance(hints, yaml.SequenceNode):
            for index, hint in enumerate(hints.value, start=1):
                add(hint, f"hint-{index}", number)
        if "explain" in items:
            add(items["explain"], "explain", number)
    return found


def puzzle_messages(path: str, text: str) -> list[Message]:
    """Every text of one puzzle pack file (Gin Rummy's or Carousel's), in reading order: each
    puzzle's title, question, hints and explanation, the field as context (hands, answers and
    positions are not text). A file that is not a pack gives what could be found (``puzzles
    check`` names its problems)."""
    root, problems = compose(path, text)
    if problems or not isinstance(root, yaml.MappingNode):
        return []
    top = {str(key.value): value for key, value in root.value}
    entries = top.get("puzzles")
    if not isinstance(entries, yaml.SequenceNode):
        return []
    found: list[Message] = []
    for entry in entries.value:
        if not isinstance(entry, yaml.MappingNode):
            continue
        items = {str(key.value): value for key, value in entry.value}
        for field in PUZZLE_FIELDS:
            nodes = items.get(field if field != "hint" else "hints")
            if isinstance(nodes, yaml.SequenceNode):
                texts = [_scalar_text(node) for node in nodes.value]
            else:
                texts = [_scalar_text(nodes)] if nodes is not None else []
            found += [Message(field, t, path) for t in texts if t is not None]
    return found


def shipped_puzzle_messages() -> list[Message]:
    """The messages of every shipped puzzle: Gin Rummy's pack, then Carousel's."""
    files = puzzle_files() + carousel_pack_files()
    return [message for path, text in files for message in puzzle_messages(path, text)]


def rules_messages() -> list[Message]:
    """Every rule set's description (the source it comes from), by name."""
    return [
        Message(rule_set_context(name), rules.source, "gintutor/engine/rules.py")
        for name, rules in RULE_SETS.items()
        if rules.source
    ]


def _marking(domain: str) -> re.Pattern[str]:
    """A call of one of ``domain``'s marking functions, as text: a file without one has no
    message of that domain."""
    names = "|".join(re.escape(name) for name in KEYWORDS[domain])
    return re.compile(rf"(?<!\w)(?:{names})\s*\(")


def _python_files(folder: Path) -> Iterator[Path]:
    """The package's Python files in Babel's ``extract_from_dir`` order (sorted, top-down,
    folders starting with ``.`` or ``_`` left out)."""
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith((".", "_")))
        yield from (Path(root, name) for name in sorted(files) if name.endswith(".py"))


def code_messages(domain: str) -> list[Message]:
    """The messages marked in the package's code for ``domain`` (Babel's Python extractor),
    in file and line order; ``# TRANSLATORS:`` comments above a call go with its message."""
    from babel.messages.extract import extract_from_file

    # Babel tokenizes only the files that call a marking function (35 of 116): tokenizing
    # all of them was 2 of the 3 s this extraction took in the developer loop.
    marking = _marking(domain)
    found = []
    for path in _python_files(PACKAGE):
        if not marking.search(path.read_text(encoding="utf-8")):
            continue
        where = f"gintutor/{path.relative_to(PACKAGE).as_posix()}"
        for _line, text, comments, context in extract_from_file(
            "python",
            path,
            keywords=KEYWORDS[domain],  # type: ignore[arg-type]
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        ):
            found.append(Message(context, text, where, tuple(comments)))  # type: ignore[arg-type]
    return found


ERROR_BASE = "GinError"
"""The base of the error family (:mod:`gintutor.errors`) whose messages are templates."""

PHRASE = "Phrase"
"""The phrase inside an error's message (:class:`gintutor.errors.Phrase`): a template too."""

NOTE = "Note"
"""A warning or note for the learner (:class:`gintutor.errors.Note`): a template too."""


def _error_classes(classes: Sequence[ast.ClassDef]) -> set[str]:
    """The names of :data:`ERROR_BASE` and every class of the package derived from it."""
    names = {ERROR_BASE}
    while True:
        found = {
            node.name
            for node in classes
            if any(
                (base.id if isinstance(base, ast.Name) else getattr(base, "attr", None)) in names
                for base in node.bases
            )
        }
        if found <= names:
            return names
        names |= found


def _called(node: ast.Call) -> str | None:
    """The name a call calls (``Error(...)`` or ``errors.Error(...)``), if it has one."""
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)


def error_messages(folder: Path = PACKAGE) -> list[Message]:
    """The message templates of the error family (:mod:`gintutor.errors`): the first argument
    of every call of one of its classes that is a string literal (an f-string is not a
    template: it is left out, and stays English; see :func:`_literals`), in file and line
    order."""
    # One walk of each file's tree: walking them again for each question was 4 of the 7 s
    # this extraction took (it runs in the developer loop's catalog tests).
    calls: dict[Path, list[ast.Call]] = {}
    classes: list[ast.ClassDef] = []
    for path in sorted(folder.rglob("*.py")):
        calls[path] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                classes.append(node)
            elif isinstance(node, ast.Call) and node.args:
                calls[path].append(node)
    names = _error_classes(classes) | {PHRASE, NOTE}
    found = []
    for path, candidates in calls.items():
        where = f"gintutor/{path.relative_to(PACKAGE).as_posix()}"
        ours = [node for node in candidates if _called(node) in names]
        for call in sorted(ours, key=lambda node: (node.lineno, node.col_offset)):
            found += [Message(None, text, where) for text in _literals(call.args[0])]
    return found


def _literals(node: ast.expr) -> list[str]:
    """The message templates an error's first argument may be: a string literal, or either
    literal of a conditional (``"... 1 deck has 1" if decks == 1 else "..."``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


HELP_KEYWORDS = ("help", "short_help", "epilog")


def _help_string(node: ast.expr, constants: dict[str, str]) -> str | None:
    """A help text's value: a string, or an f-string of the module's string constants."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                parts.append(part.value)
            elif (
                isinstance(part, ast.FormattedValue)
                and isinstance(part.value, ast.Name)
                and part.value.id in constants
                and part.format_spec is None
                and part.conversion == -1
            ):
                parts.append(constants[part.value.id])
            else:
                return None
        return "".join(parts)
    return None


def help_messages(folder: Path = PACKAGE / "cli") -> list[Message]:
    """The help texts of the command line, as Click shows them (the CLI translates them
    when the help is shown, :func:`gintutor.cli.language.localize_help`): every ``help=``,
    ``short_help=`` and ``epilog=`` text and every command's docstring."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        where = f"gintutor/{path.relative_to(PACKAGE).as_posix()}"
        for node in ast.walk(tree):
            texts: list[str | None] = []
            if isinstance(node, ast.Call):
                texts = [
                    _help_string(keyword.value, constants)
                    for keyword in node.keywords
                    if keyword.arg in HELP_KEYWORDS
                ]
            elif isinstance(node, ast.FunctionDef) and any(
                isinstance(decorator, ast.Call)
                and (
                    (
                        isinstance(decorator.func, ast.Attribute)
                        and decorator.func.attr in ("command", "callback")
                    )
                    # a lazily built group's command (cli/shared.py's subcommand)
                    or (isinstance(decorator.func, ast.Name) and decorator.func.id == "subcommand")
                )
                for decorator in node.decorator_list
            ):
                texts = [ast.get_docstring(node, clean=True)]
            found += [Message(None, inspect.cleandoc(text), where) for text in texts if text]
    return found


def shipped_lesson_messages() -> list[Message]:
    """The messages of every shipped lesson, in file order."""
    return [message for path, text in lesson_files() for message in lesson_messages(path, text)]


SOURCES: dict[str, Callable[[], list[Message]]] = {
    "gintutor": lambda: code_messages("gintutor") + help_messages() + error_messages(),
    "lessons": shipped_lesson_messages,
    "rules": lambda: rules_messages() + code_messages("rules"),
    "puzzles": shipped_puzzle_messages,
}
"""Where each domain's messages come from."""


def template(domain: str, messages: Sequence[Message]) -> Catalog:
    """The ``.pot`` catalog of ``messages`` (one entry per English text and context, with
    every place it comes from)."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(
        domain=domain,
        project="gintutor",
        version="1",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        copyright_holder="the gintutor authors",
        msgid_bugs_address="",
        fuzzy=False,
    )
    for message in messages:
        catalog.add(
            message.text,
            locations=[(message.path, 0)],
            auto_comments=message.comments,
            context=message.context,
        )
    return catalog


def _write(catalog: Catalog, *, template_file: bool = False) -> bytes:
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(
        out,
        catalog,
        width=100,
        include_lineno=False,
        ignore_obsolete=True,
        include_previous=not template_file,
        sort_output=False,
    )
    return out.getvalue()


def _read(data: bytes, language: str, domain: str) -> Catalog:
    from babel.messages.pofile import read_po

    return read_po(io.BytesIO(data), locale=language, domain=domain)


def new_catalog(language: str, domain: str) -> Catalog:
    """An empty ``.po`` catalog of ``language`` with its plural rule."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(
        locale=language,
        domain=domain,
        project="gintutor",
        version="1",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        copyright_holder="the gintutor authors",
        msgid_bugs_address="",
        fuzzy=False,
    )
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
    return catalog


def updated(po: Catalog, pot: Catalog) -> Catalog:
    """``po`` brought up to ``pot`` (Babel's update): a changed English text keeps its
    translation marked fuzzy (stale); a text that only moved (same English, another context)
    keeps its translation as it was."""
    po.update(pot, no_fuzzy_matching=False, update_header_comment=False)
    for message in po:
        if not message.id or not message.fuzzy or not message.previous_id:
            continue
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        if list(message.previous_id) == english:
            message.flags.discard("fuzzy")
            message.previous_id = []
    return po


def compiled(po: Catalog) -> bytes:
    """The ``.mo`` of ``po``: translated, not fuzzy messages only (a stale one is English)."""
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, po, use_fuzzy=False)
    return out.getvalue()


def planned(domains: Sequence[str] = DOMAINS) -> Iterator[tuple[Path, bytes]]:
    """Every catalog file as it should be: each domain's ``.pot``, and per language its
    ``.po`` (updated from the one in place, or new) and compiled ``.mo``."""
    for domain in domains:
        pot = template(domain, SOURCES[domain]())
        yield LOCALE_DIR / f"{domain}.pot", _write(pot, template_file=True)
        for language in LANGUAGES:
            if language == ENGLISH:
                continue
            po_path = catalog_path(language, domain, ".po")
            po = (
                _read(po_path.read_bytes(), language, domain)
                if po_path.is_file()
                else new_catalog(language, domain)
            )
            po = updated(po, pot)
            text = _write(po)
            yield po_path, text
            yield catalog_path(language, domain), compiled(_read(text, language, domain))


Key = tuple[str | None, str]


def _unquote(literal: str) -> str:
    """A PO string literal's value (C escapes, as Python's)."""
    try:
        value = ast.literal_eval(literal.strip())
    except (ValueError, SyntaxError):
        return ""
    return value if isinstance(value, str) else ""


def po_keys(path: Path) -> tuple[set[Key], set[Key]]:
    """The ``(context, English)`` of the translated and of the fuzzy (stale) entries of the
    ``.po`` file ``path`` (none if it cannot be read): a light reading, no Babel needed."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return set(), set()
    translated: set[Key] = set()
    stale: set[Key] = set()
    fuzzy = False
    fields: dict[str, str] = {}
    field = ""
    for line in [*lines, ""]:
        if not line.strip():
            english, string = fields.get("msgid"), fields.get("msgstr", fields.get("msgstr[0]"))
            if english:
                key = (fields.get("msgctxt"), english)
                if fuzzy:
                    stale.add(key)
                elif string:
                    translated.add(key)
            fuzzy, fields, field = False, {}, ""
        elif line.startswith("#,"):
            fuzzy = fuzzy or "fuzzy" in line[2:].replace(",", " ").split()
        elif line.startswith("msg"):
            field, _, literal = line.partition(" ")
            fields[field] = _unquote(literal)
        elif line.startswith('"') and field:
            fields[field] += _unquote(line)
    return translated, stale


@dataclass(frozen=True)
class Coverage:
    """How much of a set of texts one language's catalog translates."""

    language: str
    texts: int
    translated: int
    stale: int

    @property
    def untranslated(self) -> int:
        return self.texts - self.translated - self.stale


def coverage(domain: str, messages: Sequence[Message]) -> list[Coverage]:
    """Per language, of ``messages``: translated, stale (fuzzy: shown in English until a
    translator confirms it) and untranslated (the rest, including texts the catalog does not
    know yet: run the extractor)."""
    keys = {(m.context, m.text if isinstance(m.text, str) else m.text[0]) for m in messages}
    found = []
    for language in LANGUAGES:
        if language != ENGLISH:
            translated, stale = po_keys(catalog_path(language, domain, ".po"))
            found.append(Coverage(language, len(keys), len(keys & translated), len(keys & stale)))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gintutor.content.catalogs",
        description="Extract the .pot templates, update the .po catalogs, compile the .mo files.",
    )
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    parser.add_argument("domains", nargs="*", metavar="DOMAIN", help=", ".join(DOMAINS))
    args = parser.parse_args(argv)
    unknown = sorted(set(args.domains) - set(DOMAINS))
    if unknown:
        parser.error(f"unknown domain {unknown[0]!r}: use {', '.join(DOMAINS)}")
    stale = []
    for path, data in planned(args.domains or DOMAINS):
        if path.is_file() and path.read_bytes() == data:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for path in stale:
        state = "out of date" if args.check else "written"
        print(f"{path.relative_to(PACKAGE.parent)}: {state}")
    if args.check and stale:
        print("run: python -m gintutor.content.catalogs", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
