"""A problem in a content file (``file:line: what is wrong``) and many of them as one error:
what every reader reports, with no YAML to load (a pack kept in the data folder is read
without it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gintutor.errors import GinError

PLACE = "{path}:{line}: {message}"
"""A problem with its place (nothing in it to translate but the message: not a catalog text)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a content file; its message a :class:`~gintutor.errors.Note` where
    the front end translates it (it carries a ``template`` and ``params`` as an error does)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    @property
    def template(self) -> str:
        return PLACE

    @property
    def params(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "message": self.message}


def problems_error(problems: Sequence[Problem], kind: type[GinError] = GinError) -> GinError:
    """``problems`` as one error of ``kind``, a line each (``str()`` the English lines); the
    front end translates each problem's message where it prints the error."""
    names = [f"problem{number}" for number in range(len(problems))]
    template = "\n".join("{" + name + "}" for name in names)
    return kind(template, **dict(zip(names, problems, strict=True)))
