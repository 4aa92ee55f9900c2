"""The errors the engine raises: one family under :class:`ValueError`.

Every message quotes the bad input and says how to fix it, so a front end can print it as is.

An error is raised with a *template* and its named values, never an f-string::

    raise CardError("{token!r}: unknown suit {suit!r} (use C, D, H, S or ♣ ♦ ♥ ♠)",
                    token=token, suit=suit)

``str(error)`` is the English message, filled (the engine and ``--json`` read only that); the
front end translates ``error.template`` through the catalog and fills it with
``error.params`` (:func:`gintutor.text.i18n.error_text`). The templates are extracted for the
catalog by class name (:func:`gintutor.content.catalogs.error_messages`): the first argument
must be a string literal. A value may be another error (a nested message, translated too). A
plain message without values is its own template.
"""

from __future__ import annotations


class GinError(ValueError):
    """Base of every error gintutor raises on bad input or an illegal request."""

    exit_code = 2
    """The command line's exit status for it: 2 bad usage or input; a subclass for a problem
    in the learner's content or files (a damaged saved game, a full disk) says 1."""

    def __init__(self, template: str = "", /, **params: object) -> None:
        super().__init__(template.format_map(params) if params else template)
        self.template = template
        """The English message with its ``{placeholders}`` (the catalog's key)."""
        self.params = params
        """The values of the placeholders (another error for a nested message)."""


class Phrase:
    """A phrase that fills a placeholder of an error's message (``a symlink loop``), with its
    own template and values: ``str()`` is the English, and the front end translates it with
    the message around it. Its template is extracted for the catalog as an error's is."""

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format_map(self.params) if self.params else self.template

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Phrase({str(self)!r})"


class Note(str):
    """A warning or note for the learner (a saved game's cut-short line, a progress file set
    aside): the English text itself, so it compares, prints and goes into ``--json`` as a
    string, carrying its template and values so that the front end translates it as it does
    an error. Its template is extracted for the catalog as an error's is."""

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, /, **params: object) -> Note:
        note = super().__new__(cls, template.format_map(params) if params else template)
        note.template = template
        note.params = params
        return note


class Number:
    """A number in a message (``1.5`` expected points): ``str()`` is the English digits
    (``digits`` after the point), and the front end writes it the reader's way (``1,5``)."""

    def __init__(self, value: float, digits: int = 0) -> None:
        self.value = value
        self.digits = digits

    def __str__(self) -> str:
        return f"{self.value:.{self.digits}f}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Number({self.value!r}, {self.digits})"


class CardError(GinError):
    """A card or hand could not be read: bad notation, a duplicate, the wrong number of cards."""


class IllegalError(GinError):
    """A request the rules forbid: knocking above the limit, discarding the card just taken."""


class RulesError(GinError):
    """A rule set is unknown or a setting is missing, of the wrong type or impossible."""
