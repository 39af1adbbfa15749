"""pycore/fmt.py, the book's one number formatter: the build's text and the live page's both
come from it (tests/browser/test_static_live_text.py compares them in the browser)."""
import json
import re
from pathlib import Path

import numpy as np

from bookbuild.renderers import pages as render
from pycore import figure, fmt
from pycore.widgets import call_json

ROOT = Path(__file__).resolve().parent.parent


def test_a_tie_rounds_to_even_on_the_binary_value():
    # 0.125 and 0.375 are exact binary fractions: true ties, to the even digit (JavaScript's
    # toFixed gave 0.13); 0.145 is a little below its decimal, so no tie: it rounds down
    assert fmt.number(0.125, 2) == "0.12" and fmt.number(0.375, 2) == "0.38"
    assert fmt.number(2.5, 0) == "2" and fmt.number(0.145, 2) == "0.14"
    assert fmt.number(np.float64(0.125), 2) == "0.12" and fmt.number(7, 0) == "7"


def test_a_shade_is_the_weight_scale_class_in_square_root_steps():
    # class k holds the weights w with k/9 <= sqrt(w) < (k + 1)/9, i.e. k^2/81 <= w < (k+1)^2/81:
    # each boundary checked from both sides, by the squares, not by a square root
    for k in range(1, 9):
        assert fmt.shade(k * k / 81 + 1e-9) == f"s{k}" and fmt.shade(k * k / 81 - 1e-9) == f"s{k - 1}"
    # by hand: 0.093 (a soft head's weight) is 0.305 of the way in sqrt, 0.21 is 0.458
    assert [fmt.shade(v) for v in (0.0, 0.093, 0.21, 0.5, 1.0, -0.2, 1.3)] == \
        ["s0", "s2", "s4", "s6", "s8", "s0", "s8"]
    assert fmt.shade(np.float64(0.5)) == "s6"


def test_the_tables_and_the_figures_colour_a_weight_alike():
    # a weights table's shade and a heatmap cell's class are one rule: the same class number
    ws = np.linspace(0.0, 1.0, 1001)
    fig = figure.heatmap([ws.tolist()], ["q"], [str(i) for i in range(len(ws))], weights=True)
    assert [f"s{c['c']}" for c in fig["cells"]] == [fmt.shade(w) for w in ws]
    assert fig["legend"]["scale"] == "weights" and (fig["legend"]["lo"], fig["legend"]["hi"]) == ("0", "1")
    # the legend's inner marks where their steps fall: 180 * sqrt(0.1) = 56.92, 180 * sqrt(0.5) = 127.28
    assert figure.weight_legend()["marks"] == [{"x": 56.92, "text": "0.1"}, {"x": 127.28, "text": "0.5"}]


def test_sci_is_three_significant_digits():
    assert [fmt.sci(v) for v in (1.1657e-15, 0.0, 2e21)] == ["1.17e-15", "0.00e+00", "2.00e+21"]


def test_the_build_and_the_figures_format_with_it():
    assert render.num(0.125, 2) == figure.fmt(0.125, 2) == fmt.number(0.125, 2)
    env = render.make_env()
    html = env.from_string("{{ 0.125|num(2) }} {{ 0.5|shade }} {{ 1e-15|sci }}").render()
    assert html == "0.12 s6 1.00e-15"


def test_page_texts_are_those_the_page_names_and_the_view_holds():
    view = {"p": 0.125, "n": 3, "word": "猫", "flag": True, "tiny": 1e-15,
            "bars": [{"v": 0.5}], "lean": {"1": {"v": 0.25}},
            "m": np.array([[0.125, 0.5]]), "none": []}
    wanted = ["p:2", "n:0", "tiny:e", "bars.0.v:1", "lean.1.v:1", "m:1", "none:2", "word:2", "flag:0",
              "gone:2", "bars.5.v:1"]
    assert fmt.page_texts(view, wanted) == {
        "p:2": "0.12", "n:0": "3", "tiny:e": "1.00e-15", "bars.0.v:1": "0.5",
        "lean.1.v:1": "0.2",  # 0.25, a tie: to even
        "m:1": {"text": [["0.1", "0.5"]], "title": [["0.1250", "0.5000"]],
                "shade": [["s3", "s6"]]},  # sqrt(0.125) = 0.354: 3.2 ninths
        "none:2": {"text": [], "title": [], "shade": []}}  # a table of no rows (code-lab)


def test_call_json_sends_the_texts_asked_for_with_the_view():
    view = json.loads(call_json("softmax", "{}", None, json.dumps(["top.p:3", "entropy:2"])))
    assert view["$text"] == {"top.p:3": fmt.number(view["top"]["p"], 3),
                             "entropy:2": fmt.number(view["entropy"], 2)}
    assert "$text" not in json.loads(call_json("softmax", "{}"))


# The page's own numbers, none of a view: train-live's training speed, measured on the page's
# clock while it trains (the build shows none).
PAGE_MEASURED = {"pycore/widgets/train_live/widget.js": 1}


def test_the_front_end_formats_no_number():
    formatting = re.compile(r"\.(toFixed|toPrecision|toExponential|toLocaleString)\(|NumberFormat")
    found = {}
    scripts = [*(ROOT / "assets").rglob("*.js"), *(ROOT / "pycore" / "widgets").glob("*/widget.js")]
    for path in sorted(scripts):
        count = len(formatting.findall(path.read_text(encoding="utf-8")))
        if count:
            found[path.relative_to(ROOT).as_posix()] = count
    assert found == PAGE_MEASURED
