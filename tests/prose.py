"""Looking up a chapter's sentences: a test computes a number and asks that the chapter says
it, written the way the chapter writes it."""
from pathlib import Path

BOOK = Path(__file__).resolve().parent.parent / "book"


def sayer(chapter):
    """says(*texts) for book/<chapter>: each text must be in the chapter, word for word."""
    text = (BOOK / chapter).read_text(encoding="utf-8")

    def says(*texts):
        for t in texts:
            assert t in text, f"book/{chapter} no longer says {t!r}"
    return says
