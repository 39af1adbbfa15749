"""The preview server (`build.py serve`): edits reload the open page, a build error shows as
an overlay with file:line while the last good page stays, and the server serves only site/."""
import http.client
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
MINIBOOK = ROOT / "tests" / "fixtures" / "minibook"


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("preview")
    book = tmp / "book"
    shutil.copytree(MINIBOOK, book)
    proc = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "serve", "--book", str(book),
                             "--out", str(tmp / "site"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp)
    url = None
    for line in proc.stdout:
        if "serving the book at" in line:
            url = line.split(" at ", 1)[1].split()[0]
            break
    assert url and url.startswith("http://127.0.0.1:"), "the preview server did not start"
    yield url, book
    proc.terminate()
    proc.wait(timeout=10)


def test_edit_reloads_and_errors_show_in_the_page(preview, browser):
    url, book = preview
    page = browser.new_page()
    page.goto(url + "b.html")
    page.wait_for_selector("[data-widget][data-state=live]", timeout=60_000)
    chapter = book / "b.md"
    good = chapter.read_text(encoding="utf-8")

    page.evaluate("() => { window.sameDocument = true; }")
    chapter.write_text(good + "\n新加的一段话。\n", encoding="utf-8")
    page.wait_for_selector("text=新加的一段话。", timeout=15_000)
    # only text changed: the page swapped in its new content and kept its booted runtime
    assert page.evaluate("() => window.sameDocument === true")
    page.wait_for_selector("[data-widget][data-state=live]", timeout=5_000)

    chapter.write_text(good + "\n```widget softmax\ntemperature = 99\n```\n", encoding="utf-8")
    overlay = page.wait_for_selector("#build-error", timeout=15_000)
    text = overlay.inner_text()
    assert "b.md:" in text and "temperature" in text and "from 0.1 to 5.0" in text
    assert page.locator("text=新加的一段话。").count() == 1  # the last good page stays

    chapter.write_text(good, encoding="utf-8")
    page.wait_for_selector("text=新加的一段话。", state="detached", timeout=15_000)
    assert page.locator("#build-error").count() == 0
    page.close()


def get(url, path):
    host, port = url.split("//", 1)[1].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request("GET", path)
    resp = conn.getresponse()
    return resp.status, resp.getheader("Content-Type"), resp.read()


@pytest.mark.parametrize("path", ["/../pyproject.toml", "/..%2fpyproject.toml", "/%2e%2e/pyproject.toml",
                                  "/assets/../../pyproject.toml", "/..%5cpyproject.toml",
                                  "//etc/passwd", "/%2e%2e%2f%2e%2e%2fetc/passwd"])
def test_path_traversal_is_refused(preview, path):
    url, _ = preview
    status, _, body = get(url, path)
    assert b"[project]" not in body and b"root:" not in body
    assert status in (301, 400, 403, 404)


@pytest.mark.parametrize("path,mime", [("/pyodide/pyodide.asm.wasm", "application/wasm"),
                                       ("/pyodide/pyodide.mjs", "text/javascript"),
                                       ("/pyodide/numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl", "application/zip"),
                                       ("/pyodide/pyodide-lock.json", "application/json"),
                                       ("/index.html", "text/html")])
def test_mime_types(preview, path, mime):
    url, _ = preview
    status, ctype, _ = get(url, path)
    assert status == 200 and ctype.startswith(mime)


def test_binds_to_loopback_only(preview):
    url, _ = preview
    assert url.startswith("http://127.0.0.1:")
