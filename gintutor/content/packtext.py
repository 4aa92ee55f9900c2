"""A puzzle pack read as text, not YAML: its ids and one puzzle's entry, found from their lines
alone, so a command that needs one puzzle parses one entry (and loads no YAML reader when the
pack is kept in the data folder)."""

from __future__ import annotations

import re

# A puzzle entry starts with its id (``- id: outs-049``): a pack's ids are found from those lines
# alone (no YAML), so a command that needs one puzzle parses one entry. Tests hold them equal to
# the ids a full read finds, for each pack.
ID_LINE = re.compile(r"^\s*-\s+id:\s*[\"']?([A-Za-z0-9][A-Za-z0-9-]*)", re.MULTILINE)


def entry_only(text: str, puzzle_id: str) -> str | None:
    """``text`` with only the entry of ``puzzle_id`` left under ``puzzles:``, on its own lines
    (so every line number is the file's); ``None`` unless the id's entry is found exactly once.

    The entry runs to the next line indented no deeper than its ``-`` (blank and comment lines
    aside): a line inside the entry is deeper, unless within an unclosed flow value, which then
    fails to parse. A test holds every shipped puzzle read this way equal to the full read's.

    >>> text = "puzzles:\\n  - id: a\\n    title: A\\n  # note\\n  - id: b\\n    title: B\\n"
    >>> entry_only(text, "b")
    'puzzles:\\n\\n\\n\\n  - id: b\\n    title: B\\n'
    """
    line = re.compile(rf"^( *)- +id: *([\"']?){re.escape(puzzle_id)}\2 *(#.*)?$", re.MULTILINE)
    found = list(line.finditer(text))
    if len(found) != 1:
        return None
    start = found[0].start()
    number = text.count("\n", 0, start) + 1
    if number < 2:
        return None
    indent = len(found[0].group(1))
    after = re.compile(rf"^ {{0,{indent}}}[^ #\n]", re.MULTILINE).search(text, found[0].end())
    end = after.start() if after is not None else len(text)
    return "puzzles:" + "\n" * (number - 1) + text[start:end]
