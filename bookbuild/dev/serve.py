"""The preview server: serves the built site over HTTP on 127.0.0.1 (never all interfaces).

It is hardened against the pages of other sites open in the same browser and against clumsy
clients: it answers only requests addressed to this machine by name (DNS rebinding), serves
only files that really live in site/ (no symlink leads out, no folder is listed), closes idle
connections and requests that arrive too slowly, serves a bounded number of connections at a
time (one thread each), and answers every malformed request with a short plain-text error.
"""
import email.utils
import functools
import gzip
import http.server
import io
import os
import re
import socket
import sys
import threading
import time
from http import HTTPStatus
from pathlib import Path

MIME = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".whl": "application/zip", ".zip": "application/zip", ".json": "application/json",
        ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8"}


SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:"
IMMUTABLE = re.compile(r"^/pyodide/|^/assets/pycore-[0-9a-f]+\.zip(\?|$)|\?v=[0-9a-f]{12}$")

# Names under which a browser reaches this machine's loopback (any port: an SSH tunnel may
# forward another one). A page of evil.example rebound to 127.0.0.1 still sends its own name.
LOCAL_NAMES = {"localhost", "127.0.0.1", "[::1]"}
HOST = re.compile(r"(\[[0-9a-fA-F:.]+\]|[^:\[\]]+)(?::\d+)?")  # name, then an optional :port

# Longer than any file path Linux accepts (PATH_MAX) and than any widget state in a query.
MAX_TARGET = 4096


def host_name(header):
    """The lowercase name of a Host header ('LocalHost:8000' -> 'localhost'), None if malformed."""
    match = HOST.fullmatch(header.strip())
    return match.group(1).lower() if match else None


def nameable(path):
    """False if no file can have this name: the OS refuses NUL bytes and lone surrogates
    (from percent-escapes such as %00 or %ed%b0%80)."""
    if "\0" in path:
        return False
    try:
        os.fsencode(path)
    except UnicodeEncodeError:
        return False
    return True


class RequestReader(io.RawIOBase):
    """A connection's reading end that holds a request to a deadline: once the first byte of a
    request has come, its line and headers must all have come within `deadline` seconds,
    however slowly they drip in (the idle timeout alone restarts at every byte). Otherwise a
    read waits at most the idle timeout, as the socket's own reads do."""

    def __init__(self, sock, idle):
        self.sock, self.idle = sock, idle
        self.deadline = None   # seconds a request may take to arrive, while one is expected
        self.ends = None       # when the expected request's time is up (monotonic clock)

    def readable(self):
        return True

    def expect_request(self, deadline):
        self.deadline, self.ends = deadline, None

    def request_arrived(self):
        self.deadline, self.ends = None, None

    def readinto(self, buffer):
        if self.ends is not None:
            left = self.ends - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the request took more than {self.deadline} s to arrive")
            self.sock.settimeout(left if self.idle is None else min(left, self.idle))
        try:
            n = self.sock.recv_into(buffer)
        finally:
            self.sock.settimeout(self.idle)  # writes keep the idle timeout
        if self.deadline is not None and self.ends is None:
            self.ends = time.monotonic() + self.deadline  # the request's first bytes
        return n


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}
    # A request line without a version is answered with a status line (nobody speaks HTTP/0.9,
    # and a bare body would not read as an error).
    default_request_version = "HTTP/1.0"
    timeout = 30  # seconds a connection may stay silent (before or between requests)
    request_deadline = 10  # seconds from a request's first byte to the end of its headers

    def setup(self):
        super().setup()
        self.rfile = io.BufferedReader(RequestReader(self.connection, self.timeout))

    def handle_one_request(self):
        # a client that drips its request a byte at a time (never idle for `timeout`) is cut
        # off at the deadline: handle_one_request closes the connection on TimeoutError
        self.rfile.raw.expect_request(self.request_deadline)
        super().handle_one_request()

    def parse_request(self):
        """The standard parsing, then the checks that refuse a request before any do_*."""
        try:
            parsed = super().parse_request()  # reads the headers
        finally:
            self.rfile.raw.request_arrived()
        if not parsed:
            return False
        error = self.host_error() or self.target_error()
        if error:
            self.send_error(*error)
            return False
        return True

    def target_error(self):
        """A URL that cannot name a file of the site: refused before the file system sees it
        (there it would raise, and the client would get no answer)."""
        if len(self.path) > MAX_TARGET:
            return HTTPStatus.REQUEST_URI_TOO_LONG, None, f"at most {MAX_TARGET} characters"
        if not nameable(self.translate_path(self.path)):
            return HTTPStatus.BAD_REQUEST, None, "the path holds a character no file name can"
        return None

    def host_error(self):
        """A request addressed to another name: a page of some other site whose name now
        resolves to 127.0.0.1 (DNS rebinding) must not read the book or its event stream."""
        hosts = self.headers.get_all("Host") or []
        if len(hosts) > 1:
            return HTTPStatus.BAD_REQUEST, None, "a request carries a single Host header"
        if not hosts:  # HTTP/1.0 without Host: a browser always sends the page's own name
            return None
        bound = self.server.server_address[0]
        if host_name(hosts[0]) in LOCAL_NAMES | {bound, f"[{bound}]"}:
            return None
        return (HTTPStatus.MISDIRECTED_REQUEST, None,
                "this preview server answers only to localhost, 127.0.0.1 or [::1] "
                "(another name may be a DNS rebinding attack)")

    def send_head(self):
        path = self.translate_path(self.path)
        if not self.inside_site(path):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

    def inside_site(self, path):
        """Whether path, and the index page a folder would serve, resolve inside the served
        folder: a symlink in site/ must not publish a file from elsewhere on the machine."""
        root = Path(self.directory).resolve()
        paths = [path]
        if os.path.isdir(path):
            paths += [os.path.join(path, "index.html"), os.path.join(path, "index.htm")]
        return all(Path(p).resolve().is_relative_to(root) for p in paths)

    def list_directory(self, path):
        """A folder without index.html is not a page: no listing of what the build left."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def send_error(self, code, message=None, explain=None):
        """A short plain-text error. (The standard one is HTML and puts the client's request
        line into its status line.)"""
        phrase, description = self.responses.get(code, ("Error", ""))
        body = f"{code} {phrase}: {explain or message or description}\n".encode("utf-8", "replace")
        self.close_connection = True
        self.send_response(code)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("X-Content-Type-Options", "nosniff")  # never rendered as a page
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_response(self, code, message=None):
        self.status = code
        super().send_response(code, message)

    def end_headers(self):
        # The runtime (pinned by hash), the content-named pycore archive and every ?v=<hash>
        # address never change their bytes: browsers keep them. Everything else, and every
        # error (a host may be fixed a minute later), is revalidated (cheap 304s).
        # (send_error can run before parse_request has set self.path.)
        immutable = getattr(self, "status", 0) == 200 and IMMUTABLE.search(getattr(self, "path", ""))
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if immutable
                         else "no-cache")
        if getattr(self, "path", "").split("?", 1)[0].endswith(".svg"):
            # an image opened on its own is a document: the build refuses script in SVG, and
            # here it could not run anyway
            self.send_header("Content-Security-Policy", SVG_CSP)
        super().end_headers()

    def log_message(self, fmt, *args):  # quiet: the terminal is for build messages
        pass


# What GitHub Pages, Netlify and Cloudflare Pages compress: text, scripts, data, SVG.
COMPRESSIBLE = re.compile(r"^(text/|application/(json|javascript)|image/svg\+xml)")


@functools.lru_cache(maxsize=256)
def gzipped(path, mtime_ns, size):
    """The gzip body of a file (level 6, as static hosts use), kept while the file is unchanged
    (mtime_ns and size are part of the key)."""
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class GzipSiteHandler(SiteHandler):
    """SiteHandler that answers text with Content-Encoding: gzip when the client accepts it, as
    real static hosts do. For measurements of page weight and speed (benchmarks/lighthouse.py):
    the plain preview server sends bytes as they are."""

    def send_head(self):
        path = self.translate_path(self.path)
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if (not accepts or "If-Modified-Since" in self.headers or os.path.isdir(path)
                or self.path.split("?", 1)[0].endswith("/") or not os.path.isfile(path)
                or not self.inside_site(path) or not COMPRESSIBLE.match(self.guess_type(path))):
            return super().send_head()  # folders, errors and revalidations as usual
        st = os.stat(path)
        body = gzipped(path, st.st_mtime_ns, st.st_size)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
        self.end_headers()
        return io.BytesIO(body)


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
    """One thread per connection, at most max_connections at a time: a further connection waits
    up to slot_wait seconds for one to end, and is then closed unanswered. (A browser opens
    about six connections to a host, and each open page of `build.py serve` holds one more for
    its event stream.)"""
    daemon_threads = True
    max_connections = 64
    slot_wait = 1.0

    def __init__(self, *args, **kwargs):
        self.slots = threading.BoundedSemaphore(self.max_connections)
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address):
        if not self.slots.acquire(timeout=self.slot_wait):
            self.shutdown_request(request)  # too many at once: this one is refused
            return
        try:
            super().process_request(request, client_address)  # starts the connection's thread
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request, client_address):
        """A page that navigates away mid-download closes its connection, a client that stops
        reading times out: not errors. Anything else is a bug of the server: traceback."""
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def make_server(site_dir, host="127.0.0.1", port=0, handler=SiteHandler):
    handler = functools.partial(handler, directory=str(site_dir))
    server = SiteServer((host, port), handler)
    return server
