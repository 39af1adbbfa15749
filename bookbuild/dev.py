"""`build.py serve`: build, serve site/ on 127.0.0.1, watch the sources, rebuild and reload.

The preview server injects a small client (devclient.js) into every HTML page it serves; the
client listens on /__dev/events (Server-Sent Events) for "reload" (code or styles changed),
"refresh" (only chapters changed: the page swaps in its new content and keeps its booted
runtime) and "build-error". A failed
rebuild keeps the last good site/ served and shows the error in the page and the terminal.
"""
import os
import queue
import sys
import threading
import time
from pathlib import Path

from watchfiles import watch

from .errors import BuildError
from .pipeline import build
from .serve import SiteHandler, free_port, make_server

ROOT = Path(__file__).resolve().parent.parent
CLIENT = (Path(__file__).with_name("devclient.js")).read_bytes()
INJECT = b'<script type="module" src="/__dev/client.js"></script>\n</head>'

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
            return self._send(404, "text/plain; charset=utf-8",
                              b"no service worker in the preview: every reload shows the latest build")
        path = self.translate_path(self.path)
        if Path(path).is_dir():
            path = str(Path(path) / "index.html")
        if path.endswith(".html") and Path(path).is_file():
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
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        q = self.hub.subscribe()
        try:
            self.wfile.write(b": connected\n\n")
            self.wfile.flush()
            while True:
                try:
                    event, data = q.get(timeout=15)
                except queue.Empty:
                    event, data = None, None  # heartbeat keeps the connection honest
                if event is None:
                    self.wfile.write(b": ping\n\n")
                else:
                    lines = "".join(f"data: {line}\n" for line in (data or "").splitlines() or [""])
                    self.wfile.write(f"event: {event}\n{lines}\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.hub.unsubscribe(q)


def serve_and_watch(book_dir, out_dir, *, port=8000, dist_dir=None, log=print, ready=None):
    """Build once, then serve and rebuild on every change until interrupted."""
    cache, hub = {}, Hub()

    def rebuild(reason, event="reload"):
        start = time.perf_counter()
        try:
            build(book_dir, out_dir, dist_dir=dist_dir, cache=cache, log=lambda *a: None)
        except BuildError as e:
            log(f"error: {e}\n(still serving the last good site)")
            hub.send("build-error", str(e))
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
        for changes in watch(*watched, debounce=20, step=10, rust_timeout=0):
            paths = [Path(p) for _, p in changes  # editors' and our own temporary files
                     if not Path(p).name.startswith(".") and not p.endswith((".pyc", "~", ".tmp"))]
            under = lambda d: any(p.is_relative_to(ROOT / d) for p in paths)  # noqa: E731
            if under("bookbuild") and any(p.suffix == ".py" for p in paths):
                log("the build's own code changed: restarting the preview server")
                server.shutdown()
                server.server_close()
                os.execv(sys.executable, [sys.executable] + sys.argv)
            if under("pycore"):
                forget_pycore()
            if under("pycore") or under("templates"):
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
