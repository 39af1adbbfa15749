"""Every page of the book, visited in Chromium: nothing leaves the origin, nothing errs,
and every widget ends live."""
import hashlib
from pathlib import Path

from tests.browser.conftest import BookPage
from tests.browser.harness import page_names

ROOT = Path(__file__).resolve().parent.parent.parent


def test_every_page_stays_on_its_origin_and_goes_live(book_pages, site):
    pages = page_names(site)
    assert "index.html" in pages and len(pages) >= 4
    for href in pages:
        page = book_pages.open(href)
        assert page.off_origin_requests() == [], f"{href} requested other origins"
        assert page.errors == [], f"{href}: {page.errors}"
        states = page.page.eval_on_selector_all("[data-widget]", "els => els.map(e => e.dataset.state)")
        assert all(s == "live" for s in states), f"{href}: widget states {states}"


def test_runtime_comes_from_the_site(browser, server):
    # a context of its own: what a runtime fetches from its boot on, first for a chapter whose
    # widgets read no data file (book_pages' runtime has served every chapter opened before)
    context = browser.new_context()
    page = BookPage(context, server, "04-attention.html")
    runtime = [u for u in page.requests if "/pyodide/" in u]
    names = {u.rsplit("/", 1)[1] for u in runtime}
    assert {"pyodide.asm.wasm", "python_stdlib.zip"} <= names
    assert any(n.startswith("numpy-2.0.2") for n in names)
    assert any("/assets/pycore-" in u for u in page.requests)
    # data files (the ViT photo) only for pages whose widgets read them (DATA_FILES)
    assert not any("/assets/pycore-data/" in u for u in page.requests)
    vit = BookPage(context, server, "11-vit.html")
    assert vit.page.locator('[data-widget="vit-patches"]').count()
    photo = hashlib.sha256((ROOT / "pycore" / "photo224.rgb").read_bytes()).hexdigest()[:12]
    assert [u.rsplit("/", 2)[1:] for u in vit.requests if "/pycore-data/" in u] == \
        [["pycore-data", f"photo224.rgb?v={photo}"]]  # the address of the version it holds
    context.close()
