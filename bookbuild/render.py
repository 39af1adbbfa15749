"""Stage 4 -- render: tokens -> chapter HTML -> full pages with Jinja2 templates."""
import json
import math
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

# Content Security Policy of every page: only the site's own scripts, styles and WebAssembly.
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'none'")


def num(value, digits=4):
    """The one number format of the book; assets/widgets/common.js fmt() matches it."""
    return f"{value:.{digits}f}"


def make_env():
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["num"] = num
    env.filters["log10"] = math.log10
    env.filters["json"] = lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    env.globals["CSP"] = CSP
    return env


def install_rules(md, jinja):
    """Teach the markdown-it renderer our annotated tokens (widgets, math, dropped comments)."""
    default_fence = md.renderer.rules["fence"]

    def fence(renderer, tokens, idx, options, env):
        w = tokens[idx].meta.get("widget")
        if w is None:  # a code block: focusable, so keyboard users can scroll a wide one
            return default_fence(tokens, idx, options, env).replace("<pre>", '<pre tabindex="0">', 1)
        return render_widget(jinja, w, env.get("root", ""))

    def math(renderer, tokens, idx, options, env):
        return tokens[idx].meta["mathml"] + ("\n" if tokens[idx].block else "")

    def html(renderer, tokens, idx, options, env):
        return ""  # only comments get this far (check_raw_html refuses the rest)

    def heading_close(renderer, tokens, idx, options, env):
        """Each heading ends with a small permalink to itself (#)."""
        opening = next(t for t in reversed(tokens[:idx]) if t.type == "heading_open")
        anchor = opening.attrs.get("id")
        link = (f'<a class="anchor" href="#{escape(anchor)}" aria-label="本节的链接">#</a>'
                if anchor else "")
        return f"{link}</{tokens[idx].tag}>\n"

    md.add_render_rule("fence", fence)
    md.add_render_rule("heading_close", heading_close)
    for name in ("math_inline", "math_inline_double", "math_block"):
        md.add_render_rule(name, math)
    md.add_render_rule("html_block", html)
    md.add_render_rule("html_inline", html)


def render_widget(jinja, w, root=""):
    return jinja.get_template(f"widgets/{w['name']}.html").render(w=w, v=w["view"], root=root)


def render_chapter(md, chapter, tokens, root=""):
    chapter.html = Markup(md.renderer.render(tokens, md.options, {"root": root}))


def render_pages(jinja, book, runtime):
    """Yield (relative path, html) for every page of the site."""
    chapters = book.chapters
    page = jinja.get_template("page.html")
    for i, c in enumerate(chapters):
        yield c.href, page.render(book=book, chapter=c, root="", runtime=runtime,
                                  prev=chapters[i - 1] if i else None,
                                  next=chapters[i + 1] if i + 1 < len(chapters) else None)
    yield "index.html", jinja.get_template("index.html").render(
        book=book, root="", runtime=runtime, chapter=None)
