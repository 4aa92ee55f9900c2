"""Reading hand results for ``gintutor score`` from a file: a YAML list, CSV or plain lines."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import yaml

from gintutor.content.textfile import FileError, read_text
from gintutor.content.yamlread import compose
from gintutor.errors import Phrase
from gintutor.tutor.scoresheet import EntryError


def read_entries(path: Path) -> list[tuple[str, str]]:
    """``(file:line, entry text)`` pairs from a YAML list, a CSV file or plain lines."""
    try:
        text = read_text(path, Phrase("the hands"))
    except FileError as error:
        raise EntryError(error.template, **error.params) from None
    return entries_from_text(str(path), text, path.suffix.lower().lstrip("."))


def entries_from_text(name: str, text: str, kind: str = "") -> list[tuple[str, str]]:
    """``(name:line, entry text)`` pairs from ``text`` read as ``kind``: yaml, csv or lines."""
    if kind in ("yaml", "yml"):
        return _yaml_entries(name, text)
    if kind == "csv":
        return _csv_entries(name, text)
    return [
        (f"{name}:{number}", line.split("#", 1)[0])
        for number, line in enumerate(text.splitlines(), start=1)
        if line.split("#", 1)[0].strip()
    ]


def guess_kind(text: str) -> str:
    r"""How text given on standard input is laid out: ``yaml``, ``csv`` or ``lines``.

    >>> guess_kind("- A knock 12\n- B gin 41\n"), guess_kind("A,knock,12\n"), guess_kind("void\n")
    ('yaml', 'csv', 'lines')
    """
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    if lines and (lines[0].startswith("- ") or lines[0].startswith("hands:")):
        return "yaml"
    if any("," in line for line in lines):
        return "csv"
    return "lines"


def _is_header(row: list[str]) -> bool:
    """A CSV row of titles (``player,result,points``): no number in it, and not ``void``."""
    cells = [cell.strip().lower() for cell in row if cell.strip()]
    return bool(cells) and cells != ["void"] and not any(cell.isdigit() for cell in cells)


def _csv_entries(name: str, text: str) -> list[tuple[str, str]]:
    rows = csv.reader(io.StringIO(text))
    out: list[tuple[str, str]] = []
    try:
        for row in rows:
            if row and any(cell.strip() for cell in row) and not row[0].lstrip().startswith("#"):
                if not out and _is_header(row):
                    continue  # a header row names the columns
                out.append((f"{name}:{rows.line_num}", " ".join(cell.strip() for cell in row)))
    except csv.Error as error:
        raise EntryError(
            "{name}:{line}: not valid CSV: {error}", name=name, line=rows.line_num, error=error
        ) from None
    return out


def _yaml_entries(name: str, text: str) -> list[tuple[str, str]]:
    root, problems = compose(name, text)
    if problems:
        first = problems[0]
        raise EntryError(
            "{path}:{line}: not valid YAML: {problem}",
            path=first.path,
            line=first.line,
            problem=first.message.removeprefix("YAML syntax: "),
        )
    if root is None:
        return []
    if isinstance(root, yaml.MappingNode):
        hands = next((v for k, v in root.value if k.value == "hands"), None)
        root = hands if hands is not None else root
    if not isinstance(root, yaml.SequenceNode):
        raise EntryError(
            "{name}:{line}: expected a list of hands like '- A knock 12'",
            name=name,
            line=root.start_mark.line + 1,
        )
    out = []
    for node in root.value:
        where = f"{name}:{node.start_mark.line + 1}"
        if isinstance(node, yaml.ScalarNode):
            out.append((where, str(node.value)))
        elif isinstance(node, yaml.SequenceNode) and all(
            isinstance(item, yaml.ScalarNode) for item in node.value
        ):
            out.append((where, " ".join(str(item.value) for item in node.value)))
        else:
            raise EntryError("{where}: a hand is a line like 'A knock 12' or 'void'", where=where)
    return out
