"""Fuzzing the build with Hypothesis: whatever a chapter or a widget block holds, the build either
succeeds or stops with a BuildError (a message at a file and line), never another exception.

Example counts (max_examples) are set per test below so that the file runs in well under 30 s;
FUZZ_SCALE=20 python3 -m pytest tests/test_fuzz.py runs twenty times as many, for a deeper look.
"""
import json
import math
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from bookbuild.renderers import pages as render
from bookbuild.errors import BuildError
from bookbuild.pipeline import build
from bookbuild.stages.widgets import known_widgets, parse_block, registry
from pycore.widgets import check_value

# a pygments plugin lexer looked up for an unknown fence language may raise the recursion limit
pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

WIDGETS = known_widgets()
SPECS = {name: registry().module(name).PARAMS for name in WIDGETS}


SCALE = float(os.environ.get("FUZZ_SCALE", "1"))


def fuzz(examples):
    """Hypothesis settings of this file: no per-example deadline (views differ a lot in speed)."""
    return settings(max_examples=max(1, int(examples * SCALE)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# Widgets whose parameters depend on each other in ways PARAMS cannot say: the view refuses the
# combination with a ValueError matching the pattern, which the build reports at the block's
# line ("pycore could not compute these parameters: ..."). Any other failure is a bug.
CROSS_RULES = {
    "positional-encoding": r"d_model must be even",
    "vit-patches": r"patch \d+ does not exist for P = \d+",
}

# Failures of valid parameters found by these tests and reported to the widget's author; the
# corner test below is a strict xfail for them, so it fails (XPASS) once the bug is fixed: then
# delete the entry.
KNOWN_BUGS = {}


# How many examples each widget's fuzz test draws: ten, but fewer for the slow views (declared,
# not timed: a view computed earlier in the process is cached, and timing every default view
# when the file was collected cost every test process ~4 s). code-lab runs a whole small model;
# beam-search, bpe and char-embedding-map take 50-160 ms at their defaults; train-live is fast
# at its defaults (0 steps) but trains up to live.LIVE["steps"] (1,000) steps for a drawn
# `steps` (its ten examples took ~30 s), and its corners train once to the end already.
EXAMPLES = {"code-lab": 3, "beam-search": 3, "bpe": 3, "char-embedding-map": 3, "train-live": 2}


# ---------------------------------------------------------------- TOML text from Python values

def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)  # nan, inf, 1e-05 and 1e+16 are TOML floats as written
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{ " + ", ".join(f"{json.dumps(k, ensure_ascii=False)} = {toml_value(x)}"
                            for k, x in v.items()) + " }"


def toml_body(params):
    return "".join(f"{k} = {toml_value(v)}\n" for k, v in params.items())


SCALARS = (st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=11)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=10)
KEYS = st.sampled_from(sorted({k for s in SPECS.values() for k in s}) + ["id"]) \
    | st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,8}", fullmatch=True)
NAMES = st.sampled_from(WIDGETS) | st.text(max_size=12)

# pieces that reach the interesting paths of the parser, mixed with arbitrary characters
PIECES = ["```", "```widget softmax\n", "```widget\n", "~~~", "$", "$$", "\\", "`", "<", ">",
          "<b>", "<!-- 注 -->", "&amp;", "# ", "## ", "\n", "\n\n", "    ", "- ", "1. ", "> ",
          "[链接](b.md#标题)", "[外部](https://example.com)", "![图](images/x.png)", "{", "}",
          "^", "_", "*", "|a|b|\n|-|-|\n", "\\frac{1}{2}", "x^2", "小猫", "它", "注意力", "。",
          "temperature = 2.0\n", "id = \"w\"\n", "[[x]]\n"]
MARKDOWN = st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=40).map("".join)


# ---------------------------------------------------------------- widget blocks and parameters

def assert_full_params(name, params):
    assert set(params) == set(SPECS[name])


@fuzz(200)
@given(name=NAMES, body=st.text(max_size=200))
def test_parse_block_of_arbitrary_text_raises_only_build_error(name, body):
    try:
        _, _, params = parse_block(name, body, "b.md", 3)
    except BuildError as e:
        assert e.file == "b.md" and e.line >= 3
    else:
        assert_full_params(name, params)


@fuzz(100)
@given(name=st.sampled_from(WIDGETS), given=st.dictionaries(KEYS, VALUES, max_size=5))
def test_parse_block_of_toml_lines_raises_only_build_error(name, given):
    try:
        _, _, params = parse_block(name, toml_body(given), "b.md", 3)
    except BuildError as e:
        assert e.file == "b.md" and 3 <= e.line <= 3 + len(given)
    else:
        assert_full_params(name, params)


@fuzz(150)
@given(data=st.data(), value=VALUES)
def test_check_value_returns_a_canonical_value_or_says_what_is_allowed(data, value):
    name = data.draw(st.sampled_from(WIDGETS))
    key = data.draw(st.sampled_from(sorted(SPECS[name])))
    spec = SPECS[name][key]
    try:
        canonical = check_value(key, value, spec)
    except ValueError as e:
        assert str(e).startswith(f"parameter {key} = ") and " must be " in str(e)
    else:
        assert check_value(key, canonical, spec) == canonical  # canonical values stay valid


def valid_value(spec):
    """Every value the spec allows (and nothing else)."""
    t = spec["type"]
    if t == "bool":
        return st.booleans()
    if t == "choice":
        return st.sampled_from(spec["choices"])
    if t == "int":
        return st.integers(spec["min"], spec["max"])
    number = st.floats(spec["min"], spec["max"], allow_nan=False, allow_infinity=False)
    if t == "float":
        return number
    n = spec.get("length")
    low, high = (n, n) if n else (spec.get("min_length", 1), spec.get("max_length", 12))
    return st.lists(number, min_size=low, max_size=high)


def valid_params(name):
    return st.fixed_dictionaries({}, optional={k: valid_value(s) for k, s in SPECS[name].items()})


@pytest.fixture(scope="module")
def jinja():
    return render.make_env()


def block_computes_and_renders(name, params, jinja, tolerate=()):
    """The block with these valid params passes parse_block, computes a view and renders."""
    wid, _, full = parse_block(name, toml_body(params), "b.md", 3)  # no BuildError here
    assert wid is None and set(full) == set(SPECS[name])
    for key, value in params.items():
        assert full[key] == value
    try:
        view = registry().compute(name, full)
    except ValueError as e:
        if any(re.search(pattern, str(e)) for pattern in tolerate):
            return
        raise
    json.dumps(view, allow_nan=True)  # plain Python: what the browser receives
    html = render.render_widget(jinja, {"name": name, "id": "w", "params": full, "view": view,
                                        "line": 3, "files": []})
    assert isinstance(html, (str, Markup)) and 'data-widget="' + name + '"' in html


@pytest.mark.parametrize("name", WIDGETS)
def test_valid_parameters_pass_and_compute_a_view(name, jinja):
    tolerate = [CROSS_RULES.get(name), KNOWN_BUGS.get(name, [None])[0]]

    @fuzz(EXAMPLES.get(name, 10))
    @given(params=valid_params(name))
    def check(params):
        block_computes_and_renders(name, params, jinja, [t for t in tolerate if t])

    check()


def corner_values(spec):
    t = spec["type"]
    if t == "bool":
        return [True, False]
    if t == "choice":
        return list(spec["choices"])
    if t == "int":
        return [spec["min"], spec["max"]]
    low, high = float(spec["min"]), float(spec["max"])
    if t == "float":  # the ends, and the floats right inside them
        return [low, high, math.nextafter(low, math.inf), math.nextafter(high, -math.inf)]
    n = spec.get("length")
    shortest, longest = (n, n) if n else (spec.get("min_length", 1), spec.get("max_length", 12))
    return [[low] * shortest, [high] * longest]


def corners(name):
    """The defaults, and each parameter alone at each corner of its range."""
    base = {k: s["default"] for k, s in SPECS[name].items()}
    found = {json.dumps(base): base}
    for key, spec in SPECS[name].items():
        for value in corner_values(spec):
            params = {**base, key: value}
            found.setdefault(json.dumps(params), params)
    return list(found.values())


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, raises=ValueError,
                                             reason=KNOWN_BUGS[n][1]))
    if n in KNOWN_BUGS else n for n in WIDGETS])
def test_corner_parameters_compute_a_view(name, jinja):
    tolerate = [CROSS_RULES[name]] if name in CROSS_RULES else []
    for params in corners(name):
        block_computes_and_renders(name, params, jinja, tolerate)


# ---------------------------------------------------------------- whole chapters

@pytest.fixture(scope="module")
def book(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    (root / "book").mkdir()
    (root / "book" / "book.toml").write_text('title = "t"\n[[parts]]\ntitle = "p"\n'
                                            'chapters = ["b.md"]\n', encoding="utf-8")
    return root


RAW_TAG = re.compile(r"<(script|style|iframe|object|embed|img[^>]*onerror)\b", re.I)


def build_chapter(root, text):
    (root / "book" / "b.md").write_text(text, encoding="utf-8")
    try:
        build(root / "book", root / "site", log=lambda *a: None)
    except BuildError as e:
        assert e.file is None or str(e.file).endswith(("b.md", "book.toml")), str(e)
        assert e.line is None or 1 <= e.line <= text.count("\n") + text.count("\r") + 1, str(e)
        return None
    html = (root / "site" / "b.html").read_text(encoding="utf-8")
    article = html.split('<article class="chapter">', 1)[1].split("</article>", 1)[0]
    assert not RAW_TAG.search(article), "chapter text reached the page as raw HTML"
    return article


@fuzz(30)
@given(title=st.booleans(), text=MARKDOWN | st.text(max_size=200))
def test_arbitrary_markdown_builds_or_raises_build_error(book, title, text):
    build_chapter(book, ("# 标题\n\n" if title else "") + text)


@fuzz(15)
@given(name=st.sampled_from(WIDGETS), given=st.dictionaries(KEYS, VALUES, max_size=3),
       before=MARKDOWN, after=MARKDOWN)
def test_chapters_with_widget_blocks_build_or_raise_build_error(book, name, given, before, after):
    block = f"```widget {name}\n{toml_body(given)}```\n"
    build_chapter(book, f"# 标题\n\n{before}\n\n{block}\n{after}")


def test_fuzz_found_cases_stay_fixed(book):
    """Inputs the fuzzers once turned into crashes or silent garbage."""
    cases = {
        "# t\n\n```widget scaling-variance\nd_k = 4.0\n```\n": "d_k must be one of",
        "# t\n\n```widget softmax\nlogits = " + "[" * 3000 + "\n```\n": "nested too deeply",
        "# t\n\n```python\nx = 1\n": "not closed with ```",
        "#\n": "an empty heading",
        "# t\n\n$\\alpah$\n": "unknown TeX command \\alpah",
    }
    for text, words in cases.items():
        (book / "book" / "b.md").write_text(text, encoding="utf-8")
        with pytest.raises(BuildError, match=re.escape(words)):
            build(book / "book", book / "site", log=lambda *a: None)
