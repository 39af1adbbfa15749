"""The one error type of the build: where it happened and what to do about it."""
import re
from pathlib import Path

QUOTE = 60  # characters of a value an error message quotes (a value can be megabytes)


def _shown(file):
    """Paths under the working folder are shown relative to it (book/04-attention.md)."""
    path = Path(file)
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(file)


class BuildError(Exception):
    """A problem in the book's sources or the build's inputs.

    Printed as ``file:line: message`` (or ``file: message`` / ``message`` when the place is
    unknown) and turned into a non-zero exit by build.py; never shown as a traceback.
    """

    def __init__(self, message, file=None, line=None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self):
        where = ""
        if self.file is not None:
            file = _shown(self.file)
            where = f"{file}:{self.line}: " if self.line is not None else f"{file}: "
        return where + self.message


def toml_error(e):
    """(message, line) of a TOMLDecodeError (Python 3.11 keeps the line only in the text)."""
    m = re.match(r"(.*) \(at line (\d+), column \d+\)$", str(e))
    return (m.group(1), int(m.group(2))) if m else (str(e), None)


def short(value, limit=QUOTE):
    """repr(value) cut to about `limit` characters, for quoting bad input in a message."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def clip(text, limit=QUOTE):
    """Text cut to about `limit` characters (a heading, an address), for a message."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"
