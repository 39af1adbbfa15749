"""Stage 1 -- load: book/book.toml and the chapter files, in book order."""
import codecs
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import BuildError, short, toml_error
from ..pagenames import BUILD_PAGES, EPUB_NAV


@dataclass
class Chapter:
    path: Path            # book/04-attention.md
    rel: str              # "04-attention.md", as written in book.toml and in links
    source: str
    part: str
    slug: str = ""        # "04-attention" -> 04-attention.html
    title: str = ""       # filled by the parse stage (first "# " heading)
    html: str = ""        # filled by the render stage
    widgets: list = field(default_factory=list)
    exercises: list = field(default_factory=list)  # bookbuild/stages/exercises.py
    headings: list = field(default_factory=list)  # (level, text, anchor)
    outline: list = field(default_factory=list)   # (level, plain text, anchor): 本节目录
    description: str = ""  # its first paragraph, as plain text: the page's meta description
    labels: dict = field(default_factory=dict)    # bookbuild/stages/xref.py collect_labels
    figures: dict = field(default_factory=dict)
    refs: list = field(default_factory=list)
    ids: dict = field(default_factory=dict)       # bookbuild/stages/pageids.py collect

    @property
    def href(self):
        return self.slug + ".html"


@dataclass
class Book:
    root: Path
    title: str
    parts: list           # [(part title, [Chapter, ...])]
    description: str = ""  # book.toml's description: the landing page's meta description
    base_url: str = ""     # where the book is published (sitemap, canonical, Open Graph)
    edit_url: str = ""     # "https://…/edit/main/book/{file}": each chapter's edit link
    bibliography: dict = field(default_factory=dict)  # bookbuild/stages/bib.py, once resolved
    glossary: list = field(default_factory=list)      # bookbuild/stages/glossary.py
    notation: list = field(default_factory=list)      # the notation page's rows (renderers/pages.py)
    downloads: dict = field(default_factory=dict)     # {"pdf": file name, "epub": ...} made

    @property
    def chapters(self):
        return [c for _, chapters in self.parts for c in chapters]


def _line_of(text, needle, nth=1):
    """The line of the nth occurrence of needle (1-based), or None."""
    for n, line in enumerate(text.split("\n"), 1):
        nth -= line.count(needle)
        if nth <= 0:
            return n
    return None


def read_text(path, shown):
    """The file as text: UTF-8, a leading byte-order mark dropped (some editors write one)."""
    data = path.read_bytes()
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[bom:].decode("utf-8")
    except UnicodeDecodeError as e:
        at = bom + e.start
        line = data[:at].count(b"\n") + 1
        raise BuildError(f"not valid UTF-8 (byte {at}); save the file as UTF-8", shown, line)


def _check_name(name, shown, line):
    """Chapter names are plain Markdown file names in book/ (they become page names and
    addresses, so only letters, digits, '-', '_' and '.': '#', '?' or '%' would break links)."""
    if not isinstance(name, str):
        raise BuildError('chapters are listed by file name in quotes ("NN-name.md"), got '
                         f"{short(name)}", shown, line)
    if not name.endswith(".md") or "/" in name or "\\" in name or name.startswith("."):
        raise BuildError(f"chapter {short(name)} must be a file name in book/ ending in .md, "
                         'like "04-attention.md" (no folders)', shown, line)
    odd = sorted({c for c in name if not (c.isalnum() or c in "-_.")})
    if odd:
        raise BuildError(f"chapter {short(name)}: a chapter's file name becomes its page's address, "
                         f"so it may hold only letters, digits, '-', '_' and '.', not "
                         f"{' '.join(repr(c) for c in odd)}; rename the file", shown, line)
    page = Path(name).stem + ".html"
    if page in BUILD_PAGES:
        raise BuildError(f"a chapter cannot be called {name}: {page} is {BUILD_PAGES[page]}; "
                         "choose another name", shown, line)
    if Path(name).stem + ".xhtml" == EPUB_NAV:
        raise BuildError(f"a chapter cannot be called {name}: {EPUB_NAV} is the table of contents "
                         "of the book's EPUB; choose another name", shown, line)


def _check_inside(path, root, shown, line):
    """A chapter that is a symbolic link must stay inside book/: the build publishes what it
    reads, and nothing outside the book."""
    real = path.resolve()
    if not real.is_relative_to(root.resolve()):
        raise BuildError(f"chapter {path.name} is a link to {real}, outside book/: the book "
                         "publishes only its own files; copy the chapter into book/", shown, line)


def load_book(root):
    root = Path(root)
    toml_path = root / "book.toml"
    shown = str(toml_path)
    if not toml_path.is_file():
        raise BuildError("missing book.toml: it lists the parts and chapters in book order", shown)
    text = read_text(toml_path, shown)
    try:
        conf = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        what, line = toml_error(e)
        raise BuildError(f"invalid TOML ({what})", shown, line)
    except RecursionError:
        raise BuildError("invalid TOML (lists nested too deeply)", shown)
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise BuildError(f"invalid TOML ({e})", shown)
    parts_conf = conf.get("parts")
    if not isinstance(conf.get("title"), str) or not isinstance(parts_conf, list) or not parts_conf:
        raise BuildError('book.toml needs title = "..." and at least one [[parts]] table', shown)
    parts, seen = [], set()
    for part in parts_conf:
        if not isinstance(part, dict):
            raise BuildError('parts are tables: write [[parts]], then title = "..." and '
                             'chapters = ["NN-name.md", ...] on their own lines', shown)
        title, names = part.get("title"), part.get("chapters")
        if not isinstance(title, str) or not isinstance(names, list):
            raise BuildError('each [[parts]] needs title = "..." and chapters = ["NN-name.md", ...]',
                             shown)
        chapters = []
        for name in names:
            line = _line_of(text, f'"{name}"', nth=2 if name in seen else 1)
            _check_name(name, shown, line)
            if name in seen:
                raise BuildError(f"chapter {name} is listed twice", shown, line)
            seen.add(name)
            path = root / name
            if not path.is_file():
                raise BuildError(f"chapter {name} is listed but {path} does not exist", shown, line)
            _check_inside(path, root, shown, line)
            chapters.append(Chapter(path=path, rel=name, source=read_text(path, str(path)),
                                    part=title, slug=Path(name).stem))
        parts.append((title, chapters))
    if not seen:
        raise BuildError('the book has no chapters: list at least one in a part\'s '
                         'chapters = ["NN-name.md", ...]', shown)
    for stray in sorted(p.name for p in root.glob("*.md")):
        if stray not in seen:
            raise BuildError(f"{stray} is not listed in book.toml; add it to a part's chapters "
                             "(or move it out of book/)", shown)
    description = conf.get("description", "")
    if not isinstance(description, str):
        raise BuildError('description must be a string: description = "..."', shown,
                         _line_of(text, "description"))
    base_url, edit_url = _url(conf, "base_url", text, shown), _url(conf, "edit_url", text, shown)
    if base_url and not base_url.endswith("/"):
        raise BuildError(f"base_url {base_url!r} must end with '/': it is the address the "
                         "book's pages sit under", shown, _line_of(text, "base_url"))
    if edit_url and "{file}" not in edit_url:
        raise BuildError("edit_url must hold {file}, the chapter's file name, e.g. "
                         '"https://github.com/me/book/edit/main/book/{file}"', shown,
                         _line_of(text, "edit_url"))
    return Book(root=root, title=conf["title"], parts=parts, description=description,
                base_url=base_url, edit_url=edit_url)


# The characters of a plain address: base_url reaches a shell (the notebooks' `%pip install`
# cell), so nothing a shell or IPython reads specially ($ ( ) ; & | ` ' " { } * ! and spaces);
# edit_url, only ever a link on a page, may carry {file} and a query (?mode=edit).
URL_CHARS = re.compile(r"^[A-Za-z0-9._~:/%+@-]+$")
QUERY_CHARS = re.compile(r"^[A-Za-z0-9._~:/%+@=&-]*$")


def _url(conf, key, text, shown):
    """An optional plain absolute http(s) address of book.toml ("" when absent)."""
    value = conf.get(key, "")
    if not value:
        return ""
    line = _line_of(text, key)
    if not isinstance(value, str):
        raise BuildError(f"{key} must be an http(s) address in quotes, got {short(value)}", shown,
                         line)
    path, _, query = value.replace("{file}", "", 1).partition("?") if key == "edit_url" \
        else (value, "", "")
    odd = sorted({c for c in path if not URL_CHARS.match(c)} |
                 {c for c in query if not QUERY_CHARS.match(c)})
    parts = urlsplit(value)
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    why = (f"it holds {' '.join(repr(c) for c in odd)}: write such characters as %XX (in a "
           "host name, as xn--...)" if odd else
           "it must start with http:// or https://" if parts.scheme not in ("http", "https") else
           "it has no host name" if not parts.hostname else
           "it names a user or password: leave them out" if "@" in parts.netloc else
           "its port is not a number from 1 to 65535" if not port_ok else "")
    if why:
        raise BuildError(f'{key} must be an http(s) address such as "https://me.example/book/", '
                         f"got {short(value)}: {why}", shown, line)
    return value
