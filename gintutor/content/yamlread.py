"""Reading YAML (lessons, puzzles, house rules, score files) with the line of every value.

This is the one place YAML is read. Values are read from the composed node tree, so a bad
card or key is reported as ``file:line: what is wrong`` instead of failing later without a
place. :func:`compose` is hardened against hostile files: a size limit, a node limit, a small
alias limit (an alias bomb is refused before anything is expanded), only the standard tags,
and values that cannot be built (``!!int abc``, a 5,000-digit number) are problems with their
line. libyaml's C parser is used where present, the pure-Python one otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from gintutor.content.problems import Problem
from gintutor.engine.cards import Card, CardSet, parse_cards
from gintutor.engine.rules import RULE_SETS, RuleSet
from gintutor.errors import GinError, Note, Phrase


@dataclass
class Reader:
    """Walks a composed YAML document, turning bad values into problems with their lines."""

    path: str
    problems: list[Problem] = field(default_factory=list)

    failed: set[int] = field(default_factory=set)

    def fail(self, node: yaml.Node, message: str) -> None:
        """Record a problem at ``node``'s line (one per node: the first says it best)."""
        if id(node) in self.failed:
            return
        self.failed.add(id(node))
        self.problems.append(Problem(self.path, node.start_mark.line + 1, message))

    def mapping(
        self, node: yaml.Node, what: str | Phrase
    ) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """The keys of a mapping node; ``what`` it is (a key, or a Phrase: ``a step``)."""
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, Note("{what} must be a mapping of keys to values", what=what))
            return {}
        return {str(key.value): (key, value) for key, value in node.value}

    def scalar(self, node: yaml.Node) -> Any:
        """The value of ``node``; ``None`` and a problem if it cannot be built."""
        value, problem = value_of(node)
        if problem is not None:
            self.fail(node, problem)
        return value

    def text(self, node: yaml.Node, key: str) -> str | None:
        value = self.scalar(node) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(value, str) or not value.strip():
            self.fail(node, Note("{key}: expected text", key=key))
            return None
        return value

    def strings(self, node: yaml.Node, key: str) -> tuple[str, ...]:
        if not isinstance(node, yaml.SequenceNode) or not all(
            isinstance(item, yaml.ScalarNode) for item in node.value
        ):
            self.fail(node, Note("{key}: expected a list like [a, b]", key=key))
            return ()
        return tuple(str(item.value) for item in node.value)

    def cards(self, node: yaml.Node, key: str) -> CardSet | None:
        text = self.scalar(node) if isinstance(node, yaml.ScalarNode) else None
        if isinstance(node, yaml.SequenceNode):
            text = " ".join(str(item.value) for item in node.value)
        if not isinstance(text, str):
            self.fail(node, Note('{key}: expected cards like "7C 7D 7S"', key=key))
            return None
        try:
            return CardSet.from_cards(parse_cards(text))
        except GinError as error:
            self.fail(node, Note("{key}: {error}", key=key, error=error))
            return None

    def card(self, node: yaml.Node, key: str) -> Card | None:
        found = self.cards(node, key)
        if found is None:
            return None
        if len(found) != 1:
            self.fail(
                node, Note("{key}: expected one card, got {count}", key=key, count=len(found))
            )
            return None
        return next(iter(found))

    def rules(self, node: yaml.Node, key: str) -> RuleSet | None:
        name = self.scalar(node) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(name, str) or name.lower() not in RULE_SETS:
            known = ", ".join(RULE_SETS)
            self.fail(
                node,
                Note(
                    "{key}: {name!r} is not a rule set (use one of {known})",
                    key=key,
                    name=name,
                    known=known,
                ),
            )
            return None
        return RULE_SETS[name.lower()]


def check_keys(
    reader: Reader,
    items: dict[str, tuple[yaml.Node, yaml.Node]],
    known: set[str],
    what: str | Phrase,
) -> None:
    for key, (key_node, _) in items.items():
        if key not in known:
            reader.fail(
                key_node,
                Note(
                    "unknown key {key!r} in {what} (known: {known})",
                    key=key,
                    what=what,
                    known=", ".join(sorted(known)),
                ),
            )


MAX_CHARS = 4 * 1024 * 1024
"""The largest YAML document read (the shipped puzzle files are under 100 kB)."""
MAX_NODES = 250_000
"""The most values in one document, counted as written."""
MAX_DEPTH = 100
"""The deepest nesting of lists and mappings (content needs about 6)."""
MAX_ALIASES = 50
"""The most ``*alias`` references in one document: content needs none, a bomb needs many."""
MAX_EXPANDED = 500_000
"""The most values in one document with every alias expanded."""

_CORE = "tag:yaml.org,2002:"
_ALLOWED_TAGS = frozenset(
    {"!"} | {_CORE + name for name in ("str", "int", "float", "bool", "null", "seq", "map")}
)
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def value_of(node: yaml.Node) -> tuple[Any, str | None]:
    """The Python value of ``node`` and ``None``, or ``None`` and why it cannot be built.

    >>> value_of(yaml.compose("!!int abc"))[1]
    "'abc' is not a valid int"
    >>> value_of(yaml.compose("9" * 5000))[1]
    'a number with 5000 digits is too long'
    >>> value_of(yaml.compose("<<"))[1]
    "a merge key ('<<') is not a value here: write each setting out"
    """
    if node.tag == _CORE + "merge":
        return None, Note("a merge key ('<<') is not a value here: write each setting out")
    try:
        return SafeConstructor().construct_object(node, deep=True), None
    except yaml.YAMLError as error:
        return None, str(getattr(error, "problem", None) or "not a value")
    except (ValueError, TypeError, AttributeError, OverflowError, RecursionError) as error:
        text = str(node.value) if isinstance(node, yaml.ScalarNode) else ""
        if "integer string conversion" in str(error):
            return None, Note(
                "a number with {digits} digits is too long",
                digits=sum(c.isdigit() for c in text),
            )
        kind = node.tag.removeprefix(_CORE)
        shown = repr(text if len(text) <= 40 else text[:37] + "...")
        return None, Note("{shown} is not a valid {kind}", shown=shown, kind=kind)


def _tag_name(tag: str) -> str:
    return "!!" + tag.removeprefix(_CORE) if tag.startswith(_CORE) else tag


def _scan(path: str, text: str) -> list[Problem]:
    """Limits and tags checked on the event stream, before any node is built."""
    nodes = aliases = depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        line = event.start_mark.line + 1 if event.start_mark is not None else 1
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return [
                    Problem(path, line, Note("values nested more than {most} deep", most=MAX_DEPTH))
                ]
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                return [
                    Problem(
                        path,
                        line,
                        Note(
                            "more than {most} aliases (*name): write the values out instead",
                            most=MAX_ALIASES,
                        ),
                    )
                ]
        elif isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_NODES:
                return [
                    Problem(
                        path, line, Note("more than {most} values: split the file", most=MAX_NODES)
                    )
                ]
            tag = getattr(event, "tag", None)
            if tag is not None and tag not in _ALLOWED_TAGS:
                return [
                    Problem(
                        path,
                        line,
                        Note(
                            "unsupported tag {tag}: write plain values (text, numbers, lists, "
                            "mappings)",
                            tag=_tag_name(tag),
                        ),
                    )
                ]
    return []


def _expanded_size(path: str, root: yaml.Node) -> list[Problem]:
    """A problem if the tree, with its aliases expanded, is too big or refers to itself."""
    sizes: dict[int, int] = {}  # 0 while the node is being walked (on the current path)
    stack = [root]
    while stack:
        node = stack[-1]
        children = _children(node)
        if id(node) not in sizes:
            sizes[id(node)] = 0
            for child in children:
                if sizes.get(id(child)) == 0:
                    return [
                        Problem(
                            path,
                            child.start_mark.line + 1,
                            Note("an alias refers to the value that contains it"),
                        )
                    ]
                if id(child) not in sizes:
                    stack.append(child)
            continue
        stack.pop()
        if sizes[id(node)] == 0:
            sizes[id(node)] = min(1 + sum(sizes[id(child)] for child in children), MAX_EXPANDED + 1)
    if sizes[id(root)] > MAX_EXPANDED:
        return [
            Problem(
                path,
                1,
                Note(
                    "more than {most} values once the aliases (*name) are expanded: write the "
                    "values out instead",
                    most=MAX_EXPANDED,
                ),
            )
        ]
    return []


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


_EXPECTED = re.compile(r"expected (.+), but (found|got) (.+)")
_EITHER = re.compile(r"('.') or ('.')")
_CHARACTER = re.compile(r"found character (.+) that cannot start any token")
_ESCAPE = re.compile(r"found unknown escape character (.+)")


def yaml_problem(problem: str) -> Phrase:
    """The YAML parser's complaint, its English words as it gives them, in a phrase the front
    end translates (the token names it quotes, ``'<scalar>'``, are kept); one it does not know
    stays as it is.

    >>> yaml_problem("expected <block end>, but found '<scalar>'").template
    'expected {wanted}, but found {found}'
    """
    for words in (
        Phrase("mapping values are not allowed here"),
        Phrase("mapping keys are not allowed here"),
        Phrase("sequence entries are not allowed here"),
        Phrase("could not find expected ':'"),
        Phrase("found unexpected end of stream"),
        Phrase("found unexpected document separator"),
        Phrase("invalid indentation or unclosed '[' or '{'"),
    ):
        if problem == words.template:
            return words
    if (expected := _EXPECTED.fullmatch(problem)) is not None:
        wanted, found = expected[1], expected[3]
        if (either := _EITHER.fullmatch(wanted)) is not None:  # the end of a [list] or {map}
            return Phrase(
                "expected {first} or {second}, but got {found}",
                first=either[1],
                second=either[2],
                found=found,
            )
        if expected[2] == "got":
            return Phrase("expected {wanted}, but got {found}", wanted=wanted, found=found)
        return Phrase("expected {wanted}, but found {found}", wanted=wanted, found=found)
    if (character := _CHARACTER.fullmatch(problem)) is not None:
        return Phrase("found character {char} that cannot start any token", char=character[1])
    if (escape := _ESCAPE.fullmatch(problem)) is not None:
        return Phrase("found unknown escape character {char}", char=escape[1])
    return Phrase("{reason}", reason=problem)


def _syntax_problem(path: str, text: str, error: yaml.YAMLError) -> Problem:
    """The syntax error in the pure parser's words (they name what was found), with its line."""
    mark = getattr(error, "problem_mark", None)
    # Only for shallow documents: the pure scanner is quadratic in the nesting depth.
    if _Loader is not yaml.SafeLoader and "nesting" not in str(getattr(error, "problem", "")):
        try:
            for _ in yaml.parse(text, Loader=yaml.SafeLoader):
                pass
        except yaml.YAMLError as pure_error:
            error = pure_error
            mark = getattr(error, "problem_mark", None)
    line = mark.line + 1 if mark is not None else 1
    problem = getattr(error, "problem", None)
    why = yaml_problem(problem) if problem else Phrase("not valid YAML")
    return Problem(
        path, line, Note("YAML syntax: {problem} (check indentation and quotes)", problem=why)
    )


def compose(path: str, text: str) -> tuple[yaml.Node | None, list[Problem]]:
    """The YAML node tree of ``text``, or its problems with their lines (never an exception).

    >>> print(compose("h.yaml", "a: 1\\nb: c: d")[1][0])
    h.yaml:2: YAML syntax: mapping values are not allowed here (check indentation and quotes)
    >>> print(compose("h.yaml", "a: !!python/name:os.system x")[1][0])
    h.yaml:1: unsupported tag !!python/name:os.system: write plain values (...)
    """
    if len(text) > MAX_CHARS:
        return None, [
            Problem(
                path, 1, Note("too big for a YAML file (over {most} characters)", most=MAX_CHARS)
            )
        ]
    if _Loader is yaml.SafeLoader or len(text) > ONE_PASS_CHARS:
        return _checked_first(path, text)
    # One pass of libyaml: the tree is built in C, then walked once. A tree with anything the
    # limits or tags are about is read again the careful way, so its problems are the same.
    try:
        root = yaml.compose(text, Loader=_Loader)
    except (yaml.YAMLError, RecursionError):
        return _checked_first(path, text)
    if root is None:
        return None, []
    return (root, []) if _plain(root) else _checked_first(path, text)


ONE_PASS_CHARS = 500_000
"""Documents up to this size are built before they are checked (at two characters a value they
cannot hold much more than ``MAX_NODES``); bigger ones are checked on the event stream first."""


def _plain(root: yaml.Node) -> bool:
    """True when the tree has no alias, only standard tags (as resolved), at most
    ``MAX_NODES`` values and ``MAX_DEPTH`` levels: nothing :func:`_checked_first` could refuse."""
    seen: set[int] = set()
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen or node.tag not in _ALLOWED_TAGS:
            return False
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            continue
        if depth >= MAX_DEPTH or len(seen) > MAX_NODES:
            return False
        if isinstance(node, yaml.MappingNode):
            stack += [(part, depth + 1) for pair in node.value for part in pair]
        else:
            stack += [(child, depth + 1) for child in node.value]
    return len(seen) <= MAX_NODES


def _checked_first(path: str, text: str) -> tuple[yaml.Node | None, list[Problem]]:
    """The tree of ``text`` with the limits and tags checked on the event stream before any
    node is built, and the aliases' expansion after (for a hostile or unusual document)."""
    try:
        problems = _scan(path, text)
        if problems:
            return None, problems
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as error:
        return None, [_syntax_problem(path, text, error)]
    except RecursionError:
        return None, [Problem(path, 1, Note("YAML nested too deeply"))]
    if root is None:
        return None, []
    problems = _expanded_size(path, root)
    return (None, problems) if problems else (root, [])
