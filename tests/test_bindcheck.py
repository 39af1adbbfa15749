"""A widget template that binds a path its view does not hold stops the build at its line
(bookbuild/stages/bindcheck.py).
A template is part of the build, not of a book, so these cases render
a widget with a copy of its template (pycore/widgets/softmax/template.html) holding one mistake,
through render.render_widget as the build does."""
import shutil

import pytest

from bookbuild import cache, widget_parts
from bookbuild.stages import bindcheck
from bookbuild.renderers import pages as render
from bookbuild.errors import BuildError
from bookbuild.stages.widgets import registry



def softmax_widget():
    params = {k: s["default"] for k, s in registry().module("softmax").PARAMS.items()}
    return {"name": "softmax", "id": "w", "params": params, "view":
            registry().compute("softmax", params), "line": 3, "files": [], "label": None,
            "example": False}


def render_with(tmp_path, monkeypatch, old, new):
    """Render softmax with its template's text `old` (found once) replaced by `new`; the
    raised BuildError and the line `new` is on."""
    copy = tmp_path / "pycore" / "widgets"
    shutil.copytree(widget_parts.folder("softmax"), copy / "softmax")
    template = copy / "softmax" / widget_parts.TEMPLATE
    source = template.read_text(encoding="utf-8")
    assert source.count(old) == 1
    template.write_text(source.replace(old, new), encoding="utf-8")
    line = source[:source.index(old)].count("\n") + 1
    monkeypatch.setattr(widget_parts, "FOLDER", copy)
    monkeypatch.setattr(cache, "jinja", lambda: tmp_path / "cache" / "jinja")
    with pytest.raises(BuildError) as err:
        render.render_widget(render.make_env(), softmax_widget())
    return err.value, line


def test_the_book_templates_bind_only_parts_of_their_views():
    html = render.render_widget(render.make_env(), softmax_widget())
    assert 'data-bind="top.p"' in html


def test_a_data_bind_typo_stops_at_the_template_line(tmp_path, monkeypatch):
    err, line = render_with(tmp_path, monkeypatch, 'data-bind="top.p"', 'data-bind="top.pp"')
    assert str(err).endswith(
        f"pycore/widgets/softmax/template.html:{line}: data-bind path 'top.pp' is not in the view of "
        "softmax: top has the parts label, p (did you mean 'top.p'?); bind a part the view "
        "returns, or add it to the view")


def test_a_bound_number_without_its_digits_stops_at_the_template_line(tmp_path, monkeypatch):
    # the live page asks pycore for a bound number's text at its data-digits (bind.js)
    old = '<span class="num" data-bind="entropy" data-digits="3">'
    err, line = render_with(tmp_path, monkeypatch, old, '<span class="num" data-bind="entropy">')
    assert str(err).endswith(
        f"pycore/widgets/softmax/template.html:{line}: data-bind path 'entropy' shows a number of the "
        "view of softmax but does not say with how many decimals: add data-digits "
        '(data-digits="0" for a count)')


def test_a_macro_call_with_a_wrong_path_stops_at_the_call(tmp_path, monkeypatch):
    err, line = render_with(tmp_path, monkeypatch, 'mk.bars("bars"', 'mk.bars("bar"')
    assert f"softmax/template.html:{line}: data-attr path 'bar." in str(err)
    assert "(did you mean 'bars." in str(err)


def test_a_data_attr_path_past_the_end_of_a_list_stops(tmp_path, monkeypatch):
    err, line = render_with(tmp_path, monkeypatch, 'data-bind="entropy"',
                            'data-bind="entropy" data-attr="title=probs.99"')
    assert f"softmax/template.html:{line}: data-attr path 'probs.99' (of title) is not in the view" in str(err)
    assert "probs is a list of 5 (0 to 4)" in str(err)


def test_paths_resolve_as_bind_js_reads_them():
    view = {"a": {"b": [10, None, {"c": 1}]}, "cells": {3: [0.5]}, "s": "xy"}
    for path in ("a", "a.b.0", "a.b.1", "a.b.2.c", "cells.3.0", "s.1"):
        assert bindcheck.unresolved(view, path) is None, path  # null is a value bind.js writes
    for path, missing in (("a.x", "x"), ("a.b.3", "3"), ("a.b.01", "01"), ("a.b.0.c", "c"),
                          ("cells.4", "4"), ("", "")):
        assert bindcheck.unresolved(view, path)[2] == missing, path


def test_bindings_are_read_as_bind_js_finds_them():
    html = ('<figure><span data-bind="a.0" data-digits="2">1</span><rect data-attr="y=b.y '
            'height=b.h"/><span data-sci="c"></span><table data-matrix="m"></table>'
            '<div data-matrix="not.a.table"></div></figure>')
    assert bindcheck.bindings(html) == [("data-bind", "a.0"), ("data-attr y", "b.y"),
                                        ("data-attr height", "b.h"), ("data-sci", "c"),
                                        ("data-matrix", "m")]


def test_a_wrong_path_into_a_view_in_parts_names_the_parts_to_fix():
    """attention declares PARTS (pycore/view_parts.py): `heat` is filled by three of them,
    and the message names those, where a key would be added or read."""
    params = {k: s["default"] for k, s in registry().module("attention").PARAMS.items()}
    view = registry().compute("attention", params)
    template = str(widget_parts.part("attention", widget_parts.TEMPLATE))
    with pytest.raises(BuildError) as err:
        bindcheck.check("attention", '<p data-bind="heat.legnd.hi"></p>', view, template,
                        lambda: registry().owners("attention", params))
    assert "data-bind path 'heat.legnd.hi' is not in the view of attention" in str(err.value)
    assert str(err.value).endswith(
        "(did you mean 'heat.legend.hi'?); heat is filled by its PARTS sentence, weights, row: "
        "bind a key one of them returns, or add it to the one that computes it")
    # a view without PARTS: the message of a plain view
    with pytest.raises(BuildError) as err:
        bindcheck.check("softmax", '<p data-bind="topp"></p>', registry().compute("softmax", {}),
                        template, lambda: registry().owners("softmax", {}))
    assert str(err.value).endswith("; bind a part the view returns, or add it to the view")
