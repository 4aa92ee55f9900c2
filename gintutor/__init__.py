"""gintutor: a Gin Rummy rules tutor and hand analyzer.

The engine (``cards``, ``rules``, ``melds``, ``solver``, ``layoffs``, ``scoring``, ``game``,
``errors``) is pure and uses the standard library only; the presentation layer sits on top.
"""

__version__ = "0.1.0"
