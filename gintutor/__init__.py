"""gintutor: a Gin Rummy rules tutor and hand analyzer.

Layers, each importing only those before it (``tests/test_project.py`` holds it): ``errors``;
``engine`` (``cards``, ``rules``, ``melds``, ``solver``, ``layoffs``, ``scoring``, ``game``,
``hand``, ``bots``, ``coach``, ``carousel``; the standard library only, but for ``highspy`` on
big Carousel tables), whose front door is ``from gintutor import engine``; ``text``; ``tutor``;
``content``; ``cli``.
"""

__version__ = "0.1.0"
