"""Loading a rule set by name or from a house-rules YAML file (``base:`` plus overrides).

This is the one place rule sets are read from files; the engine itself only sees
:class:`~gintutor.engine.rules.RuleSet` values. Errors name the file, the line and the key.
"""

from __future__ import annotations

from pathlib import Path

from gintutor.engine.rules import RULE_SETS, RuleSet, from_mapping
from gintutor.errors import RulesError


def load_rules(spec: str) -> RuleSet:
    """The preset called ``spec``, or the house rules in the YAML file at path ``spec``."""
    if spec.strip().lower() in RULE_SETS:
        return RULE_SETS[spec.strip().lower()]
    path = Path(spec)
    if not path.suffix and not path.exists():
        raise RulesError(
            f"unknown rule set {spec!r}: choose one of {', '.join(RULE_SETS)} or give a YAML file"
        )
    return load_rules_file(path)


def load_rules_file(path: Path) -> RuleSet:
    """House rules from a YAML file; :class:`RulesError` as ``file:line: key: problem``."""
    import yaml  # only house-rules files need it

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(f"{path}: cannot read the house rules: {error.strerror}") from None
    try:
        node = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = getattr(error, "problem", None) or "not valid YAML"
        raise RulesError(
            f"{where}: {problem} (house rules are lines like 'gin_bonus: 20')"
        ) from None
    if not isinstance(data, dict):
        raise RulesError(f"{path}:1: house rules are a mapping of settings, e.g. 'base: classic'")
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, _ in node.value:
            lines[str(key_node.value)] = key_node.start_mark.line + 1
    try:
        return from_mapping(data, name=str(path))
    except RulesError as error:
        key = str(error).split(":", 1)[0]
        line = lines.get(key, 1)
        raise RulesError(f"{path}:{line}: {error}") from None
