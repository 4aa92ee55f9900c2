"""Wrong answers to Carousel questions (valid answers the engine judges wrong), for the tests."""

from __future__ import annotations

from gintutor.tutor.questions.carousel import (
    CarouselMeldQuestion,
    CarouselPlaceQuestion,
    CarouselPlayQuestion,
    CarouselQuestion,
    CarouselTurnQuestion,
    MeldFault,
)


def wrong_carousel_answer(question: CarouselQuestion) -> str:
    """An answer the engine judges wrong (but that is a valid answer)."""
    answer = question.solve().answer
    if isinstance(question, CarouselMeldQuestion):
        if answer != "valid":
            return "valid"
        return next(f.value for f in MeldFault if f not in question.faults())
    if isinstance(question, CarouselTurnQuestion):
        return "draw" if answer == "end" else "end"
    if isinstance(question, CarouselPlaceQuestion):
        return "none" if answer != "none" else question.hand.codes()[0]
    if isinstance(question, CarouselPlayQuestion) and answer == "none":
        return question.table.text()  # the table unchanged: no card added
    if answer in ("yes", "no"):
        return "no" if answer == "yes" else "yes"
    if answer.isdigit():
        return str(int(answer) + 1)
    return "none"
