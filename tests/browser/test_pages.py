"""Where the runtime comes from: the site itself, and a page's data files only where its widgets
read them. (Every page's own visit, that nothing leaves the origin or errs and every widget
ends live, is test_accessibility.py's: one visit for those and axe.)"""
import hashlib
from pathlib import Path

from tests.browser.conftest import BookPage

ROOT = Path(__file__).resolve().parent.parent.parent


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
