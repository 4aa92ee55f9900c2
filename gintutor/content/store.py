"""The learner's data folder: where each file gintutor keeps lives, and the one atomic write.

The folder is ``GINTUTOR_HOME`` when it is set, else the platform's user data folder
(platformdirs). It holds (formats in ``docs/files.md``):

- ``progress.json``: lessons and puzzles done (:mod:`gintutor.cli.progress`);
- ``settings.json``: the saved settings, ``{"lang": "id"}`` (:mod:`gintutor.cli.language`);
- ``games/*.jsonl``: saved games, one per game (:mod:`gintutor.content.games`, the file's
  guarantees :mod:`gintutor.content.gamefile`'s), Carousel's in
  ``games/carousel/`` (:mod:`gintutor.content.carouselgames`);
- ``cache/``: what reading the shipped content gives, only ever a saving
  (:mod:`gintutor.content.cachefile`).

Every file replaced whole is replaced by :func:`write_atomically` (a crash leaves the old file
or the new one); saved games are appended to line by line instead (see ``games``).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from platformdirs import user_data_dir

from gintutor.content.textfile import FileError
from gintutor.errors import GinError, Phrase

PROGRESS = "progress.json"
SETTINGS = "settings.json"
GAMES = "games"
CAROUSEL_GAMES = "carousel"
"""The folder of saved Carousel games, inside :data:`GAMES` (whose listing holds only gin's)."""
CACHE = "cache"
LESSON_OUTLINES = "lesson-outlines.json"
LESSON_RECORDS = "lessons"
"""The folder of lessons read in full, beside :data:`LESSON_OUTLINES`."""
PUZZLE_PACK = "puzzles.json"
CAROUSEL_PUZZLES = "carousel-puzzles.pickle"

LONGEST_NAME = 255
"""The longest file name (in bytes) the systems gintutor runs on take (NAME_MAX)."""
LONGEST_HOME = 3900
"""The longest data folder path (in bytes): what it holds adds at most ~60 bytes under
PATH_MAX (4096), so no path inside it is too long for the system."""


class StoreError(GinError):
    """The data folder cannot be used: the message names it and the fix."""


def data_dir() -> Path:
    """Where gintutor keeps the learner's files: ``GINTUTOR_HOME`` (see :func:`home_folder`)
    or the platform's user data folder."""
    home = os.environ.get("GINTUTOR_HOME")
    if home:
        return home_folder(home)

    return Path(user_data_dir("gintutor", appauthor=False))


def home_folder(home: str) -> Path:
    """``home`` as the data folder; :class:`StoreError` if no file could be made in it (a name
    over 255 bytes was an internal error, exit 70, on ``play --resume`` and ``review``).

    >>> home_folder("/tmp/" + "x" * 300)
    Traceback (most recent call last):
    ...
    gintutor.content.store.StoreError: GINTUTOR_HOME: a name in it is longer than 255 bytes...
    """
    encoded = os.fsencode(home)
    problem = None
    if any(len(part) > LONGEST_NAME for part in encoded.split(b"/")):
        problem = Phrase("a name in it is longer than {most} bytes", most=LONGEST_NAME)
    elif len(encoded) > LONGEST_HOME:
        problem = Phrase("the path is longer than {most} bytes", most=LONGEST_HOME)
    if problem:
        raise StoreError(
            "GINTUTOR_HOME: {problem}: set it to a folder gintutor can write in", problem=problem
        )
    return Path(home)


def progress_file() -> Path:
    """The learner's progress file."""
    return data_dir() / PROGRESS


def games_folder() -> Path:
    """The folder of saved games."""
    return data_dir() / GAMES


def cache_file(name: str) -> Path:
    """A cache file (:data:`LESSON_OUTLINES`, :data:`PUZZLE_PACK`, :data:`CAROUSEL_PUZZLES`)."""
    return data_dir() / CACHE / name


_SYSTEM_WORDS = {
    errno.ENOENT: Phrase("No such file or directory"),
    errno.EACCES: Phrase("Permission denied"),
    errno.ENOSPC: Phrase("No space left on device"),
    errno.EROFS: Phrase("Read-only file system"),
    errno.EISDIR: Phrase("Is a directory"),
    errno.ENOTDIR: Phrase("Not a directory"),
    errno.EPERM: Phrase("Operation not permitted"),
    errno.EDQUOT: Phrase("Disk quota exceeded"),
}
"""The C library's words for the failures a learner can mend, translated where they are the
words it gave (another C library's are shown as they are)."""


def system_words(error: OSError) -> Phrase:
    """The system's words for ``error``, translated where they are the C library's own."""
    words = _SYSTEM_WORDS.get(error.errno or 0)
    if words is not None and str(words) == error.strerror:
        return words
    return Phrase("{reason}", reason=error.strerror or str(error))


def write_atomically(path: Path, data: str | bytes, *, make_folder: bool = False) -> None:
    """Replace the file at ``path`` with ``data`` (text is written as UTF-8): a crash leaves
    the old file or the new.

    A symlink is kept and its target replaced; an existing file keeps its mode, a new one is
    made readable by its owner only (0600). Anything but a regular file at ``path`` (a folder,
    a device such as ``/dev/null``) is refused, never replaced. Failures are
    :class:`~gintutor.content.textfile.FileError` naming the path; a temporary file is never
    left behind but by a kill (its name is ``.NAME.*.tmp`` beside the target).
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = Path(os.path.realpath(path))
    temporary: str | None = None
    try:
        if make_folder:
            target.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode: int | None = os.stat(target).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            raise FileError(
                "{path}: cannot write there: it is a folder"
                if stat.S_ISDIR(mode)
                else "{path}: cannot write there: it is not a regular file",
                path=path,
            )
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
        )
        with os.fdopen(handle, "wb") as stream:
            stream.write(raw)
            stream.flush()
            os.fsync(stream.fileno())
            if mode is not None:
                os.fchmod(stream.fileno(), stat.S_IMODE(mode))
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        where = error.filename if isinstance(error.filename, str) else str(path)
        raise FileError(
            "{path}: cannot write ({where}: {reason})",
            path=path,
            where=where,
            reason=system_words(error),
        ) from None
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
