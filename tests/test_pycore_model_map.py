"""The model map (pycore/widgets/model_map/): every box links to a widget the book has, in
the chapter it names; the geometry stays inside the figure with no two boxes overlapping; a
family dims exactly the parts it lacks."""
import re
from pathlib import Path

import pytest

from pycore.widgets import model_map as mm

BOOK = Path(__file__).resolve().parent.parent / "book"


def blocks(chapter):
    """The widget names of a chapter's blocks, and the ids they give themselves."""
    text = (BOOK / f"{chapter}.md").read_text(encoding="utf-8")
    return re.findall(r"^```widget ([a-z-]+)\n((?:.*\n)*?)```", text, flags=re.M)


@pytest.mark.parametrize("box", mm.view("encoder-decoder")["fig"]["boxes"]
                         + mm.view("encoder-decoder")["fig"]["small"], ids=lambda b: b["href"])
def test_every_box_links_to_a_widget_of_its_chapter(box):
    page, anchor = box["href"].split("#")
    chapter = page.removesuffix(".html")
    widget = anchor.removesuffix("-" + chapter)
    found = blocks(chapter)
    assert any(name == widget and "id =" not in body for name, body in found), \
        f"book/{chapter}.md has no block `widget {widget}` without its own id (links: {anchor})"
    assert box["tag"] == f"§{int(chapter[:2])}"


def test_boxes_lie_inside_and_apart():
    fig = mm.view("encoder-decoder")["fig"]
    rects = [(b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"]) for b in fig["boxes"] + fig["small"]]
    for x0, y0, x1, y1 in rects:
        assert 0 <= x0 < x1 <= fig["width"] and 0 <= y0 < y1 <= fig["height"]
    for k, a in enumerate(rects):
        for b in rects[k + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_families_dim_what_they_lack():
    def dimmed(family):
        return {b["label"] + b["part"] for b in mm.view(family)["fig"]["boxes"] if b["dim"]}
    assert dimmed("encoder-decoder") == set()
    gpt = mm.view("decoder-only")
    assert {b["part"] for b in gpt["fig"]["boxes"] if b["dim"]} == {"encoder", "cross"}
    assert gpt["kept"] == len(mm.DECODER) - 1  # the decoder without its cross-attention
    bert = mm.view("encoder-only")
    assert bert["kept"] == sum(r is not None for r in mm.ENCODER)
    assert bert["fig"]["loop"]["dim"] and not gpt["fig"]["loop"]["dim"]
