"""The one error type of the build: where it happened and what to do about it."""


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
            where = f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "
        return where + self.message
