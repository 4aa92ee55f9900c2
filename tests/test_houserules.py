"""House-rules files: presets by name, YAML overrides, errors with file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from gintutor.content.houserules import load_rules
from gintutor.engine.rules import PRESETS
from gintutor.errors import RulesError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_preset_by_name() -> None:
    assert load_rules("Oklahoma") is PRESETS["oklahoma"]


def test_portuguese_house_rules_file(tmp_path: Path) -> None:
    path = write(tmp_path, "base: classic\nbox_bonus: 0\ngame_bonus: 0\ntarget: 250\n")
    rules = load_rules(str(path))
    assert (rules.box_bonus, rules.game_bonus, rules.target, rules.gin_bonus) == (0, 0, 250, 20)
    assert rules.name == str(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "base: classic\nknock_limit: 12\n",
            ":2: knock_limit: 12 is impossible: it must be 0 to 10",
        ),
        ("base: classic\ngin_bonus: 20\nundercut: 10\n", ":3: undercut: unknown setting"),
        ("base: classic\nbox_bonus: -20\n", ":2: box_bonus: -20 is impossible"),
        ("base: classic\ngin_bonus: twenty\n", ":2: gin_bonus: 'twenty' is not a whole number"),
        ("base: classic\ngin_bonus: [20\n", ":3: "),
        ("- base\n", ":1: house rules are a mapping"),
        ("x: &a {target: 150}\n<<: *a\n", ":2: a merge key ('<<') is not a value here"),
    ],
)
def test_bad_files_name_file_line_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RulesError) as error:
        load_rules(str(path))
    assert str(error.value).startswith(str(path) + message)


def test_missing_file_and_unknown_name(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read the house rules"):
        load_rules(str(tmp_path / "nope.yaml"))
    with pytest.raises(RulesError, match="unknown rule set 'gin500'"):
        load_rules("gin500")
