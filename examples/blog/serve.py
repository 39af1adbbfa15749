"""Serve the example blog post (examples/blog/) as another site would: on its own port, so on
another origin than the book, with {{BOOK_URL}} in its pages replaced by the book's address.

    python3 build.py serve                                   # the book, e.g. on port 8000
    python3 examples/blog/serve.py http://127.0.0.1:8000/    # the blog, on another port

Open the printed address: the post embeds one widget and one chapter of the running book.
tests/browser/test_embed.py uses make_blog_server() the same way.
"""
import argparse
import functools
import http.server
import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLACEHOLDER = "{{BOOK_URL}}"


class BlogHandler(http.server.SimpleHTTPRequestHandler):
    book_url = ""

    def send_head(self):
        """HTML pages go out with the placeholder replaced; other files as they are."""
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        body = path.read_text(encoding="utf-8").replace(PLACEHOLDER, self.book_url).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, fmt, *args):
        pass


def make_blog_server(book_url, host="127.0.0.1", port=0, folder=HERE):
    """An HTTP server of `folder` (not started) whose pages point at the book at book_url."""
    if not book_url.endswith("/"):
        book_url += "/"
    handler = type("Handler", (BlogHandler,), {"book_url": book_url})
    server = http.server.ThreadingHTTPServer((host, port),
                                             functools.partial(handler, directory=str(folder)))
    server.daemon_threads = True
    return server


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("book_url", help="where the book is served, e.g. http://127.0.0.1:8000/")
    parser.add_argument("--port", type=int, default=8100)
    args = parser.parse_args(argv)
    server = make_blog_server(args.book_url, port=args.port)
    print(f"the example blog: http://localhost:{server.server_port}/ (Ctrl+C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
