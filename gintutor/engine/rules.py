"""Rule sets as validated frozen data: the presets of RULES.md §2 and house-rule overrides.

The engine reads settings and never branches on a rule set's name.

>>> standard = preset("standard")
>>> standard.gin_bonus, standard.undercut_bonus
(25, 25)
>>> house = from_mapping({"base": "classic", "box_bonus": 0, "game_bonus": 0, "target": 250})
>>> house.box_bonus, house.target, house.gin_bonus
(0, 250, 20)
>>> from_mapping({"base": "standard", "knock_limit": 12})
Traceback (most recent call last):
...
gintutor.errors.RulesError: knock_limit: 12 is impossible: it must be 0 to 10
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gintutor.engine.cards import Card, Rank, Suit
from gintutor.errors import Phrase, RulesError


class OklahomaAce(Enum):
    """What an ace as the first upcard means under Oklahoma rules."""

    GIN_ONLY = "gin-only"
    ONE = "one"


class Shutout(Enum):
    """How a shutout (the loser won no hand) is rewarded."""

    DOUBLE = "double"
    """The winner's hand points are doubled before the game bonus and boxes are added."""
    BONUS_200 = "bonus-200"
    """The game bonus becomes 200."""
    NONE = "none"
    """No shutout reward (house rules, e.g. tables that play without bonuses)."""


class Boxes(Enum):
    """Who is paid the box (line) bonus for the hands they won."""

    BOTH = "both"
    """Each player, for each hand they won (the common rule)."""
    WINNER = "winner"
    """Only the game's winner, for each hand they won (the Indonesian text)."""


MAX_KNOCK_LIMIT = 10
SHUTOUT_GAME_BONUS = 200
HOLLYWOOD_GAMES = 3


@dataclass(frozen=True)
class RuleSet:
    """Every setting that changes what the engine computes (RULES.md §2).

    ``undercut_bonus`` and ``tie_is_undercut`` are ``None`` where no knock below gin exists
    (straight gin); any rule set that allows a knock must set them.
    """

    name: str
    knock_limit: int
    oklahoma: bool
    oklahoma_ace: OklahomaAce
    spade_doubles: bool
    gin_bonus: int
    big_gin_bonus: int
    undercut_bonus: int | None
    tie_is_undercut: bool | None
    box_bonus: int
    boxes: Boxes
    game_bonus: int
    shutout: Shutout
    target: int
    hollywood: bool
    void_at_stock: int
    source: str = dataclasses.field(default="", compare=False)
    """Where this rule set comes from (a citation, not a setting)."""

    def __post_init__(self) -> None:
        verify_settings(self)

    @property
    def needs_upcard(self) -> bool:
        """True when the first upcard changes the knock limit or the score (Oklahoma)."""
        return self.oklahoma or self.spade_doubles

    @property
    def allows_knock(self) -> bool:
        """True when some hand may knock with deadwood above 0 (not straight gin)."""
        return self.oklahoma or self.knock_limit > 0

    @property
    def big_gin(self) -> bool:
        """True when big gin (11 cards melded after drawing) is recognised."""
        return self.big_gin_bonus > 0

    def knock_limit_for(self, upcard: Card | None = None) -> int:
        """The highest deadwood that may knock this hand; 0 means gin only.

        Oklahoma takes the value of the first upcard (10 for the court cards); an ace means
        gin only or 1 by ``oklahoma_ace``.

        >>> oklahoma = preset("oklahoma")
        >>> oklahoma.knock_limit_for(Card.parse("3D")), oklahoma.knock_limit_for(Card.parse("KS"))
        (3, 10)
        >>> oklahoma.knock_limit_for(Card.parse("AH"))
        0
        """
        if not self.oklahoma:
            return self.knock_limit
        if upcard is None:
            raise RulesError(
                "{rules} rules take the knock limit from the first upcard: give the upcard",
                rules=self.name,
            )
        if upcard.rank is Rank.ACE:
            return self.knock_limit_for_ace()
        return min(upcard.points, MAX_KNOCK_LIMIT)

    def knock_limit_for_ace(self) -> int:
        """The Oklahoma knock limit when the first upcard is an ace."""
        return 1 if self.oklahoma_ace is OklahomaAce.ONE else 0

    def multiplier_for(self, upcard: Card | None = None) -> int:
        """2 when a spade first upcard doubles every score of the hand, else 1."""
        if not self.spade_doubles:
            return 1
        if upcard is None:
            raise RulesError(
                "{rules} rules double the hand when the first upcard is a spade: give the upcard",
                rules=self.name,
            )
        return 2 if upcard.suit is Suit.SPADES else 1

    def settings(self) -> dict[str, object]:
        """The settings as plain values (enums as their text), in the table's order."""
        out: dict[str, object] = {}
        for field in dataclasses.fields(self):
            if field.name in _NOT_SETTINGS:
                continue
            value = getattr(self, field.name)
            out[field.name] = value.value if isinstance(value, Enum) else value
        return out


_NOT_SETTINGS = ("name", "source")
SETTING_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(RuleSet) if f.name not in _NOT_SETTINGS
)


MAX_TARGET = 1000
"""The highest game target. The coach's game-win chance is a table of ``target``² entries
(:mod:`.winchance`): 1000 points costs about 7 s CPU and 60 MB once, while 100,000 was a
MemoryError and 5000 over two minutes of a review."""
MAX_VOID_AT_STOCK = 10
"""The largest stock size at which a hand may be void (every rule text says 2; 31 or more
would void every hand before a card is drawn, and a game could never end)."""


def verify_settings(rules: RuleSet) -> None:
    """Raise :class:`RulesError` naming the first impossible setting."""
    negative = Phrase("a bonus cannot be negative")
    checks: list[tuple[str, bool, Phrase]] = [
        ("knock_limit", 0 <= rules.knock_limit <= MAX_KNOCK_LIMIT, Phrase("it must be 0 to 10")),
        ("gin_bonus", rules.gin_bonus >= 0, negative),
        ("big_gin_bonus", rules.big_gin_bonus >= 0, negative),
        ("box_bonus", rules.box_bonus >= 0, negative),
        ("game_bonus", rules.game_bonus >= 0, negative),
        ("target", rules.target > 0, Phrase("the target must be above 0")),
        (
            "void_at_stock",
            0 <= rules.void_at_stock <= MAX_VOID_AT_STOCK,
            Phrase(
                "it must be 0 to {most} (a hand starts with 31 in the stock)",
                most=MAX_VOID_AT_STOCK,
            ),
        ),
    ]
    if rules.undercut_bonus is not None:
        checks.append(("undercut_bonus", rules.undercut_bonus >= 0, negative))
    for key, ok, why in checks:
        if not ok:
            raise RulesError(
                "{key}: {value} is impossible: {why}", key=key, value=getattr(rules, key), why=why
            )
    if rules.target > MAX_TARGET:
        raise RulesError(
            "target: {target} is too high: gintutor plays to at most {most} points",
            target=rules.target,
            most=MAX_TARGET,
        )
    if rules.allows_knock:
        for key in ("undercut_bonus", "tie_is_undercut"):
            if getattr(rules, key) is None:
                raise RulesError(
                    "{key}: missing: these rules allow knocking, so say what an undercut is worth",
                    key=key,
                )


_STANDARD = RuleSet(
    name="standard",
    knock_limit=10,
    oklahoma=False,
    oklahoma_ace=OklahomaAce.GIN_ONLY,
    spade_doubles=False,
    gin_bonus=25,
    big_gin_bonus=31,
    undercut_bonus=25,
    tie_is_undercut=True,
    box_bonus=25,
    boxes=Boxes.BOTH,
    game_bonus=100,
    shutout=Shutout.DOUBLE,
    target=100,
    hollywood=False,
    void_at_stock=2,
    source="common modern North-American scoring (ginrummy.com, MobilityWare)",
)
_CLASSIC = dataclasses.replace(
    _STANDARD,
    name="classic",
    gin_bonus=20,
    big_gin_bonus=0,
    undercut_bonus=10,
    box_bonus=20,
    shutout=Shutout.BONUS_200,
    source="pagat.com's main text and the Bicycle/Hoyle books",
)
# Each preset is standard plus what RULES.md §2 lists as different.
PRESETS: dict[str, RuleSet] = {
    "standard": _STANDARD,
    "classic": _CLASSIC,
    "oklahoma": dataclasses.replace(
        _STANDARD,
        name="oklahoma",
        oklahoma=True,
        spade_doubles=True,
        target=150,
        source="Oklahoma Gin as Bicycle gives it",
    ),
    "hollywood": dataclasses.replace(
        _STANDARD, name="hollywood", hollywood=True, source="Hollywood scoring (pagat.com)"
    ),
    "straight": dataclasses.replace(
        _STANDARD,
        name="straight",
        knock_limit=0,
        undercut_bonus=None,
        tie_is_undercut=None,
        source="Straight Gin: no knocking below gin (pagat.com)",
    ),
}
"""The presets of RULES.md §2, by name: the columns of its table."""

SOURCE_TEXTS: dict[str, RuleSet] = {
    "indonesian": dataclasses.replace(
        _STANDARD,
        name="indonesian",
        big_gin_bonus=0,
        boxes=Boxes.WINNER,
        source="the Indonesian rule text: standard scoring, no big gin, and the 25-point box "
        "only to the game's winner ('Pemenang juga menerima 25 poin bonus untuk setiap putaran "
        "yang dimenangkan')",
    ),
    "portuguese": dataclasses.replace(
        _CLASSIC,
        name="portuguese",
        box_bonus=0,
        game_bonus=0,
        shutout=Shutout.NONE,
        target=250,
        source="the Portuguese rule text: classic hands, no box, game or shutout bonus, a target "
        "agreed at the start (250 here; override 'target' in a house-rules file)",
    ),
    "norwegian": dataclasses.replace(
        _CLASSIC,
        name="norwegian",
        source="the Norwegian rule text: classic, box 20 not counted toward 100, shutout makes "
        "the game bonus 200",
    ),
    # The AAAI/EAAI 2021 Gin Rummy challenge (Neller): hand points only, first to 100 wins;
    # the published agents' strength figures are measured under these rules.
    "eaai": dataclasses.replace(
        _STANDARD,
        name="eaai",
        big_gin_bonus=0,
        box_bonus=0,
        game_bonus=0,
        shutout=Shutout.NONE,
        source="the AAAI/EAAI 2021 Gin Rummy challenge (Neller et al.): knock at 10, gin 25, "
        "undercut 25, no big gin, hand points only, first to 100",
    ),
}
"""The complete rule sets of the source texts (and the EAAI challenge), by name."""

RULE_SETS: dict[str, RuleSet] = {**PRESETS, **SOURCE_TEXTS}
"""Every named rule set: what ``--rules NAME`` accepts."""


def preset(name: str) -> RuleSet:
    """The preset called ``name`` (any case)."""
    found = RULE_SETS.get(name.strip().lower())
    if found is None:
        raise RulesError(
            "unknown rule set {name!r}: choose one of {names}",
            name=name,
            names=", ".join(RULE_SETS),
        )
    return found


_BOOL_KEYS = {"oklahoma", "spade_doubles", "hollywood", "tie_is_undercut"}
_ENUM_KEYS: dict[str, type[Enum]] = {
    "oklahoma_ace": OklahomaAce,
    "shutout": Shutout,
    "boxes": Boxes,
}


def _convert(key: str, value: Any) -> Any:
    """Check the type of one override and turn enum text into the enum."""
    if key in _ENUM_KEYS:
        enum = _ENUM_KEYS[key]
        choices = [str(member.value) for member in enum]
        if not isinstance(value, str) or value not in choices:
            raise RulesError(
                "{key}: {value!r} is not one of {choices}",
                key=key,
                value=value,
                choices=", ".join(choices),
            )
        return enum(value)
    if key in _BOOL_KEYS:
        if key == "tie_is_undercut" and value is None:
            return None
        if not isinstance(value, bool):
            raise RulesError("{key}: {value!r} is not true or false", key=key, value=value)
        return value
    if key == "undercut_bonus" and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("{key}: {value!r} is not a whole number", key=key, value=value)
    return value


def from_mapping(data: Mapping[str, Any], *, name: str | None = None) -> RuleSet:
    """A rule set from a ``base`` preset plus overrides (a house-rules file's contents).

    Unknown keys, wrong types and impossible values raise :class:`RulesError` naming the key.
    """
    if not isinstance(data, Mapping):
        raise RulesError("house rules are a mapping of settings, e.g. 'base: classic'")
    base_name = data.get("base", "standard")
    if not isinstance(base_name, str):
        raise RulesError("base: {base!r} is not a rule set name", base=base_name)
    try:
        base = preset(base_name)
    except RulesError as error:
        raise RulesError("base: {error}", error=error) from None
    overrides: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("base", "name", "source"):
            continue
        if key not in SETTING_NAMES:
            raise RulesError(
                "{key}: unknown setting (known: base, name, source, {names})",
                key=key,
                names=", ".join(SETTING_NAMES),
            )
        overrides[key] = _convert(key, value)
    label = data.get("name", name if name is not None else f"{base.name} (house)")
    if not isinstance(label, str):
        raise RulesError("name: {name!r} is not text", name=label)
    source = data.get("source", f"house rules based on {base.name}")
    if not isinstance(source, str):
        raise RulesError("source: {source!r} is not text", source=source)
    return dataclasses.replace(base, name=label, source=source, **overrides)
