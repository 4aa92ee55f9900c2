"""The language at run time: choosing it, catalogs looked up, English whenever a text is not
translated, and nothing an engine or a ``--json`` reader sees depends on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gintutor.text import i18n
from gintutor.text.i18n import ENGLISH, LOCALE_DIR, _, choose, ngettext, use

babel = pytest.importorskip("babel")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    use(ENGLISH)


def _marked_catalogs(folder: Path, language: str = "nb") -> Path:
    """Catalogs of ``language`` in ``folder`` translating every message of the shipped
    templates to ``«English»`` (placeholders kept), compiled."""
    from babel.messages.pofile import read_po

    from gintutor.content.catalogs import compiled, new_catalog

    for domain in i18n.DOMAINS:
        with (LOCALE_DIR / f"{domain}.pot").open("rb") as file:
            pot = read_po(file)
        po = new_catalog(language, domain)
        for message in pot:
            if not message.id:
                continue
            if isinstance(message.id, str):
                string: str | tuple[str, ...] = f"«{message.id}»"
            else:
                string = tuple(f"«{message.id[1]}»" for _ in range(po.num_plurals))
            po.add(message.id, string, context=message.context)
        target = i18n.catalog_path(language, domain, folder=folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(compiled(po))
    return folder


def test_choice_order_option_then_variable_then_saved_then_locale() -> None:
    env = {"GINTUTOR_LANG": "id", "LANG": "nb_NO.UTF-8"}
    assert choose("pt", lambda: "nb", env) == ("pt_BR", None)
    assert choose(None, lambda: "nb", env) == ("id", None)
    assert choose(None, lambda: "pt_BR", {"LANG": "nb_NO.UTF-8"}) == ("pt_BR", None)
    assert choose(None, lambda: None, {"LANG": "nb_NO.UTF-8"}) == ("nb", None)
    assert choose(None, lambda: None, {}) == ("en", None)


def test_the_saved_setting_is_read_only_when_needed() -> None:
    def never() -> str:
        raise AssertionError("read")

    assert choose("id", never, {}) == ("id", None)
    assert choose(None, never, {"GINTUTOR_LANG": "nb"}) == ("nb", None)


@pytest.mark.parametrize(
    ("name", "language"),
    [("pt", "pt_BR"), ("no", "nb"), ("nn", "nb"), ("in", "id"), ("pt_PT.UTF-8", "pt_BR")],
)
def test_aliases(name: str, language: str) -> None:
    assert choose(name, None, {}) == (language, None)


@pytest.mark.parametrize("where", ["option", "variable", "saved"])
def test_an_unknown_language_is_one_warning_and_english(where: str) -> None:
    option = "klingon" if where == "option" else None
    env = {"GINTUTOR_LANG": "klingon"} if where == "variable" else {"LANG": "nb_NO.UTF-8"}
    language, warning = choose(option, lambda: "klingon" if where == "saved" else None, env)
    assert language == "en"
    assert warning is not None and "\n" not in warning and "'klingon'" in warning


def test_a_locale_we_do_not_speak_is_english_without_a_warning() -> None:
    assert choose(None, None, {"LANG": "fr_FR.UTF-8"}) == ("en", None)
    assert choose(None, None, {"LANGUAGE": "fr:de", "LANG": "C.UTF-8"}) == ("en", None)


def test_marked_catalogs_translate_and_fill(marked_nb: Path) -> None:
    use("nb", marked_nb)
    assert i18n._r("Game: the first player to reach {target} points wins.", target=100) == (
        "«Game: the first player to reach 100 points wins.»"
    )
    assert _("not a message in any catalog {x}", x=1) == "not a message in any catalog 1"


def test_a_missing_catalog_is_english(tmp_path: Path) -> None:
    use("id", tmp_path)
    assert i18n._r("{name} rules", name="standard") == "standard rules"
    assert ngettext("{n} card", "{n} cards", 2, n=2) == "2 cards"


def _po_with(tmp_path: Path, language: str, entries: list[tuple[object, object]]) -> None:
    from gintutor.content.catalogs import compiled, new_catalog

    po = new_catalog(language, "gintutor")
    for english, translated in entries:
        po.add(english, translated)  # type: ignore[arg-type]
    path = i18n.catalog_path(language, "gintutor", folder=tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(compiled(po))


def test_a_translation_with_wrong_placeholders_shows_english(tmp_path: Path) -> None:
    _po_with(tmp_path, "nb", [("{points} points", "{poeng} poeng"), ("{a} and {b}", "{b} og {a}")])
    use("nb", tmp_path)
    assert _("{points} points", points=3) == "3 points"
    assert _("{a} and {b}", a=1, b=2) == "2 og 1"


@pytest.mark.parametrize(
    ("language", "forms"),
    [
        ("id", {0: "{n} kartu", 1: "{n} kartu", 2: "{n} kartu"}),
        ("pt_BR", {0: "{n} carta", 1: "{n} carta", 2: "{n} cartas"}),
        ("nb", {0: "{n} kort#", 1: "{n} kort", 2: "{n} kort#"}),
    ],
)
def test_plural_forms_follow_the_languages_rule(
    tmp_path: Path, language: str, forms: dict[int, str]
) -> None:
    """Indonesian has one form; Portuguese says 0 and 1 in the singular, Norwegian 1 alone
    (the second Norwegian form is marked # to tell it from the first)."""
    strings = {
        "id": ("{n} kartu",),
        "pt_BR": ("{n} carta", "{n} cartas"),
        "nb": ("{n} kort", "{n} kort#"),
    }[language]
    _po_with(tmp_path, language, [(("{n} card", "{n} cards"), strings)])
    use(language, tmp_path)
    for n, form in forms.items():
        assert ngettext("{n} card", "{n} cards", n, n=n) == form.format(n=n)


def test_every_lesson_text_is_looked_up_in_the_catalog(marked_nb: Path) -> None:
    """The lesson reader asks the catalog for exactly the texts the extractor put there, with
    the same contexts: with every message marked, every text of every lesson is marked."""
    from gintutor.content.lessons import load_lessons
    from gintutor.tutor.lessons import Ask, CarouselShow, Prose, Show

    use("nb", marked_nb)
    texts: list[str] = []
    for lesson in load_lessons():
        texts += [lesson.title] + ([lesson.summary] if lesson.summary else [])
        for step in lesson.steps:
            if isinstance(step, Prose):
                texts.append(step.text)
            elif isinstance(step, Show | CarouselShow) and step.caption:
                texts.append(step.caption)
            elif isinstance(step, Ask):
                question = step.question
                texts += [question.prompt, *question.hints]
                if question.explanation:
                    texts.append(question.explanation)
    assert len(texts) > 500
    assert [text for text in texts if not (text.startswith("«") and text.endswith("»"))] == []


def test_every_puzzle_text_is_looked_up_in_the_catalog(marked_nb: Path) -> None:
    """Every title, question, hint and explanation of both packs is found in the catalog the
    extractor wrote, under its field."""
    from gintutor.content.carouselpuzzles import load_carousel_puzzles
    from gintutor.content.puzzles import check_puzzles, puzzle_files
    from gintutor.text.i18n import puzzle_text
    from gintutor.tutor.carouselpuzzles import CarouselPuzzle
    from gintutor.tutor.puzzles import Puzzle

    use("nb", marked_nb)
    gin, problems = check_puzzles(puzzle_files(), solve=False)
    assert problems == []
    texts: list[str] = []
    puzzles: list[Puzzle | CarouselPuzzle] = [*gin, *load_carousel_puzzles()]
    for puzzle in puzzles:
        texts += [puzzle_text("title", puzzle.title), puzzle_text("question", puzzle.question)]
        texts += [puzzle_text("hint", hint) for hint in puzzle.hints]
        if puzzle.explanation:
            texts.append(puzzle_text("explanation", puzzle.explanation))
    assert len(texts) > 1500
    assert [text for text in texts if not (text.startswith("«") and text.endswith("»"))] == []


def test_a_puzzle_translation_with_other_placeholders_shows_english(tmp_path: Path) -> None:
    """The puzzle's filler would not know a placeholder the English does not have: a
    translation that changes, drops or repeats one shows the English, never an error."""
    from gintutor.content.catalogs import compiled, new_catalog
    from gintutor.text.i18n import puzzle_text

    po = new_catalog("nb", "puzzles")
    english = "After {best} you keep {best.knock_outs:n} outs and {best.deadwood}."
    good = "Etter {best} har du {best.deadwood} og {best.knock_outs:n} outs."
    po.add(english, good, context="explanation")
    po.add("{stock} left", "{stock} igjen, {stock}", context="hint")
    po.add("{KS.deadwood}", "{KS.deadwood:n}", context="hint")
    po.add("Fives", "Femmere", context="title")
    path = i18n.catalog_path("nb", "puzzles", folder=tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(compiled(po))
    use("nb", tmp_path)
    assert puzzle_text("explanation", english) == good
    assert puzzle_text("hint", "{stock} left") == "{stock} left"
    assert puzzle_text("hint", "{KS.deadwood}") == "{KS.deadwood}"
    assert puzzle_text("title", " Fives ") == "Femmere"
    assert puzzle_text("hint", "Fives") == "Fives"  # another field: not translated
    use(ENGLISH)
    assert puzzle_text("title", "Fives") == "Fives"


@pytest.mark.parametrize("language", ["id", "pt_BR", "nb"])
@pytest.mark.parametrize("digits", [0, 1, 2])
@pytest.mark.parametrize(
    "value", [0.0, 0.05, 0.125, 0.5, 0.999, 1.0, 3.25, 12.345, -0.375, -7.5, 12.5, 1234.5, -98765.4]
)
def test_numbers_and_percentages_follow_cldr_as_babel_writes_them(
    language: str, digits: int, value: float
) -> None:
    """The stdlib helper writes what Babel writes from CLDR's data (decimal sign, digit groups,
    the percent sign's place), with Babel's rounding of the same float."""
    from babel import Locale
    from babel.numbers import format_decimal, format_percent

    from gintutor.text.i18n import number, percent

    use(language)
    decimals = "." + "0" * digits if digits else ""
    assert number(value, digits) == format_decimal(
        round(value, digits), f"#,##0{decimals};-#", locale=language
    )
    pattern = Locale.parse(language).percent_formats[None].pattern.replace("0%", f"0{decimals}%")
    pattern = pattern.replace("0\xa0%", f"0{decimals}\xa0%")
    assert percent(value, digits) == format_percent(
        round(100 * value, digits) / 100, pattern, locale=language
    )


def test_english_numbers_are_as_gintutor_always_wrote_them() -> None:
    from gintutor.text.i18n import number, percent

    use(ENGLISH)
    assert (number(12345.67, 1), number(2.5, 1, signed=True), percent(0.125, 1)) == (
        "12345.7",
        "+2.5",
        "12.5%",
    )
    use("nb")
    assert (number(2.5, 1, signed=True), percent(0.125, 1)) == ("+2,5", "12,5\xa0%")
