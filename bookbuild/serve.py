"""The preview server: serves the built site over HTTP on 127.0.0.1 (never all interfaces)."""
import functools
import http.server
import re
import socket
import sys

MIME = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".whl": "application/zip", ".zip": "application/zip", ".json": "application/json",
        ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8"}


IMMUTABLE = re.compile(r"^/pyodide/|^/assets/pycore-[0-9a-f]+\.zip$")


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}

    def end_headers(self):
        # The runtime (pinned by hash) and the content-named pycore archive never change under
        # their names: browsers keep them. Everything else is revalidated (cheap 304s).
        immutable = IMMUTABLE.match(self.path.split("?", 1)[0])
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if immutable
                         else "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):  # quiet: the terminal is for build messages
        pass


def free_port(host="127.0.0.1", preferred=8000):
    """The preferred port if it is free, else any free port."""
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind((host, port))
                return s.getsockname()[1]
            except OSError:
                continue
    raise OSError("no free port")


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A page that navigates away mid-download closes its connection: not an error."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def make_server(site_dir, host="127.0.0.1", port=0, handler=SiteHandler):
    handler = functools.partial(handler, directory=str(site_dir))
    server = SiteServer((host, port), handler)
    return server
