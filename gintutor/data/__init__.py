"""Shipped content: ``gintutor.data.lessons`` and ``gintutor.data.puzzles`` are the top-level
``lessons/`` and ``puzzles/`` folders, mapped into the package when it is built."""
