"""The preview servers (serve.py's SiteHandler and GzipSiteHandler, dev.py's DevHandler) against
a hostile or clumsy client: foreign Host headers, symlinks out of site/, directory listings,
idle sockets, malformed requests, and a build that crashes under `build.py serve`. Real servers
on real sockets, started in the test."""
import contextlib
import gzip
import http.client
import queue
import select
import socket
import threading
import time

import pytest

from bookbuild.dev import watch as dev
from bookbuild.dev.watch import DevHandler, Hub
from bookbuild.dev.serve import GzipSiteHandler, SiteHandler, SiteServer, make_server

SECRET = "root:x:0:0 (a file outside site/)"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A small site with symlinks that point inside it and out of it."""
    tmp_path = tmp_path_factory.mktemp("serve")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "passwd").write_text(SECRET)
    (outside / "index.html").write_text(f"<html><head></head>{SECRET}</html>")
    site = tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "empty").mkdir()
    (site / "leak").mkdir()
    (site / "index.html").write_text("<html><head></head>home</html>")
    (site / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    (site / "pyodide").mkdir()
    (site / "pyodide" / "pyodide.mjs").write_text("export {};")
    (site / "a.html").write_text("<html><head></head>chapter a</html>")
    (site / "sub" / "index.html").write_text("<html><head></head>sub index</html>")
    (site / "alias.html").symlink_to(site / "a.html")  # stays inside: still served
    (site / "x.txt").symlink_to(outside / "passwd")
    (site / "x.html").symlink_to(outside / "index.html")
    (site / "elsewhere").symlink_to(outside)
    (site / "leak" / "index.html").symlink_to(outside / "index.html")
    return site


def dev_handler():
    return type("Handler", (DevHandler,), {"hub": Hub()})


HANDLERS = {"site": lambda: SiteHandler, "gzip": lambda: GzipSiteHandler, "dev": dev_handler}


@contextlib.contextmanager
def running(site, handler):
    srv = make_server(site, handler=handler)
    threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True).start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.fixture(scope="module", params=sorted(HANDLERS))
def server(request, site):
    """A running server (either handler) on 127.0.0.1: yields (port, handler class)."""
    handler = HANDLERS[request.param]()
    with running(site, handler) as srv:
        yield srv.server_port, handler


def get(port, path, host=None):
    """(status, Content-Type, body as text) of a GET that, like a browser, accepts gzip."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    headers = {"Accept-Encoding": "gzip, deflate, br"}
    conn.request("GET", path, headers=headers if host is None else {**headers, "Host": host})
    resp = conn.getresponse()
    body = resp.read()
    if resp.getheader("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    conn.close()
    return resp.status, resp.getheader("Content-Type", ""), body.decode("utf-8", "replace")


def raw(port, data, timeout=5):
    """Send raw bytes and read the whole answer (the server closes after an error)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def quiet(capfd):
    """Nothing on the server's stderr (no traceback for a client's mistake)."""
    time.sleep(0.01)  # let the server thread finish writing, if it writes
    assert capfd.readouterr().err == ""


# --- Host header (DNS rebinding) ---------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "localhost.evil.example",
                                  "127.0.0.1.nip.io:{port}", "[::2]:{port}", "", "localhost:x"])
@pytest.mark.parametrize("path", ["/", "/a.html", "/__dev/events"])
def test_foreign_host_is_refused(server, host, path, capfd):
    port, _ = server
    status, ctype, body = get(port, path, host.format(port=port))
    assert status in (400, 421), (host, status)
    assert ctype.startswith("text/plain") and "localhost" in body
    assert "chapter" not in body and "home" not in body
    quiet(capfd)


@pytest.mark.parametrize("host", ["localhost", "localhost:{port}", "LocalHost:{port}", "127.0.0.1",
                                  "127.0.0.1:{port}", "[::1]", "[::1]:{port}", "localhost:9000"])
def test_local_hosts_are_served(server, host):
    port, _ = server
    status, _, body = get(port, "/a.html", host.format(port=port))
    assert (status, "chapter a" in body) == (200, True)


def test_request_without_host_is_served(server):
    port, _ = server
    answer = raw(port, b"GET /a.html HTTP/1.0\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 200") and b"chapter a" in answer


# --- symlinks and directories ------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/x.txt", "/x.html", "/elsewhere/passwd", "/elsewhere/",
                                  "/elsewhere/index.html", "/leak/", "/leak", "/leak/index.html"])
def test_symlink_out_of_site_is_404(server, path, capfd):
    port, _ = server
    status, _, body = get(port, path)
    assert status == 404 and SECRET not in body
    quiet(capfd)


def test_symlink_inside_site_is_served(server):
    port, _ = server
    assert get(port, "/alias.html")[0] == 200


@pytest.mark.parametrize("path", ["/empty/", "/empty/?C=M;O=D", "/empty/%2e/"])
def test_folder_without_index_is_not_listed(server, path):
    port, _ = server
    status, _, body = get(port, path)
    assert status == 404 and "Directory listing" not in body and "href" not in body


@pytest.mark.parametrize("path,text", [("/", "home"), ("/sub/", "sub index")])
def test_folder_with_index_serves_it(server, path, text):
    port, _ = server
    status, _, body = get(port, path)
    assert status == 200 and text in body


# --- compression (GzipSiteHandler, as static hosts compress) -----------------------------------

def fetch_raw(port, path, headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path, headers=headers)
    resp = conn.getresponse()
    answer = resp.status, dict(resp.getheaders()), resp.read()
    conn.close()
    return answer


@pytest.mark.parametrize("path,text", [("/a.html", b"chapter a"), ("/pic.svg", b"<svg"),
                                       ("/pyodide/pyodide.mjs", b"export")])
def test_gzip_handler_compresses_text_for_clients_that_accept_it(site, path, text):
    with running(site, GzipSiteHandler) as srv:
        status, headers, body = fetch_raw(srv.server_port, path, {"Accept-Encoding": "gzip"})
        assert (status, headers["Content-Encoding"], headers["Vary"]) == (200, "gzip",
                                                                          "Accept-Encoding")
        assert int(headers["Content-Length"]) == len(body)
        assert gzip.decompress(body) == (site / path[1:]).read_bytes()
        assert text in gzip.decompress(body)
        if path.endswith(".svg"):  # the headers of the plain answer are kept
            assert headers["Content-Security-Policy"].startswith("default-src 'none'")
        status, headers, body = fetch_raw(srv.server_port, path, {})
        assert status == 200 and "Content-Encoding" not in headers and text in body


def test_gzip_handler_follows_a_changed_file(tmp_path):
    (tmp_path / "p.html").write_text("first")
    with running(tmp_path, GzipSiteHandler) as srv:
        assert gzip.decompress(fetch_raw(srv.server_port, "/p.html",
                                         {"Accept-Encoding": "gzip"})[2]) == b"first"
        (tmp_path / "p.html").write_text("second, longer")
        assert gzip.decompress(fetch_raw(srv.server_port, "/p.html",
                                         {"Accept-Encoding": "gzip"})[2]) == b"second, longer"


# --- idle sockets ------------------------------------------------------------------------------

def test_every_handler_has_an_idle_timeout():
    for handler in (SiteHandler, GzipSiteHandler, DevHandler):
        assert handler.timeout is not None and 0 < handler.timeout <= 60


@pytest.fixture
def short_timeout(monkeypatch):
    """The real timeout is 30 s; the tests wait a fraction of a second."""
    monkeypatch.setattr(SiteHandler, "timeout", 0.3)


def closed_within(s, seconds):
    """True if the server closes the connection (EOF) before `seconds`."""
    s.settimeout(seconds)
    try:
        while s.recv(65536):
            pass
        return True
    except TimeoutError:
        return False


@pytest.mark.parametrize("sends", [b"", b"GET / HTTP/1.1\r\n", b"GET / HTTP/1.1\r\nHost: localhost",
                                   b"GET /a.html HTTP/1.1\r\nHost: localhost\r\n\r\n"])
def test_idle_connection_is_closed(server, short_timeout, sends, capfd):
    port, _ = server
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(sends)  # the last one: a keep-alive connection left idle after its answer
        assert closed_within(s, 3)
    quiet(capfd)


class Events:
    """The reading end of an event stream (/__dev/events) on a raw socket."""

    def __init__(self, port):
        self.sock, self.buffer = socket.create_connection(("127.0.0.1", port)), b""
        self.sock.sendall(b"GET /__dev/events HTTP/1.1\r\nHost: localhost\r\n\r\n")

    def next(self, start, seconds=5):
        """The next whole event (or comment) that starts with `start`; earlier ones are
        skipped."""
        deadline = time.monotonic() + seconds
        while True:
            event, sep, rest = self.buffer.partition(b"\n\n")
            if sep:
                self.buffer = rest
                if start in event:
                    return event.decode()
                continue
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            assert chunk, f"the stream ended before {start!r}"
            self.buffer += chunk


def test_event_stream_outlives_the_timeout_and_ends_with_its_client(site, short_timeout, capfd):
    handler = dev_handler()
    with running(site, handler) as srv:
        events = Events(srv.server_port)
        events.next(b": connected")
        time.sleep(1)  # three idle timeouts: the stream must stay open
        handler.hub.send("reload")
        events.next(b"event: reload")
        events.sock.close()
        deadline = time.monotonic() + 3
        while handler.hub.clients and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not handler.hub.clients, "the stream's thread outlived its client"
    quiet(capfd)


def dripped_until_closed(s, data, every=0.05):
    """Send `data` a byte every `every` seconds; True if the server closed the connection
    (end of file, or a reset: it closed with bytes unread) before the last byte."""
    for byte in data:
        try:
            s.sendall(bytes([byte]))
            readable, _, _ = select.select([s], [], [], every)
            if readable and s.recv(65536) == b"":
                return True
        except ConnectionError:
            return True
    return False


@pytest.mark.parametrize("sends", [b"GET /a.html HTTP/1.1\r\nHost: localhost\r\n" + b"X" * 200,
                                   b"GET /" + b"a" * 200])
def test_a_request_that_drips_in_is_cut_off_at_its_deadline(server, monkeypatch, sends, capfd):
    # never idle for the timeout (a byte every 0.05 s), but the 0.3 s deadline passes long
    # before the 250-odd bytes (about 12 s) are sent
    monkeypatch.setattr(SiteHandler, "timeout", 2)
    monkeypatch.setattr(SiteHandler, "request_deadline", 0.3)
    port, _ = server
    with socket.create_connection(("127.0.0.1", port)) as s:
        assert dripped_until_closed(s, sends), "the server kept reading a request that drips in"
    quiet(capfd)


def test_the_deadline_leaves_keep_alive_and_prompt_requests_alone(server, monkeypatch):
    # the deadline runs from a request's first byte: a connection left idle between requests
    # (shorter than the timeout) and then used again is served
    monkeypatch.setattr(SiteHandler, "request_deadline", 0.2)
    port, _ = server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    for _ in range(2):
        conn.request("GET", "/a.html")
        assert conn.getresponse().read().endswith(b"chapter a</html>")
        time.sleep(0.3)
    conn.close()


def handler_threads():
    return sum(t.name.endswith("(process_request_thread)") for t in threading.enumerate())


@pytest.mark.parametrize("name", sorted(HANDLERS))
def test_many_connections_never_get_more_than_max_connections_threads(site, monkeypatch, name):
    monkeypatch.setattr(SiteServer, "max_connections", 4)
    monkeypatch.setattr(SiteServer, "slot_wait", 0.1)
    before = handler_threads()
    with running(site, HANDLERS[name]()) as srv:
        clients, peak = [], 0
        try:
            for _ in range(12):  # each connects, sends nothing and holds its connection
                clients.append(socket.create_connection(("127.0.0.1", srv.server_port)))
                peak = max(peak, handler_threads() - before)
            for _ in range(20):  # the accept loop handles them all, a slot_wait at most each
                time.sleep(0.1)
                peak = max(peak, handler_threads() - before)
            assert 0 < peak <= 4, f"{peak} handler threads for 12 connections (at most 4)"
            closed = [closed_within(c, 0.01) for c in clients]
            assert closed == [False] * 4 + [True] * 8  # the first 4 are served, the others closed
        finally:
            for c in clients:
                c.close()
        # once they end, their slots serve the next connections
        assert get(srv.server_port, "/a.html")[0] == 200


# --- malformed requests ------------------------------------------------------------------------

HOST = b"\r\nHost: localhost\r\n\r\n"
MALFORMED = {
    "garbage": (b"GARBAGE\r\n\r\n", 400),
    "tls hello": (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),
    "four words": (b"GET / HTTP/1.1 extra" + HOST, 400),
    "bad version": (b"GET / FOO/1.1" + HOST, 400),
    "nul byte": (b"GET /a\x00b.html HTTP/1.1" + HOST, 400),
    "encoded nul": (b"GET /a%00b.html HTTP/1.1" + HOST, 400),
    "lone surrogate": (b"GET /%ed%b0%80.html HTTP/1.1" + HOST, 400),
    "8 kB url": (b"GET /" + b"a" * 8192 + b" HTTP/1.1" + HOST, 414),
    "8 kB query": (b"GET /a.html?" + b"q" * 8192 + b" HTTP/1.1" + HOST, 414),
    # beyond the standard library's own limit (65536), sent whole: no unread bytes, no reset
    "64 kB url": (b"GET /" + b"a" * (65537 - 5), 414),
    "long name": (b"GET /" + b"a" * 300 + b".html HTTP/1.1" + HOST, 404),
    "long dir": (b"GET /" + b"a" * 300 + b"/ HTTP/1.1" + HOST, 404),
    "two hosts": (b"GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n", 400),
    "long header": (b"GET / HTTP/1.1\r\nX: " + b"x" * (65537 - 3), 431),
    "unknown method": (b"BREW /pot HTTP/1.1" + HOST, 501),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_malformed_request_gets_an_answer_and_no_traceback(server, name, capfd):
    port, _ = server
    request, status = MALFORMED[name]
    answer = raw(port, request)
    assert answer.startswith(b"HTTP/1.0 %d " % status), answer[:200]
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"Content-Type: text/plain" in head and body.strip()
    quiet(capfd)


# --- a build that crashes under `build.py serve` -----------------------------------------------

def test_preview_survives_a_crashing_build(tmp_path, monkeypatch, capfd):
    book, out = tmp_path / "book", tmp_path / "site"
    book.mkdir()
    (book / "a.md").write_text("# a\n")
    versions = iter(["first", None, "third"])  # None: the build has a bug

    def fake_build(book_dir, out_dir, **kwargs):
        version = next(versions)
        if version is None:
            return {}["missing key"]  # an exception the build never turned into a BuildError
        out_dir.mkdir(exist_ok=True)
        (out_dir / "index.html").write_text(f"<html><head></head>{version}</html>")

    monkeypatch.setattr(dev, "build", fake_build)
    logs, urls, stop = [], queue.Queue(), threading.Event()
    thread = threading.Thread(target=dev.serve_and_watch, args=(book, out),
                              kwargs={"port": 0, "log": logs.append, "ready": urls.put,
                                      "stop": stop}, daemon=True)
    thread.start()
    port = int(urls.get(timeout=10).rstrip("/").rsplit(":", 1)[1])
    events = Events(port)
    try:
        events.next(b": connected")
        (book / "a.md").write_text("# a, edited\n")
        shown = events.next(b"event: build-error")
        assert "KeyError: 'missing key'" in shown and "test_serve_hardening.py:" in shown
        assert thread.is_alive(), "the crash stopped the preview server"
        assert "first" in get(port, "/")[2], "the last good site is no longer served"
        terminal = "\n".join(logs)
        assert "Traceback" in terminal and "KeyError: 'missing key'" in terminal
        assert "fake_build" in terminal  # the traceback names the faulty function

        (book / "a.md").write_text("# a, fixed\n")
        events.next(b"event: refresh")
        assert "third" in get(port, "/")[2]
    finally:
        events.sock.close()
        stop.set()
        thread.join(5)
    assert not thread.is_alive()
    assert capfd.readouterr().err == ""


def headers(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path)
    resp = conn.getresponse()
    resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders())


def test_an_svg_opened_on_its_own_can_run_no_script(server):
    status, head = headers(server[0], "/pic.svg")
    assert status == 200 and head["Content-Security-Policy"].startswith("default-src 'none'")


def test_only_a_good_answer_is_kept_forever(server):
    """The runtime and ?v=<hash> addresses never change their bytes: kept; an error for them
    (a host mid-deploy) is not, or a browser would keep the failure after the host is fixed."""
    for path in ("/pyodide/pyodide.mjs", "/a.html?v=0123456789ab"):
        status, head = headers(server[0], path)
        assert status == 200 and "immutable" in head["Cache-Control"], path
    status, head = headers(server[0], "/pyodide/pyodide.asm.wasm")
    assert status == 404 and head["Cache-Control"] == "no-cache"
    assert headers(server[0], "/a.html")[1]["Cache-Control"] == "no-cache"


# --- what a change under `build.py serve` makes stale ---------------------------------------

def test_a_widgets_parts_make_stale_what_they_feed():
    widget = dev.ROOT / "pycore" / "widgets" / "softmax"
    assert dev.stale([widget / "__init__.py"]) == {"pycore", "chapters"}
    assert dev.stale([widget / "template.html"]) == {"pycore", "chapters"}
    assert dev.stale([widget / "lesson.py"]) == {"pycore", "chapters"}
    assert dev.stale([widget / "widget.js"]) == dev.stale([widget / "widget.css"]) == set()
    assert dev.stale([dev.ROOT / "templates" / "widgets" / "_marks.html"]) == {"chapters"}
    assert dev.stale([dev.ROOT / "bookbuild" / "widget_parts.py"]) == {"build"}
