"""Reading hand results for ``gintutor score`` from a file: a YAML list, CSV or plain lines."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from gintutor.tutor.scoresheet import EntryError


def read_entries(path: Path) -> list[tuple[str, str]]:
    """``(file:line, entry text)`` pairs from a YAML list, a CSV file or plain lines."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise EntryError(f"{path}: cannot read: {error.strerror}") from None
    if path.suffix.lower() in (".yaml", ".yml"):
        return _yaml_entries(path, text)
    if path.suffix.lower() == ".csv":
        rows = csv.reader(io.StringIO(text))
        return [
            (f"{path}:{number}", " ".join(cell.strip() for cell in row))
            for number, row in enumerate(rows, start=1)
            if row and any(cell.strip() for cell in row) and not row[0].lstrip().startswith("#")
        ]
    return [
        (f"{path}:{number}", line.split("#", 1)[0])
        for number, line in enumerate(text.splitlines(), start=1)
        if line.split("#", 1)[0].strip()
    ]


def _yaml_entries(path: Path, text: str) -> list[tuple[str, str]]:
    import yaml

    try:
        root = yaml.compose(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or "syntax error"
        raise EntryError(f"{path}:{line}: not valid YAML: {problem}") from None
    if root is None:
        return []
    if isinstance(root, yaml.MappingNode):
        hands = next((v for k, v in root.value if k.value == "hands"), None)
        root = hands if hands is not None else root
    if not isinstance(root, yaml.SequenceNode):
        raise EntryError(
            f"{path}:{root.start_mark.line + 1}: expected a list of hands like '- A knock 12'"
        )
    out = []
    for node in root.value:
        where = f"{path}:{node.start_mark.line + 1}"
        if isinstance(node, yaml.ScalarNode):
            out.append((where, str(node.value)))
        elif isinstance(node, yaml.SequenceNode):
            out.append((where, " ".join(str(item.value) for item in node.value)))
        else:
            raise EntryError(f"{where}: a hand is a line like 'A knock 12' or 'void'")
    return out
