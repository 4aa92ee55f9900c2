"""Reading hand results for ``gintutor score``: arguments, or a small YAML or CSV file.

One entry per hand: ``PLAYER RESULT POINTS`` (``A knock 12``, ``B gin 41``, ``Ann undercut 27``)
or ``void``. Players are ``A``/``B``, ``1``/``2`` or the names given; fields may be separated by
spaces, commas or colons. Points are what the hand scored (bonuses included), and are checked
against the rule set: a gin cannot score less than the gin bonus.

>>> from gintutor.engine.rules import preset
>>> parse_entry("B gin 41", ("A", "B"), preset("standard"))
HandRecord(winner=1, outcome=<Outcome.GIN: 'gin'>, points=41)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from gintutor.engine.game import HandRecord
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Outcome
from gintutor.errors import GinError, Phrase
from gintutor.text.i18n import N_

_OUTCOMES = {
    "knock": Outcome.KNOCK,
    "knocks": Outcome.KNOCK,
    "undercut": Outcome.UNDERCUT,
    "undercuts": Outcome.UNDERCUT,
    "gin": Outcome.GIN,
    "big_gin": Outcome.BIG_GIN,
    "big-gin": Outcome.BIG_GIN,
    "biggin": Outcome.BIG_GIN,
}
_SEPARATORS = re.compile(r"[\s,:;]+")


class EntryError(GinError):
    """A hand result that cannot be read or cannot have happened under the rules."""


def _player(token: str, players: Sequence[str]) -> int:
    aliases = {"a": 0, "b": 1, "1": 0, "2": 1}
    aliases.update({name.lower(): index for index, name in enumerate(players)})
    found = aliases.get(token.lower())
    if found is None:
        raise EntryError(
            "unknown player {token!r} (use {first} or {second}, or 1 or 2)"
            if [p.lower() for p in players] == ["a", "b"]
            else "unknown player {token!r} (use {first} or {second}, A or B, or 1 or 2)",
            token=token,
            first=players[0],
            second=players[1],
        )
    return found


_TOO_FEW = {
    Outcome.KNOCK: N_(
        "{entry!r}: a winning knock scores at least {least} under {rules} rules "
        "(the knocker wins only with less deadwood (a tie is an undercut)); points include the "
        "bonuses"
    ),
    Outcome.UNDERCUT: N_(
        "{entry!r}: a winning undercut scores at least {least} under {rules} "
        "rules (the undercut bonus plus the difference); points include the bonuses"
    ),
    Outcome.GIN: N_(
        "{entry!r}: a winning gin scores at least {least} under {rules} rules (the gin "
        "bonus plus the defender's deadwood); points include the bonuses"
    ),
    Outcome.BIG_GIN: N_(
        "{entry!r}: a winning big gin scores at least {least} under {rules} rules "
        "(the big gin bonus plus the defender's deadwood); points include the bonuses"
    ),
}
"""Why a winning hand's points are too few, by how it was won (whole sentences: translated)."""


def _minimum(outcome: Outcome, rules: RuleSet) -> int:
    """The fewest points a hand won this way can score (bonuses included).

    A winning knock is at least 1 when a tie counts as an undercut (the knocker must be
    strictly lower); an undercut is the bonus plus the difference, which is at least 1 when a
    tie is not an undercut; gin and big gin are at least their bonus.
    """
    if outcome is Outcome.GIN:
        return rules.gin_bonus
    if outcome is Outcome.BIG_GIN:
        return rules.big_gin_bonus
    if outcome is Outcome.UNDERCUT:
        return (rules.undercut_bonus or 0) + (0 if rules.tie_is_undercut else 1)
    return 1 if rules.tie_is_undercut else 0


def parse_entry(text: str, players: Sequence[str], rules: RuleSet) -> HandRecord:
    """One hand result from text such as ``A knock 12`` or ``void``."""
    fields = [f for f in _SEPARATORS.split(text.strip()) if f]
    if [f.lower() for f in fields] == ["void"]:
        return HandRecord.void()
    if len(fields) != 3:
        raise EntryError(
            "{entry!r}: a hand is 'PLAYER RESULT POINTS' (e.g. 'A knock 12') or 'void'",
            entry=text.strip(),
        )
    who, what, how_many = fields
    winner = _player(who, players)
    outcome = _OUTCOMES.get(what.lower())
    if outcome is None:
        raise EntryError(
            "{entry!r}: unknown result {result!r} (knock, undercut, gin, big_gin)",
            entry=text.strip(),
            result=what,
        )
    if not (how_many.isascii() and how_many.isdigit()):
        raise EntryError(
            "{entry!r}: points {points!r} are not a whole number",
            entry=text.strip(),
            points=how_many,
        )
    if len(how_many) > 6:
        raise EntryError(
            "{entry!r}: {points} points: a hand scores at most 999999",
            entry=text.strip(),
            points=how_many,
        )
    points = int(how_many)
    if outcome is Outcome.BIG_GIN and not rules.big_gin:
        raise EntryError(
            "{entry!r}: {rules} rules do not recognise big gin",
            entry=text.strip(),
            rules=rules.name,
        )
    if outcome in (Outcome.KNOCK, Outcome.UNDERCUT) and not rules.allows_knock:
        raise EntryError(
            "{entry!r}: {rules} rules allow only gin", entry=text.strip(), rules=rules.name
        )
    least = _minimum(outcome, rules)
    if points < least:
        raise EntryError(_TOO_FEW[outcome], entry=text.strip(), least=least, rules=rules.name)
    return HandRecord.won(winner, outcome, points)


def parse_entries(
    entries: Iterable[tuple[str | Phrase, str]], players: Sequence[str], rules: RuleSet
) -> list[HandRecord]:
    """Hand results from ``(where, text)`` pairs; errors start with ``where`` (a
    :class:`~gintutor.errors.Phrase`, ``hand 2``, is translated where the error is shown)."""
    records = []
    for where, text in entries:
        try:
            records.append(parse_entry(text, players, rules))
        except EntryError as error:
            raise EntryError("{where}: {error}", where=where, error=error) from None
    return records
