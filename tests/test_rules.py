"""Rule sets: the presets exactly as RULES.md §2, house rules with errors that name the key."""

from __future__ import annotations

import dataclasses

import pytest

from gintutor.engine.cards import Card
from gintutor.engine.rules import (
    PRESETS,
    RULE_SETS,
    SOURCE_TEXTS,
    Boxes,
    OklahomaAce,
    Shutout,
    from_mapping,
    preset,
)
from gintutor.errors import RulesError

# RULES.md §2, column by column ("from upcard" knock limits are stored as the maximum, 10).
TABLE = {
    "knock_limit": {"standard": 10, "classic": 10, "oklahoma": 10, "hollywood": 10, "straight": 0},
    "oklahoma": {
        "standard": False,
        "classic": False,
        "oklahoma": True,
        "hollywood": False,
        "straight": False,
    },
    "spade_doubles": {
        "standard": False,
        "classic": False,
        "oklahoma": True,
        "hollywood": False,
        "straight": False,
    },
    "gin_bonus": {"standard": 25, "classic": 20, "oklahoma": 25, "hollywood": 25, "straight": 25},
    "big_gin_bonus": {
        "standard": 31,
        "classic": 0,
        "oklahoma": 31,
        "hollywood": 31,
        "straight": 31,
    },
    "undercut_bonus": {
        "standard": 25,
        "classic": 10,
        "oklahoma": 25,
        "hollywood": 25,
        "straight": None,
    },
    "tie_is_undercut": {
        "standard": True,
        "classic": True,
        "oklahoma": True,
        "hollywood": True,
        "straight": None,
    },
    "box_bonus": {"standard": 25, "classic": 20, "oklahoma": 25, "hollywood": 25, "straight": 25},
    "game_bonus": {
        "standard": 100,
        "classic": 100,
        "oklahoma": 100,
        "hollywood": 100,
        "straight": 100,
    },
    "shutout": {
        "standard": Shutout.DOUBLE,
        "classic": Shutout.BONUS_200,
        "oklahoma": Shutout.DOUBLE,
        "hollywood": Shutout.DOUBLE,
        "straight": Shutout.DOUBLE,
    },
    "target": {"standard": 100, "classic": 100, "oklahoma": 150, "hollywood": 100, "straight": 100},
    "hollywood": {
        "standard": False,
        "classic": False,
        "oklahoma": False,
        "hollywood": True,
        "straight": False,
    },
    "void_at_stock": {name: 2 for name in PRESETS},
    "boxes": {name: Boxes.BOTH for name in PRESETS},
}


@pytest.mark.parametrize("setting", sorted(TABLE))
def test_presets_match_the_rules_table(setting: str) -> None:
    assert {name: getattr(rules, setting) for name, rules in PRESETS.items()} == TABLE[setting]


def test_oklahoma_ace_setting() -> None:
    assert preset("oklahoma").oklahoma_ace is OklahomaAce.GIN_ONLY
    one = from_mapping({"base": "oklahoma", "oklahoma_ace": "one"})
    assert one.knock_limit_for(Card.parse("AD")) == 1


def test_oklahoma_court_and_ten_upcards_give_ten() -> None:
    oklahoma = preset("oklahoma")
    for code in ("TC", "JD", "QH", "KS"):
        assert oklahoma.knock_limit_for(Card.parse(code)) == 10
    assert oklahoma.knock_limit_for(Card.parse("9C")) == 9


def test_spade_doubles_only_with_a_spade_upcard() -> None:
    oklahoma = preset("oklahoma")
    assert oklahoma.multiplier_for(Card.parse("6S")) == 2
    assert oklahoma.multiplier_for(Card.parse("6H")) == 1
    assert preset("standard").multiplier_for(None) == 1


def test_non_oklahoma_rules_ignore_the_upcard() -> None:
    assert preset("classic").knock_limit_for(Card.parse("3D")) == 10


def test_straight_gin_allows_only_gin() -> None:
    straight = preset("straight")
    assert straight.knock_limit == 0 and not straight.allows_knock


def test_preset_names_are_case_insensitive_and_unknown_ones_listed() -> None:
    assert preset(" Classic ") is PRESETS["classic"]
    with pytest.raises(RulesError, match="unknown rule set 'gin500': choose one of standard"):
        preset("gin500")


def test_portuguese_house_rules_are_expressible() -> None:
    rules = from_mapping({"base": "classic", "box_bonus": 0, "game_bonus": 0, "target": 250})
    expected = dataclasses.replace(
        PRESETS["classic"], name="classic (house)", box_bonus=0, game_bonus=0, target=250
    )
    assert rules == expected


# RULES.md §2: each source text's complete rule set, by name.
SOURCE_SETTINGS = {
    "indonesian": ("standard", {"big_gin_bonus": 0, "boxes": Boxes.WINNER}),
    "portuguese": (
        "classic",
        {"box_bonus": 0, "game_bonus": 0, "shutout": Shutout.NONE, "target": 250},
    ),
    "norwegian": ("classic", {}),
    "eaai": (
        "standard",
        {"big_gin_bonus": 0, "box_bonus": 0, "game_bonus": 0, "shutout": Shutout.NONE},
    ),
}


@pytest.mark.parametrize("name", sorted(SOURCE_SETTINGS))
def test_source_text_rule_sets_are_their_base_plus_the_differences(name: str) -> None:
    base, differences = SOURCE_SETTINGS[name]
    rules = preset(name)
    assert rules.source, "every named rule set cites its source"
    assert rules == dataclasses.replace(PRESETS[base], name=name, **differences)
    assert set(SOURCE_TEXTS) == set(SOURCE_SETTINGS)
    assert RULE_SETS[name] is rules


def test_every_rule_set_cites_its_source() -> None:
    assert all(rules.source for rules in RULE_SETS.values())
    assert "source" not in PRESETS["standard"].settings()


def test_boxes_setting_reads_from_house_rules() -> None:
    assert from_mapping({"base": "standard", "boxes": "winner"}).boxes is Boxes.WINNER
    with pytest.raises(RulesError, match="boxes: 'loser' is not one of both, winner"):
        from_mapping({"base": "standard", "boxes": "loser"})


def test_house_rules_may_name_themselves() -> None:
    assert from_mapping({"base": "standard", "name": "Grandma"}).name == "Grandma"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"base": "standard", "knock_limit": 12},
            "knock_limit: 12 is impossible: it must be 0 to 10",
        ),
        ({"base": "standard", "gin_bonus": -5}, "gin_bonus: -5 is impossible: a bonus cannot"),
        ({"base": "standard", "undercut_bonus": -1}, "undercut_bonus: -1 is impossible"),
        ({"base": "standard", "target": 0}, "target: 0 is impossible"),
        ({"base": "standard", "target": 1001}, "target: 1001 is too high: gintutor plays to"),
        ({"base": "standard", "void_at_stock": 11}, "void_at_stock: 11 is impossible: it must"),
        ({"base": "standard", "void_at_stock": -1}, "void_at_stock: -1 is impossible"),
        ({"base": "standard", "knock_limt": 9}, "knock_limt: unknown setting"),
        ({"base": "standard", "gin_bonus": "25"}, "gin_bonus: '25' is not a whole number"),
        ({"base": "standard", "gin_bonus": True}, "gin_bonus: True is not a whole number"),
        ({"base": "standard", "oklahoma": "yes"}, "oklahoma: 'yes' is not true or false"),
        (
            {"base": "standard", "shutout": "triple"},
            "shutout: 'triple' is not one of double, bonus-200, none",
        ),
        ({"base": "gin500"}, "base: unknown rule set 'gin500'"),
        ({"base": 7}, "base: 7 is not a rule set name"),
        (
            {"base": "straight", "knock_limit": 10},
            "undercut_bonus: missing: these rules allow knocking",
        ),
    ],
)
def test_bad_house_rules_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as error:
        from_mapping(data)
    assert str(error.value).startswith(message)


def test_straight_base_with_a_knock_limit_and_undercut_bonus_is_fine() -> None:
    rules = from_mapping(
        {"base": "straight", "knock_limit": 5, "undercut_bonus": 20, "tie_is_undercut": True}
    )
    assert rules.allows_knock and rules.undercut_bonus == 20
