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
from gintutor.errors import GinError

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
        names = f"{players[0]} or {players[1]}"
        if [p.lower() for p in players] != ["a", "b"]:
            names += ", A or B"
        raise EntryError(f"unknown player {token!r} (use {names}, or 1 or 2)")
    return found


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
            f"{text.strip()!r}: a hand is 'PLAYER RESULT POINTS' (e.g. 'A knock 12') or 'void'"
        )
    who, what, how_many = fields
    winner = _player(who, players)
    outcome = _OUTCOMES.get(what.lower())
    if outcome is None:
        raise EntryError(
            f"{text.strip()!r}: unknown result {what!r} (knock, undercut, gin, big_gin)"
        )
    if not (how_many.isascii() and how_many.isdigit()):
        raise EntryError(f"{text.strip()!r}: points {how_many!r} are not a whole number")
    if len(how_many) > 6:
        raise EntryError(f"{text.strip()!r}: {how_many} points: a hand scores at most 999999")
    points = int(how_many)
    if outcome is Outcome.BIG_GIN and not rules.big_gin:
        raise EntryError(f"{text.strip()!r}: {rules.name} rules do not recognise big gin")
    if outcome in (Outcome.KNOCK, Outcome.UNDERCUT) and not rules.allows_knock:
        raise EntryError(f"{text.strip()!r}: {rules.name} rules allow only gin")
    least = _minimum(outcome, rules)
    if points < least:
        why = {
            Outcome.KNOCK: "the knocker wins only with less deadwood (a tie is an undercut)",
            Outcome.UNDERCUT: "the undercut bonus plus the difference",
            Outcome.GIN: "the gin bonus plus the defender's deadwood",
            Outcome.BIG_GIN: "the big gin bonus plus the defender's deadwood",
        }[outcome]
        raise EntryError(
            f"{text.strip()!r}: a winning {outcome.value.replace('_', ' ')} scores at least "
            f"{least} under {rules.name} rules ({why}); points include the bonuses"
        )
    return HandRecord.won(winner, outcome, points)


def parse_entries(
    entries: Iterable[tuple[str, str]], players: Sequence[str], rules: RuleSet
) -> list[HandRecord]:
    """Hand results from ``(where, text)`` pairs; errors start with ``where``."""
    records = []
    for where, text in entries:
        try:
            records.append(parse_entry(text, players, rules))
        except EntryError as error:
            raise EntryError(f"{where}: {error}") from None
    return records
