"""Names vulture cannot see used (``tests/test_project.py``, test_no_dead_code): the public API a
library user calls and callbacks a framework calls by name. Each entry says which."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # read by vulture, never run
    from gintutor.cli import app, prompts, shared
    from gintutor.engine.cards import Card
    from gintutor.engine.melds import Meld
    from gintutor.text import carousel

    # Commands: Typer calls what its decorators register.
    app.rules_command
    app.lessons_check
    app.learn
    app.puzzles_check
    app.puzzles_report
    app.puzzles_generate
    app.settings_lang
    # prompt_toolkit calls a key binding and a completer's method by protocol.
    prompts._hint
    prompts.get_completions
    # Click calls a command's help layout.
    shared.Command.format_options
    # Public API of the friendly types (python-chess style): a card's colour, a meld from its mask.
    Card.is_red
    Meld.from_mask
    # The formatter paired with parse_rounds (a round result as the command line takes it).
    carousel.round_text
