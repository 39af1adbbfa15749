"""The build end to end on a small sample book: golden pages, clear errors, atomic writes."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import html5lib
import pytest

from bookbuild import widget_parts
from bookbuild.errors import BuildError
from bookbuild.pipeline import build

HERE = Path(__file__).resolve().parent
MINIBOOK = HERE / "fixtures" / "minibook"
GOLDEN = HERE / "fixtures" / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def quiet(*_):
    pass


def tree_digest(folder):
    h = hashlib.sha256()
    for p in sorted(Path(folder).rglob("*")):
        h.update(str(p.relative_to(folder)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def good_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("good") / "site"
    build(MINIBOOK, out, log=quiet)
    return out


def article(html):
    """The chapter's own HTML (between <article> tags): what the golden files pin down."""
    return html.split('<article class="chapter">', 1)[1].split("</article>", 1)[0].strip() + "\n"


def markup(html):
    """The HTML as a browser reads it, written back in one spelling: `"`, `&quot;` and `&#34;` in
    text are one character, and which of them a library (Pygments, Jinja2, markupsafe) writes is
    its own choice, not the book's. Markup and escaped text stay apart: `<b>` is not `&lt;b&gt;`."""
    tree = html5lib.parseFragment(html, treebuilder="etree", namespaceHTMLElements=False)
    return html5lib.serialize(tree, tree="etree", omit_optional_tags=False, quote_char='"',
                              quote_attr_values="always")


def test_markup_ignores_entity_spelling_but_not_escaping():
    assert markup('<span title="&#34;a&#x27;">&quot;hi&quot; &#39;x&#39;</span>') \
        == markup('<span title="&quot;a\'">"hi" \'x\'</span>')
    assert markup("<b>x</b>") != markup("&lt;b&gt;x&lt;/b&gt;")
    assert markup('<p class="a">x</p>') != markup('<p class="b">x</p>')


@pytest.mark.parametrize("page", ["a.html", "b.html"])
def test_pages_match_golden_files(good_site, page):
    got = article((good_site / page).read_text(encoding="utf-8"))
    golden = GOLDEN / page
    if UPDATE:
        golden.write_text(got, encoding="utf-8")
    assert markup(got) == markup(golden.read_text(encoding="utf-8")), \
        f"{page} differs from {golden}; if the change is intended, rerun with UPDATE_GOLDEN=1"


def test_every_stylesheet_is_in_book_css(good_site):
    css = (good_site / "assets" / "book.css").read_text(encoding="utf-8")
    root = Path(__file__).resolve().parent.parent / "assets"
    widgets = [src for src, rel in widget_parts.site_assets() if rel.endswith(".css")]
    assert len(widgets) > 30
    for part in sorted(root.glob("*.css")) + widgets:
        assert part.read_text(encoding="utf-8") in css, f"{part} is missing from book.css"


def test_directly_referenced_files_carry_their_integrity_hash(good_site):
    import base64
    import re
    pages = [p for p in good_site.glob("*.html")]
    checked = 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<(?:script|link)\b[^>]*>", html):
            if tag == '<script type="importmap">':
                continue  # inline: the page's CSP names its hash
            url = re.search(r'(?:src|href)="([^"]+)"', tag).group(1)
            if 'rel="canonical"' in tag:
                continue  # a page's address, not a file it loads
            path, _, version = url.partition("?v=")
            data = (good_site / path).read_bytes()
            # the address carries the content's hash: a new build's page never gets an old file
            assert version == hashlib.sha256(data).hexdigest()[:12], tag
            if "<script" in tag or 'rel="stylesheet"' in tag or 'rel="modulepreload"' in tag:
                digest = re.search(r'integrity="sha384-([^"]+)"', tag)
                assert digest, f"{page.name}: {tag} has no integrity"
                assert base64.b64decode(digest.group(1)) == hashlib.sha384(data).digest(), tag
                checked += 1
    assert checked >= 5 * len(pages)


def test_site_layout(good_site):
    names = {p.name for p in good_site.iterdir()}
    assert {"index.html", "a.html", "b.html", "assets", "pyodide"} <= names
    runtime = {p.name for p in (good_site / "pyodide").iterdir()}
    assert "pyodide.asm.wasm" in runtime and "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl" in runtime
    archives = list((good_site / "assets").glob("pycore-*.zip"))
    assert len(archives) == 1


def test_the_service_worker_precaches_every_runtime_file(good_site):
    """Offline, a fresh runtime worker needs each of them (the NumPy wheel too) from the cache."""
    listed = (good_site / "sw.js").read_text(encoding="utf-8")
    for path in (good_site / "pyodide").iterdir():
        assert f'"pyodide/{path.name}"' in listed, path.name


def sw_keeps(site):
    text = (site / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"^const KEEP = (.*?);  //", text, re.M)[1])


def test_the_service_worker_installs_the_runtime_and_keeps_the_book_only_on_request(good_site):
    """On install: the runtime, the shared assets and the offline page, never a chapter; the
    whole book (on the reader's request) lists every chapter and no embed page; its size is
    the bytes of every file either list names."""
    keep = sw_keeps(good_site)
    install = [u.split("?")[0] for u in keep["install"]]
    book = [u.split("?")[0] for u in keep["book"]]
    assert "offline.html" in install and "assets/book.js" in install
    assert not [u for u in install if u.endswith(".html") and u != "offline.html"]
    pages = {p.name for p in good_site.glob("*.html")}
    embeds = {p for p in pages if p.startswith("embed-")}
    assert embeds and pages - embeds - {"print.html", "offline.html"} <= set(book)
    assert not [u for u in install + book if u.startswith("embed-")]
    assert not set(install) & set(book)
    assert keep["bookBytes"] == sum((good_site / u).stat().st_size for u in install + book)


def test_the_service_worker_precaches_the_search_index_as_named(good_site):
    """Search works offline once the reader keeps the whole book: sw.js lists meta.json and
    every part it names, by the names search.js asks for (content-named parts carry no ?v=, and are served cache-first)."""
    listed = (good_site / "sw.js").read_text(encoding="utf-8")
    meta = json.loads((good_site / "search" / "meta.json").read_text(encoding="utf-8"))
    assert '"search/meta.json"' in listed
    names = [f"t{i}.{meta['version']}.json" for i in range(meta["shards"])] + \
        [f"c{i}.{meta['version']}.json" for i in range(len(meta["chapters"]))]
    for name in names:
        assert f'"search/{name}"' in listed, name
        assert (good_site / "search" / name).is_file()
    versioned = re.search(r"const VERSIONED = (new RegExp\(.*?\));", listed, re.S)[1]
    urls = [f"/book/search/{names[0]}", "/book/search/meta.json"]
    done = subprocess.run(["node", "-e", f"const V = {versioned}; process.stdout.write("
                           f"JSON.stringify({json.dumps(urls)}.map((u) => V.test(u))))"],
                          capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == [True, False], done.stderr  # cache-first; network-first


def test_pages_have_no_raw_tex_and_no_inline_script(good_site):
    for page in good_site.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "$" not in article(html) if page.name not in ("index.html", "print.html") else True
        assert "<script>" not in html and " style=" not in html
        assert "Content-Security-Policy" in html


HEAD = "# 第二节\n\n## 注意力\n\n"  # a.md links to b.md#注意力

# (chapter text after HEAD, line of the error, words the message must contain)
BAD_BLOCKS = [
    ("```widget nosuch\n```\n", 5, ["unknown widget 'nosuch'", "attention", "softmax"]),
    ("```widget softmax\ntemperature = 9.0\n```\n", 6, ["temperature", "from 0.1 to 5.0"]),
    ("```widget softmax\ntemperature = \"hot\"\n```\n", 6, ["temperature", "a number"]),
    ("```widget softmax\ntempo = 1.0\n```\n", 6, ["no parameter 'tempo'", "temperature"]),
    ("```widget softmax\nlogits = [1.0]\n```\n", 6, ["logits", "2 to 10 numbers"]),
    ("```widget attention\nquery = \"狗\"\n```\n", 6, ["query", "'它'"]),
    ("```widget attention\ncausal = 1\n```\n", 6, ["causal", "true or false"]),
    ("```widget dot-product\na = [1.0, 2.0, 3.0]\n```\n", 6, ["a = ", "2 numbers"]),
    ("```widget softmax\nthis is not toml\n```\n", 6, ["not valid TOML"]),
    ("```widget\n```\n", 5, ["```widget <name>"]),
    ("```widget softmax\nid = \"x\"\n```\n\n```widget softmax\nid = \"x\"\n```\n", 9, ["duplicate widget id 'x'"]),
    ("见[第九节](nine.md)\n", 5, ["broken link", "nine.md"]),
    ("见[上一节](a.md#没有这个标题)\n", 5, ["no heading or widget", "没有这个标题"]),
    ("<script>alert(1)</script>\n", 5, ["raw HTML is not allowed"]),
    ("$$\n\\frac{1}{\n$$\n", 5, ["cannot render the formula"]),
]


@pytest.mark.parametrize("body,line,words", BAD_BLOCKS, ids=[w[0] for _, _, w in BAD_BLOCKS])
def test_bad_input_names_file_and_line_and_keeps_the_site(tmp_path, good_site, body, line, words):
    book = tmp_path / "book"
    shutil.copytree(MINIBOOK, book)
    (book / "b.md").write_text(HEAD + body, encoding="utf-8")  # body starts at line 5
    out = tmp_path / "site"
    shutil.copytree(good_site, out)
    before = tree_digest(out)
    with pytest.raises(BuildError) as err:
        build(book, out, log=quiet)
    message = str(err.value)
    assert Path(err.value.file).name == "b.md" and err.value.line == line, message
    for w in words:
        assert w in message, message
    assert tree_digest(out) == before, "a failed build changed the previous site"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no leftovers


def test_a_literal_dollar_sign_is_written_escaped(tmp_path):
    """A $ that opens no formula stops the build (bad-input cases 150-152); \\$ is a dollar
    sign, and so is one in an address."""
    book = tmp_path / "book"
    shutil.copytree(MINIBOOK, book)
    (book / "b.md").write_text(HEAD + "一杯咖啡 \\$5，见 <https://example.org/$5>。\n",
                               encoding="utf-8")
    build(book, tmp_path / "site", log=quiet)
    page = article((tmp_path / "site" / "b.html").read_text(encoding="utf-8"))
    assert "一杯咖啡 $5，见 <a href=\"https://example.org/$5\">https://example.org/$5</a>" in page


def test_book_toml_errors(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(MINIBOOK, book)
    (book / "book.toml").write_text('title = "x"\n[[parts]]\ntitle = "p"\nchapters = ["a.md", "zz.md"]\n',
                                    encoding="utf-8")
    with pytest.raises(BuildError, match=r"zz.md is listed but .* does not exist") as err:
        build(book, tmp_path / "site", log=quiet)
    assert err.value.line == 4
    (book / "book.toml").write_text('title = "x"\n[[parts]]\ntitle = "p"\nchapters = ["a.md"]\n',
                                    encoding="utf-8")
    with pytest.raises(BuildError, match="b.md is not listed in book.toml"):
        build(book, tmp_path / "site", log=quiet)


def test_invalid_utf8_is_reported_with_its_line(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(MINIBOOK, book)
    (book / "b.md").write_bytes("# 标题\n\n正文\n".encode() + b"\xff\xfe bad\n")
    with pytest.raises(BuildError, match="not valid UTF-8") as err:
        build(book, tmp_path / "site", log=quiet)
    assert err.value.line == 4


def test_command_line_exit_status_and_message(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(MINIBOOK, book)
    (book / "b.md").write_text("# 第二节\n\n```widget softmax\ntemperature = 0\n```\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(HERE.parent / "build.py"), "--book", str(book),
                          "--out", str(tmp_path / "site")], capture_output=True, text=True,
                         cwd=tmp_path)
    assert run.returncode == 1
    assert run.stderr.startswith("error: book/b.md:4: widget softmax: parameter temperature = 0")
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "site").exists()


def test_the_landing_page_numbers_each_chapter_once(good_site):
    """A chapter's title carries its number ("0. 全景"): the landing page's contents list adds
    none of its own (no <ol> with its 1., 2., ... before the titles)."""
    html = (good_site / "index.html").read_text(encoding="utf-8")
    landing = html.split('<article class="chapter landing">', 1)[1].split("</article>", 1)[0]
    assert "<ol" not in landing
    lists = re.findall(r'<ul class="outline">(.*?)</ul>', landing, re.S)
    assert 'href="a.html"' in "".join(lists) and 'href="b.html"' in "".join(lists)
