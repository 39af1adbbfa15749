"""`build.py serve`: build, serve site/ on 127.0.0.1, watch the sources, rebuild and reload.

The preview server injects a small client (devclient.js) into every HTML page it serves; the
client listens on /__dev/events (Server-Sent Events) for "reload" (code or styles changed),
"refresh" (only chapters changed: the page swaps in its new content and keeps its booted
runtime) and "build-error". A failed rebuild (an error in the book, or a crash of the build
itself) keeps the last good site/ served and shows the error in the page and the terminal.
"""
import os
import queue
import select
import socket
import sys
import threading
import time
import traceback
from pathlib import Path

from watchfiles import watch

from .. import widget_parts
from ..errors import BuildError
from ..pipeline import build
from .serve import SiteHandler, free_port, make_server

ROOT = Path(__file__).resolve().parents[2]
CLIENT = (Path(__file__).with_name("devclient.js")).read_bytes()
INJECT = b'<script type="module" src="/__dev/client.js"></script>\n</head>'

def stale(paths):
    """What the changed files make stale: "build" (the build's own code: restart the server),
    "pycore" (the imported views) and "chapters" (compiled chapters hold views and markup).
    A widget's script and styles (in its folder, pycore/widgets/<module>/) are the page's
    only: copied by the next build, they make nothing stale."""
    code = [p for p in paths if not widget_parts.front_end(p)]
    under = lambda d: any(p.is_relative_to(ROOT / d) for p in code)  # noqa: E731
    found = set()
    if under("bookbuild") and any(p.suffix == ".py" for p in code):
        found.add("build")
    if under("pycore"):
        found.add("pycore")
    if under("pycore") or under("templates"):
        found.add("chapters")
    return found


def forget_pycore():
    """Drop pycore from sys.modules so the next build imports the edited source."""
    for name in [m for m in sys.modules if m == "pycore" or m.startswith("pycore.")]:
        del sys.modules[name]


class Hub:
    """Fan-out of build events to every open page."""

    def __init__(self):
        self.clients, self.lock, self.last_error = set(), threading.Lock(), None

    def subscribe(self):
        q = queue.Queue()
        with self.lock:
            self.clients.add(q)
        if self.last_error:
            q.put(("build-error", self.last_error))
        return q

    def unsubscribe(self, q):
        with self.lock:
            self.clients.discard(q)

    def send(self, event, data=""):
        self.last_error = data if event == "build-error" else None
        with self.lock:
            for q in self.clients:
                q.put((event, data))


class DevHandler(SiteHandler):
    hub: Hub = None

    def do_GET(self):
        if self.path == "/__dev/client.js":
            return self._send(200, "text/javascript", CLIENT)
        if self.path == "/__dev/events":
            return self._events()
        if self.path.split("?")[0] == "/sw.js":  # a preview is never served from a cache
            return self._send(404, "text/plain; charset=utf-8", b"no service worker in the "
                              b"preview: every reload shows the latest build")
        path = self.translate_path(self.path)
        if os.path.isdir(path):  # os.path: a name too long to stat is simply not a folder
            path = os.path.join(path, "index.html")
        if path.endswith(".html") and os.path.isfile(path) and self.inside_site(path):
            html = Path(path).read_bytes().replace(b"</head>", INJECT, 1)
            return self._send(200, "text/html; charset=utf-8", html)
        return super().do_GET()

    def _send(self, status, ctype, body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _events(self):
        """The page's event stream: open as long as the page is, whatever the idle timeout
        (the server never waits to read from it, and it writes at least every HEARTBEAT s)."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.close_connection = True  # the stream has no length: it ends with its connection
        q = self.hub.subscribe()
        try:
            self.wfile.write(b": connected\n\n")
            quiet_since = time.monotonic()
            while not client_gone(self.connection):
                try:
                    self.wfile.write(sse(*q.get(timeout=1)))
                except queue.Empty:
                    if time.monotonic() - quiet_since < HEARTBEAT:
                        continue
                    self.wfile.write(b": ping\n\n")  # shows a dead peer that sent no FIN
                quiet_since = time.monotonic()
        except OSError:  # the page went away mid-write, or stopped reading for `timeout` s
            pass
        finally:
            self.hub.unsubscribe(q)


HEARTBEAT = 15  # seconds between pings of a quiet event stream


def sse(event, data):
    """One Server-Sent Event; each line of data is its own data: field."""
    lines = "".join(f"data: {line}\n" for line in (data or "").splitlines() or [""])
    return f"event: {event}\n{lines}\n".encode()


def client_gone(sock):
    """Whether the page closed its event stream. It never sends after its request, so a
    readable socket means end of file (or an error): the thread can stop at once instead of
    at its next write."""
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def crash_summary(error):
    """What the page shows of a crashed build: where it was raised and what, as file:line."""
    frame = traceback.extract_tb(error.__traceback__)[-1]
    return (f"{frame.filename}:{frame.lineno}: {type(error).__name__}: {error}\n"
            "the build crashed (a bug of the build): the traceback is in the terminal")


def serve_and_watch(book_dir, out_dir, *, port=8000, dist_dir=None, log=print, ready=None,
                    stop=None):
    """Build once, then serve and rebuild on every change until interrupted (or until the
    threading.Event `stop` is set)."""
    cache, hub = {}, Hub()

    def rebuild(reason, event="reload"):
        start = time.perf_counter()
        try:
            build(book_dir, out_dir, dist_dir=dist_dir, cache=cache, log=lambda *a: None)
        except BuildError as e:
            log(f"error: {e}\n(still serving the last good site)")
            hub.send("build-error", str(e))
            return
        except Exception as e:  # a bug of the build: the preview keeps serving, and says so
            log(f"error: the build crashed (a bug of the build, not of the book):\n"
                f"{traceback.format_exc()}(still serving the last good site)")
            hub.send("build-error", crash_summary(e))
            return
        log(f"rebuilt ({reason}) in {1000 * (time.perf_counter() - start):.0f} ms")
        hub.send(event)

    rebuild("start")
    handler = type("Handler", (DevHandler,), {"hub": hub, "directory": str(out_dir)})
    server = make_server(out_dir, port=free_port(preferred=port), handler=handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/"
    log(f"serving the book at {url}  (watching for changes; Ctrl-C to stop)")
    if ready:
        ready(url)
    watched = [Path(book_dir)] + [ROOT / d for d in ("pycore", "templates", "assets", "bookbuild")]
    try:
        for changes in watch(*watched, debounce=20, step=10, rust_timeout=0, stop_event=stop):
            paths = [Path(p) for _, p in changes  # editors' and our own temporary files
                     if not Path(p).name.startswith(".") and not p.endswith((".pyc", "~", ".tmp"))]
            made_stale = stale(paths)
            if "build" in made_stale:
                log("the build's own code changed: restarting the preview server")
                server.shutdown()
                server.server_close()
                os.execv(sys.executable, [sys.executable] + sys.argv)
            if "pycore" in made_stale:
                forget_pycore()
            if "chapters" in made_stale:
                cache.clear()  # compiled chapters hold views and markup of the old code
            if paths:
                # only chapters changed: open pages swap in the new text and keep their runtime
                text_only = all(p.is_relative_to(Path(book_dir).resolve()) for p in paths)
                rebuild(", ".join(sorted({p.name for p in paths})[:3]),
                        "refresh" if text_only else "reload")
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
