"""Every translation says a game term with the word its language's glossary gives for it.

The glossary (``gintutor/locale/<lang>/glossary.yaml``) maps each English term (stock,
discard pile, meld, knock, deadwood ...) to the word card players in that country use, or to a
list of its forms the test cannot see by itself (a plural that changes the stem, a verb's
forms). A translation whose English names a term must contain one of those forms, ignoring
case. What is not the game's word is left out of the English first: code and quoted input
(``A knock 12``, `` `gintutor rules` ``, ``{deadwood}``), the theme names, and the other senses
of a few everyday words (a rule *set*, to *run* a command, a hand that *runs* long); Carousel's
own terms (table, group, round ...) are checked where Carousel is taught.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
import yaml

pytest.importorskip("babel")

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from test_catalogs import COMPLETE

from gintutor.text.i18n import LOCALE_DIR, catalog_path

CHECKED = COMPLETE
"""The catalogs whose glossary use is checked: every one declared complete."""

CAROUSEL_TERMS = {"carousel", "joker", "table", "rearrange", "group", "sequence", "round"}
"""Terms that are Carousel's words: elsewhere "table" is a table of figures, "group" any
group of cards, "round" an adverb."""

NOT_THE_GAME = [
    re.compile(pattern, re.IGNORECASE | re.DOTALL)
    for pattern in (
        r"\b(?:rule|source text's) sets?\b|\bsets? (?:the|it|a|no|up|out|to)\b|\bis set\b|\bpresets?\b",
        r"\bset GINTUTOR_[A-Z]+\b",  # set an environment variable
        r"\bruns? (?:out|low|longer)\b|\bran out\b|\bhands? runs?\b|\brun\s+`|\bto run\b|\brun gintutor\b",
        r"\bround the corner\b|\brounded\b",
        r"\bfirst melds\b",  # "first melds their own run": first, the defender melds
        r"deadwood, outs, safety, knock-or-play, upcard, layoff-exposure",  # the puzzle themes
        r"\bgintutor(?: [a-z-]+)+",  # a command line
        r"```.*?```",  # a YAML example
        r"`[^`]*`",  # code
        r"'[^']*'",  # quoted input: 'A knock 12'
        r'"[^"]*"',
        r"\{[^{}]*\}",  # placeholders
        r"\b[a-z]+(?:-[a-z]+)+\b",  # theme and setting names: knock-or-play, layoff-exposure
        r"\[[a-z|]+\]",  # [knock|out]
    )
]


@cache
def _english(term: str) -> re.Pattern[str]:
    """The term and its English inflections (a two-word term as written, plural aside)."""
    suffix = "(?:s|es|ed|ing|ers?)?" if " " not in term else "s?"
    return re.compile(rf"\b{re.escape(term)}{suffix}\b", re.IGNORECASE)


@cache
def _glossary(language: str) -> dict[str, list[str]]:
    text = (LOCALE_DIR / language / "glossary.yaml").read_text("utf-8")
    terms: dict[str, Any] = yaml.safe_load(text)["terms"]
    return {
        term: [form.lower() for form in (value if isinstance(value, list) else [value])]
        for term, value in terms.items()
    }


def _misses(catalog: Catalog, language: str) -> Iterator[tuple[str, str, str]]:
    """(term, context, translation) for each translation missing a term's word."""
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        english = message.id if isinstance(message.id, str) else message.id[-1]
        translation = message.string if isinstance(message.string, str) else message.string[-1]
        translation = " ".join(translation.split())  # a term may break across lines
        for pattern in NOT_THE_GAME:
            english = pattern.sub(" ", english)
        carousel = (message.context or "").startswith("carousel") or any(
            "carousel" in path for path, _ in message.locations
        )
        glossary = _glossary(language)
        for term in _terms_in(english, tuple(glossary)):
            if term in CAROUSEL_TERMS and not carousel:
                continue
            if not any(form in translation.lower() for form in glossary[term]):
                yield term, message.context or "", translation


@cache
def _terms_in(english: str, terms: tuple[str, ...]) -> list[str]:
    """The terms an English text uses (the same text is checked in each language once)."""
    return [term for term in terms if _english(term).search(english)]


@pytest.mark.parametrize(("language", "domain"), sorted(CHECKED))
def test_each_translation_uses_the_glossarys_word(language: str, domain: str) -> None:
    with catalog_path(language, domain, ".po").open("rb") as file:
        catalog = read_po(file, locale=language, domain=domain)
    assert list(_misses(catalog, language)) == []


def test_the_check_finds_a_translation_that_misses_the_word() -> None:
    """A translation saying "pilha" where the glossary says "lixo" is found; code, quoted
    input and a rule *set* are not the game's words."""
    po = Catalog(locale="pt_BR", domain="lessons")
    po.add("Take the top card of the discard pile.", "Pegue a carta de cima do lixo.", context="a")
    po.add("Take the top card of the discard pile.", "Pegue a de cima da pilha.", context="b")
    po.add("Run `gintutor rules` to see a rule set.", "Rode `gintutor rules`.", context="c")
    po.add("Ann,Bob: 'A knock 12'", "Ana,Beto: 'A knock 12'", context="d")
    po.add("Nobody knocked.", "Ninguém bateu.", context="e")
    po.add("Nobody knocked.", "Ninguém encerrou.", context="f")
    po.add("Two runs.", "Duas sequências.", context="g")
    assert [(term, context) for term, context, _ in _misses(po, "pt_BR")] == [
        ("discard pile", "b"),
        ("knock", "f"),
    ]
