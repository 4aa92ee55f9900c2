"""Questions a learner answers, checked by the engine: the answer is never typed into content.

One small frozen class per kind (:data:`QUESTION_KINDS`), each with its own ``solve``,
``judge``, ``facts`` and ``completions`` (see :class:`Question`). A kind's module is imported
on first use (:func:`question_kind`), so a lesson pays only for the kinds it asks: the Carousel
kinds alone cost 85 ms of CPU or more to import after a gin lesson's (with the Carousel engine;
``python -X importtime``, load 8-10), a fifth of the bare Typer + Rich app's start, which a gin
lesson never needs.

>>> from gintutor.engine.cards import CardSet
>>> from gintutor.engine.rules import preset
>>> from gintutor.tutor.questions.hands import DeadwoodQuestion
>>> q = DeadwoodQuestion(prompt="Deadwood?", rules=preset("standard"),
...                      hand=CardSet.parse("7C 7D 7H 5H 6H 8H AS 2S 3S KD"))
>>> q.judge("29").message
'29 is what is left after melds such as 7♣ 7♦ 7♥, A♠ 2♠ 3♠; a better arrangement leaves less.'
>>> q.judge("24").correct
True
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gintutor.tutor.questions.base import PLAIN, AnswerError, Feedback, Question, Solved
    from gintutor.tutor.questions.carousel import CarouselQuestion
    from gintutor.tutor.questions.choice import ChoiceQuestion, Predicate
    from gintutor.tutor.questions.coached import CoachedQuestion, KnockOrPlayQuestion
    from gintutor.tutor.questions.hands import (
        DeadwoodQuestion,
        DiscardQuestion,
        KnockQuestion,
        MeldsQuestion,
    )
    from gintutor.tutor.questions.sheets import GameAsk, GameQuestion, RuleQuestion
    from gintutor.tutor.questions.showdowns import LayoffsQuestion, PointsQuestion

    QUESTION_KINDS: dict[str, type[Question]]

_HOMES: dict[str, tuple[str, str]] = {
    "deadwood": ("hands", "DeadwoodQuestion"),
    "melds": ("hands", "MeldsQuestion"),
    "knock": ("hands", "KnockQuestion"),
    "discard": ("hands", "DiscardQuestion"),
    "layoffs": ("showdowns", "LayoffsQuestion"),
    "points": ("showdowns", "PointsQuestion"),
    "choice": ("choice", "ChoiceQuestion"),
    "rule": ("sheets", "RuleQuestion"),
    "game": ("sheets", "GameQuestion"),
    "knock-or-play": ("coached", "KnockOrPlayQuestion"),
    "carousel-meld": ("carousel", "CarouselMeldQuestion"),
    "carousel-place": ("carousel", "CarouselPlaceQuestion"),
    "carousel-play": ("carousel", "CarouselPlayQuestion"),
    "carousel-joker": ("carousel", "CarouselJokerQuestion"),
    "carousel-knock": ("carousel", "CarouselKnockQuestion"),
    "carousel-turn": ("carousel", "CarouselTurnQuestion"),
    "carousel-score": ("carousel", "CarouselScoreQuestion"),
}
"""Every question kind by its name in lesson files, in the order the format lists them: the
module and class that hold it (a test holds this equal to the classes' own ``kind``)."""

KIND_NAMES: tuple[str, ...] = tuple(_HOMES)
"""Every question kind's name, in the order the format lists them."""

CAROUSEL_KIND_NAMES: frozenset[str] = frozenset(
    name for name, (module, _) in _HOMES.items() if module == "carousel"
)
"""The kinds about Carousel (subclasses of :class:`CarouselQuestion`); the others are gin's."""

COACHED_KIND_NAMES: frozenset[str] = frozenset(
    name for name, (module, _) in _HOMES.items() if module == "coached"
)
"""The kinds the coach answers from a stored verdict (subclasses of :class:`CoachedQuestion`):
the lesson reader hands each its verdict."""

_NAMES = {
    **dict.fromkeys(("PLAIN", "AnswerError", "Feedback", "Question", "Solved"), "base"),
    "CarouselQuestion": "carousel",
    "ChoiceQuestion": "choice",
    "CoachedQuestion": "coached",
    "Predicate": "choice",
    "GameAsk": "sheets",
    **{name: module for module, name in _HOMES.values()},
}


def question_kind(name: str) -> type[Question] | None:
    """The question class called ``name`` in lesson files (its module imported now), or
    ``None`` if there is no such kind."""
    home = _HOMES.get(name)
    if home is None:
        return None
    kind: type[Question] = getattr(import_module(f"{__name__}.{home[0]}"), home[1])
    return kind


def __getattr__(name: str) -> Any:
    """The kind classes and :data:`QUESTION_KINDS`, imported when first asked for."""
    if name == "QUESTION_KINDS":
        return {kind_name: question_kind(kind_name) for kind_name in KIND_NAMES}
    if name in _NAMES:
        return getattr(import_module(f"{__name__}.{_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CAROUSEL_KIND_NAMES",
    "COACHED_KIND_NAMES",
    "KIND_NAMES",
    "PLAIN",
    "QUESTION_KINDS",
    "AnswerError",
    "CarouselQuestion",
    "ChoiceQuestion",
    "CoachedQuestion",
    "DeadwoodQuestion",
    "DiscardQuestion",
    "Feedback",
    "GameAsk",
    "GameQuestion",
    "KnockOrPlayQuestion",
    "KnockQuestion",
    "LayoffsQuestion",
    "MeldsQuestion",
    "PointsQuestion",
    "Predicate",
    "Question",
    "RuleQuestion",
    "Solved",
    "question_kind",
]
