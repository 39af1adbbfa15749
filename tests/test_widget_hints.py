"""A widget's hint for a finger (templates/widgets/_macros.html TOUCH_WORDS): every hint of the
book, in the wording shown on a touch screen, neither points (指向) nor tabs, and taps (轻点)
where the mouse's wording clicks."""
import re
from pathlib import Path

import jinja2

from bookbuild import widget_parts

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"


def touch_words(text):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    env.filters.update(json=str, num=str, shade=str)  # the build's (bookbuild): unused here
    return str(env.get_template("widgets/_macros.html").module.touch_words(text))


def hints():
    found = []
    for path in sorted(widget_parts.FOLDER.glob(f"*/{widget_parts.TEMPLATE}")):
        found += re.findall(r'm\.frame\(w, "[^"]*", how="([^"]+)"', path.read_text(encoding="utf-8"))
    return found


def test_a_hint_for_a_finger_taps_where_the_mouse_points_or_clicks():
    assert touch_words("点一个词（或 Tab 到词上用方向键）看它那一行；指向格子读数值") == \
        "轻点一个词看它那一行；轻点格子读数值"


def test_no_hint_of_the_book_points_or_tabs_on_a_touch_screen():
    found = hints()
    assert len(found) > 25
    for hint in found:
        touch = touch_words(hint)
        assert "指向" not in touch and "Tab" not in touch and "轻轻" not in touch, (hint, touch)


def readouts():
    """Every readout line's idle text of the book: the macro readout_line's argument."""
    found = []
    for path in sorted(widget_parts.FOLDER.glob(f"*/{widget_parts.TEMPLATE}")):
        text = path.read_text(encoding="utf-8")
        found += re.findall(r'readout_line\("([^"]+)"\)', text)
        # a readout written by hand escapes the rule: none may say anything before it is pointed at
        assert not re.search(r'data-readout[^>]*>[^<{]', text), path.parent.name
    return found


def test_a_readout_says_how_to_point_in_the_words_of_the_pointer():
    found = readouts()
    assert len(found) > 20
    for text in found:
        touch = touch_words(text)
        assert "指向" in text and "指向" not in touch and "Tab" not in touch, (text, touch)
        assert "轻点" in touch and not touch.startswith("（"), (text, touch)
    # the macro draws both, for figures.css to show the pointer's own
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    env.filters.update(json=str, num=str, shade=str)
    line = str(env.get_template("widgets/_macros.html").module.readout_line("指向（或用 Tab 选中）一个格子"))
    assert '<span class="how-mouse">指向（或用 Tab 选中）一个格子</span>' in line
    assert '<span class="how-touch">轻点一个格子</span>' in line
