"""Code the chapters quote from pycore stays the code pycore runs: a ```python listing whose
first line is `# pycore/<file>.py` must be that file's lines, in their order (blank lines,
docstrings and indentation aside), so the prose cannot drift from the source."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LISTING = re.compile(r"^```python\n# (pycore/[\w/]+\.py)\n(.*?)^```", re.M | re.S)


def listings():
    for chapter in sorted((ROOT / "book").glob("*.md")):
        for m in LISTING.finditer(chapter.read_text(encoding="utf-8")):
            line = chapter.read_text(encoding="utf-8")[:m.start()].count("\n") + 1
            yield pytest.param(chapter.name, line, m.group(1), m.group(2),
                               id=f"{chapter.name}:{line}")


def test_there_are_listings():
    found = {(c, f) for c, _, f, _ in (p.values for p in listings())}
    assert ("15-code-lab.md", "pycore/block_torch.py") in found
    assert ("15-code-lab.md", "pycore/block.py") in found


@pytest.mark.parametrize("chapter, line, path, code", list(listings()))
def test_listing_is_the_source(chapter, line, path, code):
    source = [s.strip() for s in (ROOT / path).read_text(encoding="utf-8").splitlines()]
    at = 0
    for k, text in enumerate(code.splitlines()):
        text = text.strip()
        if not text:
            continue
        try:
            at = source.index(text, at) + 1
        except ValueError:
            pytest.fail(f"book/{chapter}:{line + 1 + k}: this line of the listing is not in "
                        f"{path} (after the lines before it): {text!r}; copy it from the file")
