"""Round results as the command line and the lessons write them: ``A knock 3, B 12, C 20``.

Reading them is the tutor's job, not the text layer's: a result no round can leave is refused
by the engine's :func:`~gintutor.engine.carousel.game.impossible_entries`, and the message
quotes the entry the learner typed (:func:`gintutor.text.carousel.impossible_text`).
"""

from __future__ import annotations

from gintutor.engine.carousel.game import Ending, RoundResult, impossible_entries
from gintutor.engine.carousel.rules import STANDARD, CarouselRules
from gintutor.errors import GinError
from gintutor.text.carousel import impossible_text
from gintutor.text.i18n import _

_LONGEST_POINTS = 4
"""Digits in the most points a hand can hold (a round's entry is refused beyond)."""


def parse_rounds(
    rounds: list[str], rules: CarouselRules | None = None
) -> tuple[list[str], list[RoundResult]]:
    """Names (from the first round) and round results; errors name the round and the entry.

    A round is ``NAME [knock|out] POINTS`` per player, separated by commas; no knock and
    nobody out means the stock ran out. A result no round can leave (a knock over the limit, 0
    points without going out, going out with points: :func:`impossible_entries`) is an error
    that quotes its entry.

    >>> names, results = parse_rounds(["A knock 3, B 12, C 20"])
    >>> names, results[0].points, results[0].ending.value, results[0].player
    (['A', 'B', 'C'], (3, 12, 20), 'knock', 0)
    """
    rules = rules or STANDARD
    names: list[str] = []
    results = []
    for number, text in enumerate(rounds, start=1):
        entries = [e.split() for e in text.split(",") if e.strip()]
        these = [e[0] for e in entries]
        if not names:
            names = these
        if [n.lower() for n in these] != [n.lower() for n in names]:
            raise GinError(
                _(
                    "round {number}: {text}: name the players as in round 1 ({names}) in "
                    "the same order",
                    number=number,
                    text=repr(text),
                    names=", ".join(names),
                )
            )
        points: list[int] = []
        ending, player = Ending.STOCK, None
        for index, entry in enumerate(entries):
            words = [w.lower() for w in entry[1:]]
            if words[:1] in (["knock"], ["out"]):
                if player is not None:
                    raise GinError(
                        _("round {number}: only one player knocks or goes out", number=number)
                    )
                ending = Ending.KNOCK if words[0] == "knock" else Ending.OUT
                player = index
                words = words[1:] or (["0"] if ending is Ending.OUT else [])
            if len(words) != 1 or not (words[0].isascii() and words[0].isdigit()):
                raise GinError(
                    _(
                        "round {number}: {entry}: write NAME [knock|out] POINTS",
                        number=number,
                        entry=repr(" ".join(entry)),
                    )
                )
            if len(words[0]) > _LONGEST_POINTS:
                raise GinError(
                    _(
                        "round {number}: {entry}: {points} points: a hand holds at most {most}",
                        number=number,
                        entry=repr(" ".join(entry)),
                        points=words[0],
                        most=10**_LONGEST_POINTS - 1,
                    )
                )
            points.append(int(words[0]))
        try:
            result = RoundResult(tuple(points), ending, player)
        except GinError as error:
            raise GinError(_("round {number}: {error}", number=number, error=error)) from None
        for impossible in impossible_entries(result, rules):
            quoted = (
                text.strip() if impossible.player is None else " ".join(entries[impossible.player])
            )
            raise GinError(
                _(
                    "round {number}: {entry}: {reason}",
                    number=number,
                    entry=repr(quoted),
                    reason=impossible_text(impossible, len(points)),
                )
            )
        results.append(result)
    return names, results
