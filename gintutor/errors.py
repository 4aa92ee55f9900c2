"""The errors the engine raises: one family under :class:`ValueError`.

Every message quotes the bad input and says how to fix it, so a front end can print it as is.
"""

from __future__ import annotations


class GinError(ValueError):
    """Base of every error gintutor raises on bad input or an illegal request."""

    exit_code = 2
    """The command line's exit status for it: 2 bad usage or input; a subclass for a problem
    in the learner's content or files (a damaged saved game, a full disk) says 1."""


class CardError(GinError):
    """A card or hand could not be read: bad notation, a duplicate, the wrong number of cards."""


class IllegalError(GinError):
    """A request the rules forbid: knocking above the limit, discarding the card just taken."""


class RulesError(GinError):
    """A rule set is unknown or a setting is missing, of the wrong type or impossible."""
