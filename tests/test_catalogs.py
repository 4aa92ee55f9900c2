"""The translation catalogs: current with the code and content, well formed, compiled as shipped."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("babel")

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from gintutor.content.catalogs import (
    PLURAL_FORMS,
    Coverage,
    Message,
    compiled,
    lesson_messages,
    main,
    puzzle_messages,
    template,
    updated,
)
from gintutor.text.i18n import DOMAINS, LANGUAGES, LOCALE_DIR, catalog_path, puzzle_placeholders

TRANSLATED = [language for language in LANGUAGES if language != "en"]
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:[:!][^{}]*)?\}")


@functools.cache
def _po(language: str, domain: str) -> Catalog:
    """The catalog as Babel reads it (read once: the tests only look)."""
    with catalog_path(language, domain, ".po").open("rb") as file:
        return read_po(file, locale=language, domain=domain)


def test_the_extractor_checks_and_writes_nothing_in_check_mode(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--check`` reports what is out of date and changes no file. (Whether the catalogs are
    current is not a test: every engineer adding a help text would break it; texts missing
    from a catalog show in English, are counted by ``lessons check`` and fail the
    completeness test of a catalog declared complete.)"""
    import gintutor.content.catalogs as catalogs

    written: list[Path] = []
    monkeypatch.setattr(Path, "write_bytes", lambda path, data: written.append(path))
    monkeypatch.setattr(
        catalogs, "planned", lambda domains: iter([(LOCALE_DIR / "rules.pot", b"changed")])
    )
    assert main(["--check", "rules"]) == 1
    assert written == []
    assert "gintutor/locale/rules.pot: out of date" in capsys.readouterr().out


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_each_catalog_has_its_languages_plural_rule(language: str, domain: str) -> None:
    catalog = _po(language, domain)
    assert catalog.plural_forms == PLURAL_FORMS[language]
    assert str(catalog.locale) == language


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_shipped_mo_is_the_po_compiled(language: str, domain: str) -> None:
    assert catalog_path(language, domain).read_bytes() == compiled(_po(language, domain))


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_translation_keeps_the_sources_placeholders(language: str, domain: str) -> None:
    """A stale (fuzzy) translation is not compiled (the English shows), and its English changed
    under it, placeholders included: it is checked once a translator confirms it. A puzzle
    text's placeholders are the engine's (``{6H.deadwood}``, ``{best.p_knock_within_2:%}``):
    each one as written, as many times as the English has it."""
    wrong = []
    for message in _po(language, domain):
        if not message.id or not message.string or message.fuzzy:
            continue
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = set().union(*(PLACEHOLDER.findall(source) for source in sources))
        for string in strings:
            if domain == "puzzles":
                if string and puzzle_placeholders(string) != puzzle_placeholders(sources[0]):
                    wrong.append((message.context, string))
            elif string and set(PLACEHOLDER.findall(string)) != wanted:
                wrong.append((message.context, string))
    assert wrong == []


def test_the_glossaries_name_the_same_terms() -> None:
    import yaml

    glossaries = {
        language: yaml.safe_load((LOCALE_DIR / language / "glossary.yaml").read_text("utf-8"))
        for language in TRANSLATED
    }
    shapes = {
        language: {part: sorted(glossary[part]) for part in ("terms", "words", "rank letters")}
        for language, glossary in glossaries.items()
    }
    assert shapes["id"] == shapes["pt_BR"] == shapes["nb"]
    assert {"stock", "discard pile", "upcard", "meld", "deadwood", "knock", "gin"} <= set(
        shapes["id"]["terms"]
    )


LESSON = """\
id: demo
title: A title
summary: A summary.
steps:
  - prose: |
      Some **prose**.
  - show:
      hand: "7C 7D 7S 4H 5H 6H TD JD QD KC"
      caption: A caption.
  - question: deadwood
    prompt: What is it?
    hand: "KC 4D AH"
    hints: [First hint., "Second hint: {knock_limit}."]
    explain: An explanation.
    expect: 15
"""


def test_a_lesson_gives_each_text_with_its_place_and_no_hand_or_answer() -> None:
    found = [(m.context, m.text) for m in lesson_messages("lessons/demo.yaml", LESSON)]
    assert found == [
        ("demo/title", "A title"),
        ("demo/summary", "A summary."),
        ("demo/step-1/prose", "Some **prose**."),
        ("demo/step-2/caption", "A caption."),
        ("demo/step-3/prompt", "What is it?"),
        ("demo/step-3/hint-1", "First hint."),
        ("demo/step-3/hint-2", "Second hint: {knock_limit}."),
        ("demo/step-3/explain", "An explanation."),
    ]


def test_a_file_that_is_not_a_lesson_gives_no_messages() -> None:
    assert lesson_messages("x.yaml", "a: [") == []
    assert lesson_messages("x.yaml", "- 1\n- 2\n") == []


PACK = """\
puzzles:
  - id: demo-001
    title: "A title"
    theme: outs
    difficulty: 3
    position:
      hand: "2C 3C 4C 9D TD JD 5H 5S 8D 8S KS"
    question: "Which discard?"
    answers: [KS]
    hints:
      - "First hint."
      - "Second hint: {KS.deadwood}."
    explanation: "After {best} you keep {best.knock_outs:n} knock outs."
  - id: demo-002
    title: "A title"
    question: "Which discard?"
    hints: ["Another hint."]
"""


def test_a_puzzle_gives_each_text_with_its_field_and_no_hand_or_answer() -> None:
    found = [(m.context, m.text) for m in puzzle_messages("puzzles/demo.yaml", PACK)]
    assert found == [
        ("title", "A title"),
        ("question", "Which discard?"),
        ("hint", "First hint."),
        ("hint", "Second hint: {KS.deadwood}."),
        ("explanation", "After {best} you keep {best.knock_outs:n} knock outs."),
        ("title", "A title"),
        ("question", "Which discard?"),
        ("hint", "Another hint."),
    ]
    # One entry per English text and field: a repeated title is translated once.
    assert len(template("puzzles", puzzle_messages("puzzles/demo.yaml", PACK))) == 6


def test_a_file_that_is_not_a_puzzle_pack_gives_no_messages() -> None:
    assert puzzle_messages("x.yaml", "a: [") == []
    assert puzzle_messages("x.yaml", "puzzles: 3\n") == []
    assert puzzle_messages("x.yaml", "- 1\n") == []


def test_the_puzzle_catalog_holds_both_packs() -> None:
    with (LOCALE_DIR / "puzzles.pot").open("rb") as file:
        pot = read_po(file)
    paths = {path for message in pot for path, _ in message.locations}
    assert "puzzles/carousel/carousel.yaml" in paths and "puzzles/outs.yaml" in paths


def _translated(entries: list[tuple[str, str, str]]) -> Catalog:
    po = Catalog(locale="nb", domain="lessons")
    for context, english, translation in entries:
        po.add(english, translation, context=context)
    return po


def test_a_changed_english_text_makes_its_translation_stale() -> None:
    po = _translated([("demo/title", "A title", "En tittel"), ("demo/summary", "Short.", "Kort.")])
    pot = template(
        "lessons",
        [
            Message("demo/title", "A new title", "lessons/demo.yaml"),
            Message("demo/summary", "Short.", "lessons/demo.yaml"),
        ],
    )
    result = updated(po, pot)
    title = result.get("A new title", context="demo/title")
    assert title is not None and title.fuzzy and title.string == "En tittel"
    assert title.previous_id == ["A title"]
    summary = result.get("Short.", context="demo/summary")
    assert summary is not None and not summary.fuzzy and summary.string == "Kort."
    # A stale translation is not compiled: the text shows in English.
    mo = compiled(result)
    assert b"En tittel" not in mo and b"Kort." in mo


def test_a_text_that_only_moved_keeps_its_translation() -> None:
    po = _translated([("demo/step-3/prompt", "What is it?", "Hva er det?")])
    pot = template("lessons", [Message("demo/step-4/prompt", "What is it?", "lessons/demo.yaml")])
    moved = updated(po, pot).get("What is it?", context="demo/step-4/prompt")
    assert moved is not None and not moved.fuzzy and moved.string == "Hva er det?"


def test_the_templates_are_written_without_dates_that_change() -> None:
    text = (LOCALE_DIR / "lessons.pot").read_text("utf-8")
    assert "POT-Creation-Date: 2026-01-01 00:00+0000" in text
    read = read_po(io.BytesIO(text.encode("utf-8")))
    assert len(read) > 500  # 23 lessons' texts
    assert Path(LOCALE_DIR / "rules.pot").is_file()


def test_the_wheel_ships_every_compiled_catalog_and_glossary() -> None:
    """A plain ``pip install .`` carries the .mo files and glossaries (pyproject's package data)."""
    import fnmatch
    import tomllib

    root = LOCALE_DIR.parents[1]
    globs = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["gintutor"]
    shipped = [*LOCALE_DIR.glob("*/LC_MESSAGES/*.mo"), *LOCALE_DIR.glob("*/glossary.yaml")]
    assert len(shipped) == len(TRANSLATED) * (len(DOMAINS) + 1)
    for path in shipped:
        name = path.relative_to(root / "gintutor").as_posix()
        assert any(fnmatch.fnmatch(name, glob) for glob in globs), name


COMPLETE: set[tuple[str, str]] = {
    ("id", "gintutor"),
    ("id", "lessons"),
    ("id", "rules"),
    ("id", "puzzles"),
    ("nb", "gintutor"),
    ("nb", "lessons"),
    ("nb", "rules"),
    ("nb", "puzzles"),
    ("pt_BR", "gintutor"),
    ("pt_BR", "lessons"),
    ("pt_BR", "rules"),
    ("pt_BR", "puzzles"),
}
"""The (language, domain) catalogs declared complete: a translator adds theirs when done, and
from then on they must stay complete (0 untranslated, 0 stale)."""


@functools.cache
def _coverage(domain: str) -> list[Coverage]:
    """Each language's counts for the texts the code and content have now (extracted once)."""
    from gintutor.content.catalogs import SOURCES, coverage

    return coverage(domain, SOURCES[domain]())


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_catalogs_declared_complete_stay_complete(language: str, domain: str) -> None:
    """Every text the code and content have now (not only those in the .po) is translated
    and none is stale."""
    if (language, domain) not in COMPLETE:
        pytest.skip(f"{language}/{domain} is not declared complete yet")
    (found,) = [c for c in _coverage(domain) if c.language == language]
    assert (found.untranslated, found.stale) == (0, 0), (
        "run 'python -m gintutor.content.catalogs' and translate what it marks"
    )


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_light_po_reading_agrees_with_babel(language: str, domain: str) -> None:
    """lessons check counts with a reading of its own (Babel is not a runtime dependency):
    it finds exactly Babel's translated and fuzzy entries."""
    from gintutor.content.catalogs import po_keys

    def key(message: Any) -> tuple[str | None, str]:
        return message.context, message.id if isinstance(message.id, str) else message.id[0]

    entries = [message for message in _po(language, domain) if message.id]
    translated = {key(m) for m in entries if not m.fuzzy and m.string and all(m.string)}
    stale = {key(m) for m in entries if m.fuzzy}
    assert po_keys(catalog_path(language, domain, ".po")) == (translated, stale)


def test_the_light_po_reading_of_a_written_catalog() -> None:
    """Multi-line, escaped, contexted, plural and fuzzy entries (written by Babel)."""
    from babel.messages.pofile import write_po

    from gintutor.content.catalogs import po_keys

    po = Catalog(locale="pt_BR", domain="lessons")
    po.add('Say "hi"\\\nthere ' + "x" * 120, 'Diga "oi"', context="a/b")
    po.add(("{n} card", "{n} cards"), ("{n} carta", "{n} cartas"))
    po.add("Old", "Velho", flags=["fuzzy"], context="c")
    po.add("Untranslated", "")
    out = io.BytesIO()
    write_po(out, po, width=40)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.po"
        path.write_bytes(out.getvalue())
        translated, stale = po_keys(path)
    assert translated == {("a/b", 'Say "hi"\\\nthere ' + "x" * 120), (None, "{n} card")}
    assert stale == {("c", "Old")}


def test_puzzle_coverage_counts_translated_stale_and_untranslated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``puzzles check`` prints per language: a stale translation is counted as stale
    (shown in English), a missing or unreadable catalog as untranslated, never a crash."""
    from babel.messages.pofile import write_po

    import gintutor.content.catalogs as catalogs

    po = Catalog(locale="nb", domain="puzzles")
    po.add("A title", "En tittel", context="title")
    po.add("First hint.", "Første hint.", context="hint", flags=["fuzzy"])
    out = io.BytesIO()
    write_po(out, po)
    (tmp_path / "nb.po").write_bytes(out.getvalue())
    (tmp_path / "id.po").write_bytes(b"\xff\xfe not a catalog")
    monkeypatch.setattr(
        catalogs, "catalog_path", lambda language, domain, suffix: tmp_path / f"{language}.po"
    )
    found = catalogs.coverage("puzzles", puzzle_messages("puzzles/demo.yaml", PACK))
    counts = {c.language: (c.texts, c.translated, c.stale, c.untranslated) for c in found}
    assert counts == {"id": (6, 0, 0, 6), "pt_BR": (6, 0, 0, 6), "nb": (6, 1, 1, 4)}
