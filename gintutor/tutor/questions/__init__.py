"""Questions a learner answers, checked by the engine: the answer is never typed into content.

One small frozen class per kind (:data:`QUESTION_KINDS`), each with its own ``solve``,
``judge``, ``facts`` and ``completions`` (see :class:`Question`).

>>> from gintutor.engine.cards import CardSet
>>> from gintutor.engine.rules import preset
>>> q = DeadwoodQuestion(prompt="Deadwood?", rules=preset("standard"),
...                      hand=CardSet.parse("7C 7D 7H 5H 6H 8H AS 2S 3S KD"))
>>> q.judge("29").message
'29 is what is left after melds such as 7♣ 7♦ 7♥, A♠ 2♠ 3♠; a better arrangement leaves less.'
>>> q.judge("24").correct
True
"""

from __future__ import annotations

from gintutor.tutor.questions.base import PLAIN, AnswerError, Feedback, Question, Solved
from gintutor.tutor.questions.carousel import CAROUSEL_KINDS, CarouselQuestion
from gintutor.tutor.questions.choice import ChoiceQuestion, Predicate
from gintutor.tutor.questions.hands import (
    DeadwoodQuestion,
    DiscardQuestion,
    KnockQuestion,
    MeldsQuestion,
)
from gintutor.tutor.questions.sheets import GameAsk, GameQuestion, RuleQuestion
from gintutor.tutor.questions.showdowns import LayoffsQuestion, PointsQuestion

_GIN_KINDS: tuple[type[Question], ...] = (
    DeadwoodQuestion,
    MeldsQuestion,
    KnockQuestion,
    DiscardQuestion,
    LayoffsQuestion,
    PointsQuestion,
    ChoiceQuestion,
    RuleQuestion,
    GameQuestion,
)
QUESTION_KINDS: dict[str, type[Question]] = {
    kind.kind: kind for kind in (*_GIN_KINDS, *CAROUSEL_KINDS)
}
"""Every question kind by its name in lesson files, in the order the format lists them."""

__all__ = [
    "PLAIN",
    "QUESTION_KINDS",
    "AnswerError",
    "CarouselQuestion",
    "ChoiceQuestion",
    "DeadwoodQuestion",
    "DiscardQuestion",
    "Feedback",
    "GameAsk",
    "GameQuestion",
    "KnockQuestion",
    "LayoffsQuestion",
    "MeldsQuestion",
    "PointsQuestion",
    "Predicate",
    "Question",
    "RuleQuestion",
    "Solved",
]
