"""Loading a rule set by name or from a house-rules YAML file (``base:`` plus overrides).

This is the one place rule sets are read from files; the engine itself only sees
:class:`~gintutor.engine.rules.RuleSet` values. Errors name the file, the line and the key.
"""

from __future__ import annotations

import os
from pathlib import Path

from gintutor.content.textfile import FileError, read_text
from gintutor.engine.rules import RULE_SETS, RuleSet, from_mapping
from gintutor.errors import Phrase, RulesError


def load_rules(spec: str) -> RuleSet:
    """The preset called ``spec``, or the house rules in the YAML file at path ``spec``."""
    if spec.strip().lower() in RULE_SETS:
        return RULE_SETS[spec.strip().lower()]
    path = Path(spec)
    # os.path.lexists, unlike Path.exists, answers False for a name too long or with a NUL.
    if not path.suffix and not os.path.lexists(spec):
        raise RulesError(
            "unknown rule set {spec!r}: choose one of {names} or give a YAML file",
            spec=spec,
            names=", ".join(RULE_SETS),
        )
    return load_rules_file(path)


def load_rules_file(path: Path) -> RuleSet:
    """House rules from a YAML file; :class:`RulesError` as ``file:line: key: problem``."""
    try:
        text = read_text(path, Phrase("the house rules"))
    except FileError as error:
        raise RulesError(error.template, **error.params) from None
    return rules_from_text(str(path), text)


def rules_from_text(where: str, text: str) -> RuleSet:
    """House rules from YAML text read from ``where`` (a file name, or what holds the text, as
    a saved game does); :class:`RulesError` as ``where:line: key: problem``.

    >>> rules_from_text("house", "{base: classic, gin_bonus: 20}").gin_bonus
    20
    """
    # Only a house-rules file needs YAML: a preset (analyze, rules, play) starts without it.
    # With YAML at the top of this module: rules 1.09x the bare Typer + Rich app's least CPU
    # against 0.97x, analyze 1.07x against 1.03x (bench_startup.py, 3 rounds, load ~7-9).
    import yaml

    from gintutor.content.yamlread import compose, value_of

    node, problems = compose(where, text)
    if problems:
        first = problems[0]
        raise RulesError(
            "{where}:{line}: {problem} (house rules are lines like 'gin_bonus: 20')"
            if "YAML syntax" in str(first)
            else "{where}:{line}: {problem}",
            where=first.path,
            line=first.line,
            problem=first.message,
        )
    if not isinstance(node, yaml.MappingNode):
        raise RulesError(
            "{where}:1: house rules are a mapping of settings, e.g. 'base: classic'", where=where
        )
    data: dict[str, object] = {}
    lines: dict[str, int] = {}
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        key, problem = value_of(key_node)
        if problem is None and not isinstance(key, str):
            problem = f"{key!r} is not a setting name"
        if problem is not None or not isinstance(key, str):
            raise RulesError("{where}:{line}: {problem}", where=where, line=line, problem=problem)
        if key in lines:
            # YAML keeps the last of two equal keys without a word: one of them is a mistake.
            raise RulesError(
                "{where}:{line}: {key} is set twice (first at line {first}): keep one",
                where=where,
                line=line,
                key=key,
                first=lines[key],
            )
        value, problem = value_of(value_node)
        if problem is not None:
            raise RulesError(
                "{where}:{line}: {key}: {problem}",
                where=where,
                line=value_node.start_mark.line + 1,
                key=key,
                problem=problem,
            )
        data[key] = value
        lines[key] = line
    try:
        return from_mapping(data, name=where)
    except RulesError as error:
        key = str(error).split(":", 1)[0]
        raise RulesError(
            "{where}:{line}: {error}", where=where, line=lines.get(key, 1), error=error
        ) from None
