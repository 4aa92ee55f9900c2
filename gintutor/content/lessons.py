"""Lessons: YAML files turned into validated frozen models (format in ``lessons/README.md``).

Every problem is reported as ``file:line: what is wrong`` so an author can fix it; questions
carry no answers of their own: the engine answers them, and an optional ``expect:`` must agree.

YAML, the engine and the question kinds are imported only when a file is read: outlines found
in the outline cache (:func:`load_outlines`) need none of them. Measured with them at the top of
this module (bench_startup.py, least CPU, ratio to the bare Typer + Rich app, 3 rounds, load
~7-9): learn --list 1.40x and learn 1 1.34x, against 1.00x and 1.09x. Without the caches
(``--cold``, the first start) learn --list is 1.28x, learn 1 1.17x.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gintutor.content.cachefile import code_fingerprint, keep, kept, read_quietly, store_quietly
from gintutor.content.paths import VERDICTS_FILE, content_dir
from gintutor.content.problems import Problem, problems_error
from gintutor.content.store import LESSON_RECORDS
from gintutor.content.textfile import read_text
from gintutor.engine.cards import parse_cards
from gintutor.engine.carousel.rules import STANDARD
from gintutor.engine.rules import PRESETS
from gintutor.errors import GinError, Note, Phrase
from gintutor.text.i18n import catalog_fingerprint, lesson_context, lesson_text
from gintutor.tutor.lessons import (
    Ask,
    CarouselShow,
    Game,
    Lesson,
    LessonError,
    LessonOutline,
    Level,
    Prose,
    Show,
    Step,
    fill_carousel_rules,
    fill_rules,
)
from gintutor.tutor.questions import (
    CAROUSEL_KIND_NAMES,
    COACHED_KIND_NAMES,
    KIND_NAMES,
    question_kind,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    import yaml

    from gintutor.content.problems import Problem
    from gintutor.content.yamlread import Reader
    from gintutor.engine.cards import Card
    from gintutor.engine.rules import RuleSet
    from gintutor.tutor.puzzles import Solution
    from gintutor.tutor.questions import GameAsk, Predicate, Question

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_LESSON_KEYS = {
    "id",
    "title",
    "level",
    "game",
    "concepts",
    "prerequisites",
    "rules",
    "summary",
    "steps",
}
_COMMON_KEYS = {"question", "prompt", "rules", "hints", "explain", "expect"}
_FIELDS_OF_EVERY_QUESTION = {"prompt", "rules", "hints", "explanation"}
_FILLED_BY_THE_READER = {"verdict"}
"""Fields a question gets from the reader, never from a key of the lesson file: a coached
kind's stored verdict."""


@cache
def _kind_keys(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The keys kind ``name`` needs and the keys it may have, in field order (field name =
    key); the kind's module is imported now."""
    kind = question_kind(name)
    assert kind is not None, name
    own = [
        f
        for f in fields(kind)
        if f.name not in _FIELDS_OF_EVERY_QUESTION and f.name not in _FILLED_BY_THE_READER
    ]
    needed = tuple(f.name for f in own if f.default is MISSING and f.default_factory is MISSING)
    return needed, tuple(f.name for f in own)


MOST_CARDS = 11
"""The most cards a gin hand holds (ten, and one drawn): every hand and option of a gin
question is bounded by it (a ``deadwood`` question of 44 cards took 25 s and 1.9 GB to check,
one of 48 to 52 cards ran out of memory)."""
_CARDS_ALLOWED: dict[str, dict[str, tuple[int, int]]] = {
    "deadwood": {"hand": (1, MOST_CARDS)},
    "melds": {"hand": (1, MOST_CARDS)},
    "discard": {"hand": (11, 11)},
    "knock": {"hand": (10, 11)},
    "choice": {"hand": (1, MOST_CARDS), "options": (1, MOST_CARDS)},
    "knock-or-play": {"hand": (11, 11)},
}
MOST_CAROUSEL_CARDS = 40
"""The most cards of a Carousel question's or show's hand: what ``carousel analyze`` takes
(its ``MAX_HAND``, measured there); a hand of 80 cards from two decks ran over 20 s."""
for _kind in ("carousel-play", "carousel-place", "carousel-joker", "carousel-knock"):
    _CARDS_ALLOWED[_kind] = {"hand": (1, MOST_CAROUSEL_CARDS)}
"""The number of cards each gin question kind takes, per key (``options``: each option)."""
MOST_OPTIONS = 26
"""The most options of a choice question (labelled ``a`` to ``z``)."""

_SHOW_KEYS = {"hand", "rules", "upcard", "taken", "opponent", "caption"}
_CAROUSEL_SHOW_KEYS = {"table", "hand", "players", "first_meld", "caption"}


def _localized(
    tr: Callable[[str, str], str], field: str, text: str, fill: Callable[[str], str]
) -> str:
    """``text`` (the step's ``field``) in the active language, its placeholders filled; the
    English where the translation's placeholders cannot be filled (never an error)."""
    translated = tr(field, text)
    if translated != text:
        try:
            return str(fill(translated))
        except GinError:
            pass
    return str(fill(text))


def _same(text: str) -> str:
    return text


def _game_of(name: str) -> Game:
    return Game.CAROUSEL if name in CAROUSEL_KIND_NAMES else Game.GIN


@cache
def _question_keys(game: Game) -> frozenset[str]:
    """The keys a question may have in a lesson about ``game`` (imports every kind of it:
    needed only when a question has a key its own kind does not use)."""
    return frozenset(
        _COMMON_KEYS.union(*(_kind_keys(name)[1] for name in KIND_NAMES if _game_of(name) is game))
    )


def _filler(game: Game, rules: RuleSet | None) -> Callable[[str], str]:
    """The placeholder filler of a lesson's texts: Carousel settings or the gin rule set's."""
    if game is Game.CAROUSEL:
        return lambda text: fill_carousel_rules(text, STANDARD)

    return lambda text: fill_rules(text, rules or PRESETS["standard"])


def _carousel_show(
    reader: Reader, node: yaml.Node, engine: bool, tr: Callable[[str, str], str]
) -> CarouselShow | None:
    from gintutor.content.yamlread import check_keys

    items = reader.mapping(node, "show")
    check_keys(reader, items, _CAROUSEL_SHOW_KEYS, Phrase("a Carousel show step"))
    if "hand" not in items:
        reader.fail(node, Note("show: needs a hand"))
        return None
    from gintutor.tutor.questions.carousel import CarouselQuestion

    values: dict[str, Any] = {}
    for key in ("table", "hand", "players", "first_meld"):
        if key in items:
            values[key] = _carousel_value(reader, CarouselQuestion, key, items[key][1])
    caption = reader.text(items["caption"][1], "caption") if "caption" in items else None
    if caption is not None:
        caption = _localized(tr, "caption", caption, _same)
    _check_sizes(reader, "carousel-play", items, values)
    if any(value is None for value in values.values()):
        return None
    show = CarouselShow(caption=caption, line=node.start_mark.line + 1, **values)
    if engine:
        from gintutor.engine.carousel.cards import decks_for
        from gintutor.engine.carousel.solver import best_play

        try:
            best_play(show.table, show.hand, decks_for(show.players), first_meld=show.first_meld)
        except GinError as error:
            reader.fail(node, Note("show: {error}", error=error))
            return None
    return show


def _carousel_value(reader: Reader, kind: type[Any], key: str, node: yaml.Node) -> Any:
    """A Carousel question's key read by its kind (``None`` after a problem)."""
    value = reader.scalar(node)
    if value is None and key != "table":
        reader.fail(node, Note("{key}: expected a value", key=key))
        return None
    try:
        return kind.read_field(key, value)
    except GinError as error:
        reader.fail(node, Note("{key}: {error}", key=key, error=error))
        return None


def _show(
    reader: Reader, node: yaml.Node, rules: RuleSet, engine: bool, tr: Callable[[str, str], str]
) -> Show | None:
    from gintutor.content.yamlread import check_keys

    items = reader.mapping(node, "show")
    check_keys(reader, items, _SHOW_KEYS, Phrase("a show step"))
    if "hand" not in items:
        reader.fail(node, Note("show: needs a hand"))
        return None
    hand = reader.cards(items["hand"][1], "hand")
    step_rules = reader.rules(items["rules"][1], "rules") if "rules" in items else rules
    upcard = reader.card(items["upcard"][1], "upcard") if "upcard" in items else None
    taken = reader.card(items["taken"][1], "taken") if "taken" in items else None
    opponent = reader.cards(items["opponent"][1], "opponent") if "opponent" in items else None
    caption = reader.text(items["caption"][1], "caption") if "caption" in items else None
    if caption is not None:
        caption = _localized(tr, "caption", caption, _same)
    if hand is None or step_rules is None:
        return None
    show = Show(hand, step_rules, upcard, taken, opponent, caption, node.start_mark.line + 1)
    if not engine:
        return show
    try:
        from gintutor.engine.analysis import analyze

        result = analyze(
            hand, step_rules, upcard=upcard, taken_from_discard=taken, opponent=opponent
        )
    except GinError as error:
        reader.fail(node, Note("show: {error}", error=error))
        return None
    if opponent is not None and result.no_showdown is not None:
        reader.fail(
            node,
            Note(
                "show: the hand cannot knock, so the opponent's hand is never played "
                "out: drop 'opponent' or show a hand that can knock"
            ),
        )
        return None
    return show


def _question(
    reader: Reader,
    node: yaml.Node,
    rules: RuleSet,
    engine: bool,
    game: Game,
    tr: Callable[[str, str], str],
) -> Ask | None:
    items = reader.mapping(node, "question")
    kind_node = items["question"][1]
    kind_name = reader.scalar(kind_node)
    kind = question_kind(kind_name) if isinstance(kind_name, str) else None
    if kind is not None and _game_of(kind.kind) is not game:
        reader.fail(
            kind_node,
            Note(
                "question: a {kind} question is about {about}; this lesson is about {game} {fix}",
                kind=kind.kind,
                about=_game_of(kind.kind).value,
                game=game.value,
                # The lesson's YAML key, not the game's *set*: kept out of the catalog, whose
                # glossary check would ask for the word for a set of cards.
                fix="(set game: in the lesson)",
            ),
        )
        return None
    needed, allowed = _kind_keys(kind.kind) if kind is not None else ((), ())
    # Every key of the question's own kind is known in its game: only another key needs the
    # keys of every kind (an unknown key, or one the kind does not use).
    others = [key for key in items if key not in _COMMON_KEYS and key not in allowed]
    if others:
        from gintutor.content.yamlread import check_keys

        check_keys(reader, items, set(_question_keys(game)), Phrase("a question"))
    if kind is None:
        kinds = ", ".join(name for name in KIND_NAMES if _game_of(name) is game)
        reader.fail(
            kind_node,
            Note("question: unknown kind {kind!r} (use {kinds})", kind=kind_name, kinds=kinds),
        )
        return None
    before = len(reader.problems)
    if game is Game.CAROUSEL and "rules" in items:
        reader.fail(items["rules"][0], Note("rules: Carousel questions play the Carousel rules"))
    for need in needed:
        if need not in items:
            reader.fail(node, Note("a {kind} question needs {need}:", kind=kind.kind, need=need))
    for key in others:
        if key in _question_keys(game):
            reader.fail(
                items[key][0],
                Note(
                    "{key}: a {kind} question does not use it (it uses {allowed})",
                    key=key,
                    kind=kind.kind,
                    allowed=", ".join(allowed),
                ),
            )
    prompt = reader.text(items["prompt"][1], "prompt") if "prompt" in items else None
    if prompt is None and "prompt" not in items:
        reader.fail(node, Note("a question needs a prompt:"))
    question_rules: RuleSet | None = rules
    if "rules" in items and game is Game.GIN:
        question_rules = reader.rules(items["rules"][1], "rules")
    fill = _filler(game, question_rules)
    values: dict[str, Any] = {}
    for key in allowed:
        if key in items:
            if game is Game.CAROUSEL:
                values[key] = _carousel_value(reader, kind, key, items[key][1])
            else:
                values[key] = _value(reader, key, items[key][1])
    try:
        if "hints" in items:
            values["hints"] = tuple(
                _localized(tr, f"hint-{number}", hint, fill)
                for number, hint in enumerate(reader.strings(items["hints"][1], "hints"), 1)
            )
        if "explain" in items:
            text = reader.text(items["explain"][1], "explain")
            if text:
                values["explanation"] = _localized(tr, "explain", text, fill)
        if prompt is not None:
            prompt = _localized(tr, "prompt", prompt, fill)
    except GinError as error:
        reader.fail(node, Note(error.template, **error.params))
    _check_sizes(reader, kind.kind, items, values)
    if len(reader.problems) > before or prompt is None or question_rules is None:
        return None
    question = kind(
        prompt=prompt,
        rules=question_rules,
        **{key: value for key, value in values.items() if value is not None},
    )
    if kind.kind in COACHED_KIND_NAMES:
        question = _with_verdict(question)
    expect = _expect_text(reader.scalar(items["expect"][1])) if "expect" in items else None
    if not engine:
        return Ask(question, expect, node.start_mark.line + 1)
    try:
        question.verify()
    except GinError as error:
        reader.fail(node, Note("the engine cannot answer this question: {error}", error=error))
        return None
    if expect is not None and not question.accepts(expect):
        answer = question.solve().answer
        reader.fail(
            items["expect"][1],
            Note(
                "expect: {expect!r} but the engine's answer is {answer!r}: fix expect",
                expect=expect,
                answer=answer,
            ),
        )
    return Ask(question, expect, node.start_mark.line + 1)


def _with_verdict(question: Question) -> Question:
    """A coached question with its stored verdict (``None`` when there is none: answering it
    is then an error, which ``lessons check`` reports)."""
    from gintutor.content.verdicts import load_verdicts, stored_verdict
    from gintutor.tutor.questions.coached import CoachedQuestion

    assert isinstance(question, CoachedQuestion), question
    return replace(question, verdict=stored_verdict(question.puzzle(), load_verdicts()))


def _check_sizes(
    reader: Reader,
    kind: str,
    items: dict[str, tuple[yaml.Node, yaml.Node]],
    values: dict[str, Any],
) -> None:
    """A problem on the line of each hand (or option) with a number of cards the question's
    kind does not take (:data:`_CARDS_ALLOWED`), before the engine is asked anything."""
    for key, (low, high) in _CARDS_ALLOWED.get(kind, {}).items():
        value = values.get(key)
        if value is None:
            continue
        groups = value if key == "options" else (value,)
        if key == "options" and len(groups) > MOST_OPTIONS:
            reader.fail(
                items[key][1],
                Note(
                    "options: {count} options: give {most} at most",
                    count=len(groups),
                    most=MOST_OPTIONS,
                ),
            )
            values[key] = None
            continue
        for group in groups:
            if not low <= len(group) <= high:
                what = (
                    Phrase("an option")
                    if key == "options"
                    else Phrase("a {kind} {key}", kind=kind, key=key)
                )
                wanted = f"{low}" if low == high else Phrase("{low} to {high}", low=low, high=high)
                reader.fail(
                    items[key][1],
                    Note(
                        "{key}: {count} cards: {what} has {wanted} cards",
                        key=key,
                        count=len(group),
                        what=what,
                        wanted=wanted,
                    ),
                )
                values[key] = None
                break


def _value(reader: Reader, key: str, node: yaml.Node) -> Any:
    """The value of a question's key as its field holds it (``None`` after a problem)."""
    if key in ("hand", "defender", "opponent_known", "dead"):
        return reader.cards(node, key)
    if key == "stock_size":
        stock = reader.scalar(node)
        if isinstance(stock, int) and not isinstance(stock, bool) and stock >= 0:
            return stock
        reader.fail(node, Note("stock_size: expected a whole number >= 0"))
        return None
    if key in ("upcard", "taken"):
        return reader.card(node, key)
    if key == "entries":
        return reader.strings(node, key)
    if key == "options":
        return _options(reader, node)
    if key == "players":
        players = reader.strings(node, key)
        if len(players) == 2:
            return players
        reader.fail(node, Note("players: expected two names"))
        return None
    if key in ("setting", "opponent"):
        return reader.text(node, key)
    if key in ("predicate", "want"):
        enum: type[Predicate] | type[GameAsk]
        if key == "predicate":
            from gintutor.tutor.questions.choice import Predicate as enum
        else:
            from gintutor.tutor.questions.sheets import GameAsk as enum
        value = reader.scalar(node)
        try:
            return enum(value)
        except ValueError:
            choices = ", ".join(str(member.value) for member in enum)
            reader.fail(
                node,
                Note(
                    "{key}: unknown value {value!r} (use {choices})",
                    key=key,
                    value=value,
                    choices=choices,
                ),
            )
            return None
    number = reader.scalar(node)
    if key == "game" and number in (1, 2, 3) and not isinstance(number, bool):
        return number
    reader.fail(node, Note("game: expected 1, 2 or 3 (a Hollywood game)"))
    return None


def _options(reader: Reader, node: yaml.Node) -> tuple[tuple[Card, ...], ...] | None:
    """A choice question's options: groups of cards, in the author's order."""
    before = len(reader.problems)
    texts = reader.strings(node, "options")
    if len(reader.problems) > before:
        return None
    if len(texts) < 2:
        reader.fail(node, Note("options: expected two options or more"))
        return None

    try:
        options = tuple(parse_cards(text) for text in texts)
    except GinError as error:
        reader.fail(node, Note("options: {error}", error=error))
        return None
    return options


def _expect_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(str(item) for item in value)
    return str(value)


def _step_kinds(
    reader: Reader, node: yaml.Node
) -> Iterator[tuple[int, str, yaml.Node, dict[str, tuple[yaml.Node, yaml.Node]]]]:
    """Each step's number (from 1, in the file), kind (``prose``, ``show`` or ``question``),
    node and keys, in order; a step of no kind is a problem. The one reading of which steps a
    lesson has (outline and full)."""
    import yaml

    if not isinstance(node, yaml.SequenceNode) or not node.value:
        reader.fail(node, Note("steps: expected a list of steps (prose, show or question)"))
        return
    for number, step_node in enumerate(node.value, start=1):
        items = reader.mapping(step_node, Phrase("a step"))
        if "prose" in items and len(items) == 1:
            yield number, "prose", step_node, items
        elif "show" in items and len(items) == 1:
            yield number, "show", step_node, items
        elif "question" in items:
            yield number, "question", step_node, items
        elif items:
            reader.fail(
                step_node,
                Note(
                    "unknown step kind {keys}: a step is 'prose: ...', 'show: ...' or "
                    "'question: KIND' with its keys",
                    keys=", ".join(items),
                ),
            )


def _translator(lesson_id: str | None, step: int) -> Callable[[str, str], str]:
    """Looks up a text of step ``step`` of lesson ``lesson_id`` in the lessons catalog."""
    if lesson_id is None:
        return lambda field, text: text
    return lambda field, text: lesson_text(lesson_context(lesson_id, field, step), text)


def _steps(
    reader: Reader,
    node: yaml.Node,
    rules: RuleSet,
    engine: bool,
    game: Game,
    lesson_id: str | None = None,
) -> Iterator[Step]:
    for number, kind, step_node, items in _step_kinds(reader, node):
        tr = _translator(lesson_id, number)
        if kind == "prose":
            text = reader.text(items["prose"][1], "prose")
            if text is not None:
                try:
                    prose = _localized(tr, "prose", text.strip(), _filler(game, rules))
                    yield Prose(prose.strip(), step_node.start_mark.line + 1)
                except GinError as error:
                    reader.fail(items["prose"][1], Note("prose: {error}", error=error))
        elif kind == "show":
            show: Show | CarouselShow | None
            if game is Game.CAROUSEL:
                show = _carousel_show(reader, items["show"][1], engine, tr)
            else:
                show = _show(reader, items["show"][1], rules, engine, tr)
            if show is not None:
                yield show
        else:
            ask = _question(reader, step_node, rules, engine, game, tr)
            if ask is not None:
                yield ask


@dataclass(frozen=True)
class _Head:
    """A lesson file's keys other than its steps, as read (``None`` where a problem was)."""

    lesson_id: str | None
    title: str | None
    level: Level | None
    concepts: tuple[str, ...]
    prerequisites: tuple[str, ...]
    summary: str
    game: Game
    rules: RuleSet
    steps: yaml.Node | None


def _head(reader: Reader, root: yaml.Node) -> _Head:
    from gintutor.content.yamlread import check_keys

    items = reader.mapping(root, Phrase("a lesson"))
    check_keys(reader, items, _LESSON_KEYS, Phrase("a lesson"))
    for key in ("id", "title", "level", "steps"):
        if key not in items:
            reader.fail(root, Note("a lesson needs {key}:", key=key))
    lesson_id = reader.text(items["id"][1], "id") if "id" in items else None
    if lesson_id is not None and not _ID.match(lesson_id):
        reader.fail(
            items["id"][1], Note("id: {id!r}: use lowercase letters, digits and -", id=lesson_id)
        )
    title = reader.text(items["title"][1], "title") if "title" in items else None
    level = None
    if "level" in items:
        try:
            level = Level(reader.scalar(items["level"][1]))
        except ValueError:
            reader.fail(items["level"][1], Note("level: use beginner, intermediate or advanced"))
    concepts = reader.strings(items["concepts"][1], "concepts") if "concepts" in items else ()
    prerequisites = (
        reader.strings(items["prerequisites"][1], "prerequisites")
        if "prerequisites" in items
        else ()
    )
    summary = reader.text(items["summary"][1], "summary") if "summary" in items else ""
    if lesson_id is not None and _ID.match(lesson_id):
        if title is not None:
            title = lesson_text(lesson_context(lesson_id, "title"), title)
        if summary:
            summary = lesson_text(lesson_context(lesson_id, "summary"), summary)
    game = Game.GIN
    if "game" in items:
        try:
            game = Game(reader.scalar(items["game"][1]))
        except ValueError:
            reader.fail(items["game"][1], Note("game: use gin or carousel"))
    rules = PRESETS["standard"]
    if "rules" in items:
        if game is Game.CAROUSEL:
            reader.fail(
                items["rules"][0], Note("rules: a Carousel lesson plays the Carousel rules")
            )
        rules = reader.rules(items["rules"][1], "rules") or rules
    steps = items["steps"][1] if "steps" in items else None
    return _Head(
        lesson_id, title, level, concepts, prerequisites, summary or "", game, rules, steps
    )


def _read_head(text: str, path: str) -> tuple[Reader, _Head | None, list[Problem]]:
    from gintutor.content.yamlread import Reader, compose

    reader = Reader(path)
    root, problems = compose(path, text)
    if problems:
        return reader, None, problems
    if root is None:
        return (
            reader,
            None,
            [Problem(path, 1, Note("the file is empty: a lesson needs id, title and steps"))],
        )
    return reader, _head(reader, root), []


def read_lesson(
    text: str, path: str, *, engine: bool = True
) -> tuple[Lesson | None, list[Problem]]:
    """A lesson from YAML text, and the problems found (the lesson is ``None`` if any).

    With ``engine`` every hand shown and every question is also checked by the engine (the
    engine can answer it, and ``expect:`` equals its answer): ``lessons check`` and the tests
    do that for the shipped lessons, so ``learn`` reads them without it and starts at once.
    """
    reader, head, problems = _read_head(text, path)
    if head is None:
        return None, problems
    steps: tuple[Step, ...] = ()
    if head.steps is not None:
        steps = tuple(_steps(reader, head.steps, head.rules, engine, head.game, head.lesson_id))
    if reader.problems or head.lesson_id is None or head.title is None or head.level is None:
        return None, reader.problems
    lesson = Lesson(
        head.lesson_id,
        head.title,
        head.level,
        head.concepts,
        head.prerequisites,
        steps,
        path,
        summary=head.summary,
        game=head.game,
    )
    return lesson, []


def read_outline(text: str, path: str) -> tuple[LessonOutline | None, list[Problem]]:
    """A lesson's outline from YAML text (its keys, and which steps are questions, read as
    :func:`read_lesson` reads them, the steps themselves left unread), and the problems found
    on the way; :meth:`LessonOutline.lesson` reads the lesson in full (without the engine).

    A test holds every shipped lesson's outline equal to the full lesson's.
    """
    reader, head, problems = _read_head(text, path)
    if head is None:
        return None, problems
    kinds = (
        [] if head.steps is None else [kind for _, kind, _, _ in _step_kinds(reader, head.steps)]
    )
    if reader.problems or head.lesson_id is None or head.title is None or head.level is None:
        return None, reader.problems
    outline = LessonOutline(
        head.lesson_id,
        head.title,
        head.level,
        head.concepts,
        head.prerequisites,
        path,
        len(kinds),
        tuple(index for index, kind in enumerate(kinds) if kind == "question"),
        summary=head.summary,
        game=head.game,
        load=partial(_load_one, text, path, 0),
    )
    return outline, []


def _load_one(text: str, path: str, number: int, store: Path | None = None) -> Lesson:
    """The lesson in ``text``, numbered ``number``; LessonError if it has a problem.

    With ``store`` (a folder), a lesson read before from exactly this text by exactly this
    code is taken from there, and a fresh reading is kept there (see :func:`_kept_lesson`).
    """
    key = _lesson_key(text, path) if store is not None else ""
    keeping = store / f"{Path(path).stem}.pickle" if store is not None and key else None
    if keeping is not None:
        found = _kept_lesson(keeping, key)
        if found is not None:
            return replace(found, number=number)
    lesson, problems = read_lesson(text, path, engine=False)
    if lesson is None:
        raise problems_error(problems, LessonError)
    if keeping is not None:
        keep(keeping, key, lesson)
    return replace(lesson, number=number)


def lesson_files(folder: Path | None = None) -> list[tuple[str, str]]:
    """``(path, text)`` of every lesson YAML file, in file-name order."""
    if folder is not None:
        return [(str(p), read_text(p, Phrase("the lesson"))) for p in sorted(folder.glob("*.yaml"))]
    root = content_dir("lessons")
    files = sorted(
        (entry for entry in root.iterdir() if entry.name.endswith(".yaml")),
        key=lambda entry: entry.name,
    )
    return [(f"lessons/{entry.name}", entry.read_text(encoding="utf-8")) for entry in files]


def check_lessons(
    files: Iterable[tuple[str, str]], *, engine: bool = True, other_ids: Iterable[str] = ()
) -> tuple[list[Lesson], list[Problem]]:
    """Load every lesson; report every problem, including ids and prerequisites across files.

    ``other_ids``: lessons that exist besides those read (prerequisites may name them).
    """
    lessons: list[Lesson] = []
    problems: list[Problem] = []
    for path, text in files:
        lesson, found = read_lesson(text, path, engine=engine)
        problems += found
        if lesson is not None:
            lessons.append(lesson)
    problems += _across(lessons, other_ids)
    numbered = [replace(lesson, number=n) for n, lesson in enumerate(lessons, start=1)]
    return numbered, problems


def coached_solutions(
    stored: dict[str, Any], *, replay: bool = False
) -> tuple[list[Solution], list[Problem]]:
    """The solution of every coached question of the shipped lessons, from its verdict in
    ``stored`` or judged now (every one, with ``replay``), and the problems found: what
    ``puzzles check --write-verdicts`` stores beside the pack's verdicts, so that rewriting
    the file keeps them. Each puzzle is named after its lesson and step (``knock-or-gin-12``)."""
    from gintutor.content.verdicts import solve
    from gintutor.tutor.questions.coached import CoachedQuestion

    lessons, problems = check_lessons(lesson_files(), engine=False)
    solutions: list[Solution] = []
    for lesson in lessons:
        for number, step in enumerate(lesson.steps, start=1):
            question = step.question if isinstance(step, Ask) else None
            if not isinstance(question, CoachedQuestion):
                continue
            assert isinstance(step, Ask)
            puzzle = replace(
                question.puzzle(), id=f"{lesson.id}-{number}", path=lesson.path, line=step.line
            )
            try:
                solutions.append(solve(puzzle, {} if replay else stored))
            except GinError as error:
                problems.append(
                    Problem(
                        lesson.path, step.line, Note("{id}: {error}", id=puzzle.id, error=error)
                    )
                )
    return solutions, problems


def _across(
    lessons: Sequence[Lesson | LessonOutline], other_ids: Iterable[str] = ()
) -> list[Problem]:
    """The problems across lesson files: an id used twice, a prerequisite no lesson has."""
    problems: list[Problem] = []
    known = set(other_ids)
    seen: dict[str, Lesson | LessonOutline] = {}
    for lesson in lessons:
        if lesson.id in seen:
            problems.append(
                Problem(
                    lesson.path,
                    1,
                    Note(
                        "id {id!r} is also used by {path}", id=lesson.id, path=seen[lesson.id].path
                    ),
                )
            )
        seen[lesson.id] = lesson
    for lesson in lessons:
        for needed in lesson.prerequisites:
            if needed not in seen and needed not in known:
                problems.append(
                    Problem(
                        lesson.path, 1, Note("prerequisites: no lesson has id {id!r}", id=needed)
                    )
                )
    return problems


_LESSON_ID = re.compile(r"^id:\s*['\"]?([a-z0-9][a-z0-9-]*)", re.MULTILINE)


def lesson_ids_beside(path: Path) -> list[str]:
    """The ids of the lesson files in ``path``'s folder, by a light scan (no YAML, no checks);
    files that cannot be read are passed over: they are not the one being checked."""
    found: list[str] = []
    for other in sorted(path.parent.glob("*.yaml")):
        if other.name == path.name or not other.is_file():
            continue
        try:
            text = other.read_text(encoding="utf-8")[:4096]
        except (OSError, UnicodeDecodeError):
            continue
        found += _LESSON_ID.findall(text)
    return found


def load_lessons(folder: Path | None = None, *, engine: bool = False) -> list[Lesson]:
    """Every shipped lesson (or those in ``folder``), numbered from 1; LessonError if any is bad.

    The engine checks are left to ``lessons check`` unless ``engine`` is given.
    """
    lessons, problems = check_lessons(lesson_files(folder), engine=engine)
    if problems:
        raise problems_error(problems, LessonError)
    return lessons


def load_outlines(folder: Path | None = None, *, cache: Path | None = None) -> list[LessonOutline]:
    """The outline of every shipped lesson (or of those in ``folder``), numbered from 1 as
    :func:`load_lessons` numbers them; LessonError if any is bad.

    This is what listing lessons and finding where to resume need; the lesson being run is
    read in full by :meth:`LessonOutline.lesson`. With ``cache`` (a file), outlines read
    before from exactly the same files by exactly the same reading code are taken from it,
    and a fresh reading is stored there (a cache that cannot be read or written is passed by); the
    lessons read in full are kept in the folder ``lessons`` beside it.

    Both caches are kept for a measured reason (bench_startup.py's pairing, 6 rounds, load ~5
    on 2 cores, least CPU against the bare Typer + Rich app's): ``learn --list`` 1.22x with
    them, 1.38x where none can be kept; ``learn 1`` 1.21x and 1.36x.
    """
    files = lesson_files(folder)
    key = _cache_key(files) if cache is not None else ""
    store = cache.with_name(LESSON_RECORDS) if cache is not None else None
    found = _cached_outlines(cache, key, files, store) if cache is not None else None
    if found is not None:
        return found
    outlines: list[LessonOutline] = []
    problems: list[Problem] = []
    for path, text in files:
        outline, found_problems = read_outline(text, path)
        problems += found_problems
        if outline is not None:
            number = len(outlines) + 1
            outlines.append(
                replace(outline, number=number, load=partial(_load_one, text, path, number, store))
            )
    problems += _across(outlines)
    if problems:
        raise problems_error(problems, LessonError)
    if cache is not None:
        _store_outlines(cache, key, outlines)
    return outlines


_READING_CODE = (
    Path(__file__),
    Path(__file__).with_name("yamlread.py"),
    Path(__file__).parents[1] / "tutor" / "lessons.py",
)
"""The modules whose code decides an outline: a change to any of them makes cached ones stale."""


def _cache_key(files: Sequence[tuple[str, str]]) -> str:
    """A digest of the lesson files' names and texts and of the reading code ('' if that code
    cannot be read: nothing is cached then)."""
    digest = hashlib.blake2b(digest_size=16)
    try:
        for module in _READING_CODE:
            digest.update(module.read_bytes())
    except OSError:
        return ""
    digest.update(json.dumps([files, catalog_fingerprint("lessons")]).encode("utf-8"))
    return digest.hexdigest()


def _outline_record(outline: LessonOutline) -> dict[str, Any]:
    return {
        "id": outline.id,
        "title": outline.title,
        "level": outline.level.value,
        "concepts": list(outline.concepts),
        "prerequisites": list(outline.prerequisites),
        "step_count": outline.step_count,
        "question_steps": list(outline.question_steps),
        "summary": outline.summary,
        "game": outline.game.value,
    }


def _cached_outlines(
    cache: Path, key: str, files: Sequence[tuple[str, str]], store: Path | None = None
) -> list[LessonOutline] | None:
    """The outlines stored in ``cache`` under ``key``, or ``None`` (no cache, another key, or
    anything unexpected in it)."""
    if not key:
        return None

    try:
        stored = json.loads(read_quietly(cache) or b"null")
        if stored["key"] != key or len(stored["outlines"]) != len(files):
            return None
        return [
            LessonOutline(
                str(record["id"]),
                str(record["title"]),
                Level(record["level"]),
                tuple(str(concept) for concept in record["concepts"]),
                tuple(str(needed) for needed in record["prerequisites"]),
                path,
                int(record["step_count"]),
                tuple(int(index) for index in record["question_steps"]),
                number,
                str(record["summary"]),
                Game(record["game"]),
                partial(_load_one, text, path, number, store),
            )
            for number, (record, (path, text)) in enumerate(
                zip(stored["outlines"], files, strict=True), start=1
            )
        ]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None


def _store_outlines(cache: Path, key: str, outlines: list[LessonOutline]) -> None:
    """Store ``outlines`` in ``cache`` under ``key`` (atomically; an error is passed by: the
    cache only saves time)."""
    if not key:
        return

    text = json.dumps({"key": key, "outlines": [_outline_record(o) for o in outlines]})
    store_quietly(cache, text)


def _lesson_key(text: str, path: str) -> str:
    """A digest of a lesson file's name and text, of gintutor's code and of the stored coach
    verdicts (a coached question keeps its verdict) ('' if the code or the verdicts cannot be
    looked at: nothing is kept then)."""
    try:
        code = code_fingerprint()
        verdicts = os.stat(str(content_dir("puzzles").joinpath(VERDICTS_FILE)))
    except OSError:
        return ""
    stamp = [verdicts.st_size, verdicts.st_mtime_ns]
    digest = hashlib.blake2b(digest_size=16)
    parts = [code, path, text, catalog_fingerprint("lessons"), stamp]
    digest.update(json.dumps(parts).encode("utf-8"))
    return digest.hexdigest()


def _kept_lesson(path: Path, key: str) -> Lesson | None:
    """The lesson kept in ``path`` under ``key``, or ``None``."""
    lesson = kept(path, key)
    return lesson if isinstance(lesson, Lesson) else None
