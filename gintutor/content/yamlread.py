"""Reading content YAML (lessons, puzzles) with the line of every value, for clear problems.

Values are read from the composed node tree, so a bad card or key is reported as
``file:line: what is wrong`` instead of failing later without a place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from gintutor.engine.cards import Card, CardSet, parse_cards
from gintutor.engine.rules import RULE_SETS, RuleSet
from gintutor.errors import GinError


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a content file."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class Reader:
    """Walks a composed YAML document, turning bad values into problems with their lines."""

    path: str
    problems: list[Problem] = field(default_factory=list)

    def fail(self, node: yaml.Node, message: str) -> None:
        self.problems.append(Problem(self.path, node.start_mark.line + 1, message))

    def mapping(self, node: yaml.Node, what: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, f"{what} must be a mapping of keys to values")
            return {}
        return {str(key.value): (key, value) for key, value in node.value}

    def scalar(self, node: yaml.Node) -> Any:
        return yaml.SafeLoader("").construct_object(node, deep=True)

    def text(self, node: yaml.Node, key: str) -> str | None:
        value = self.scalar(node) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(value, str) or not value.strip():
            self.fail(node, f"{key}: expected text")
            return None
        return value

    def strings(self, node: yaml.Node, key: str) -> tuple[str, ...]:
        if not isinstance(node, yaml.SequenceNode) or not all(
            isinstance(item, yaml.ScalarNode) for item in node.value
        ):
            self.fail(node, f"{key}: expected a list like [a, b]")
            return ()
        return tuple(str(item.value) for item in node.value)

    def cards(self, node: yaml.Node, key: str) -> CardSet | None:
        text = self.scalar(node) if isinstance(node, yaml.ScalarNode) else None
        if isinstance(node, yaml.SequenceNode):
            text = " ".join(str(item.value) for item in node.value)
        if not isinstance(text, str):
            self.fail(node, f"{key}: expected cards like \"7C 7D 7S\"")
            return None
        try:
            return CardSet.from_cards(parse_cards(text))
        except GinError as error:
            self.fail(node, f"{key}: {error}")
            return None

    def card(self, node: yaml.Node, key: str) -> Card | None:
        found = self.cards(node, key)
        if found is None:
            return None
        if len(found) != 1:
            self.fail(node, f"{key}: expected one card, got {len(found)}")
            return None
        return next(iter(found))

    def rules(self, node: yaml.Node, key: str) -> RuleSet | None:
        name = self.scalar(node) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(name, str) or name.lower() not in RULE_SETS:
            known = ", ".join(RULE_SETS)
            self.fail(node, f"{key}: {name!r} is not a rule set (use one of {known})")
            return None
        return RULE_SETS[name.lower()]


def check_keys(reader: Reader, items: dict[str, tuple[yaml.Node, yaml.Node]], known: set[str],
             what: str) -> None:
    for key, (key_node, _) in items.items():
        if key not in known:
            known_keys = ", ".join(sorted(known))
            reader.fail(key_node, f"unknown key {key!r} in {what} (known: {known_keys})")




def compose(path: str, text: str) -> tuple[yaml.Node | None, list[Problem]]:
    """The YAML node tree of ``text``, or the syntax problem with its line."""
    try:
        return yaml.compose(text), []
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or "not valid YAML"
        return None, [Problem(path, line, f"YAML syntax: {problem} (check indentation and quotes)")]
