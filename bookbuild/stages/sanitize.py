"""Nothing the book publishes may run script or load anything from elsewhere.

Two inputs reach readers as markup the book did not write itself:

- formulas: latex2mathml copies the text of \\text{...}, \\href{...} and \\style{...} into its
  MathML as it is, so `$\\text{<iframe ...>}$` would put an iframe on the page.
  `clean_mathml` parses its output and writes it again from an allow-list of MathML elements
  and attributes; anything else stops the build (the author meant TeX, not markup).
- images: an SVG file is a document of its own (a reader can open it, with no page and no
  Content-Security-Policy around it), so `check_image` refuses SVG that holds script, event
  attributes, processing instructions (<?xml-stylesheet?>), elements of other vocabularies
  than SVG and editors' metadata (HTML, XSLT), CSS escapes or references to other sites; other
  images must be what their name says (a .png that is really HTML is refused).

Addresses are tested as a browser reads them (`as_browser_reads`): "java<tab>script:" is
javascript: to it, and "/\\host" another site.

Each check raises ValueError saying what is wrong; the build turns it into file:line.
"""
import html
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
MATHML_ELEMENTS = frozenset(
    "math mrow mi mn mo ms mtext mspace msup msub msubsup mfrac msqrt mroot mover munder "
    "munderover mtable mtr mtd mlabeledtr mstyle mpadded mphantom menclose merror "
    "mmultiscripts mprescripts none semantics annotation".split())
MATHML_ATTRIBUTES = frozenset(
    "xmlns display displaystyle scriptlevel mathvariant mathsize mathcolor mathbackground "
    "stretchy fence separator form largeop movablelimits accent accentunder symmetric "
    "lspace rspace minsize maxsize width height depth voffset linethickness linebreak "
    "notation columnalign columnspacing columnlines rowalign rowspacing rowlines frame "
    "columnspan rowspan bevelled numalign denomalign encoding open close separators "
    "href".split())
SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.I)
# What a browser leaves out of an address before it reads it: the URL standard drops tabs and
# newlines anywhere (URL_DROPPED) and controls and spaces at the ends (URL_ENDS), so
# "java<tab>script:" and " JaVaScRiPt:" are javascript: links. A test of a scheme drops more
# (URL_IGNORED: every control and space, anywhere), which only makes it stricter.
URL_DROPPED = re.compile(r"[\t\n\r]")
URL_ENDS = "".join(map(chr, range(0x21)))
URL_IGNORED = re.compile(r"[\x00-\x20\x7f]")


def as_browser_reads(href):
    """The address as a browser parses it: tabs, newlines, controls and spaces gone (more than
    the standard drops, which only makes a test stricter), and '\\' read as '/' as it is in
    http(s) addresses ("/\\host" is "//host", another site)."""
    return URL_IGNORED.sub("", href).replace("\\", "/")


def safe_link(href):
    """A link a formula may carry: http(s), or a relative address inside the book."""
    href = as_browser_reads(href)
    m = SCHEME.match(href)
    if m:
        return m.group(1).lower() in ("http", "https")
    return not href.startswith("//")


WEB_ADDRESS = re.compile(r"^https?://[^\s/?#\\\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$", re.I)


def web_address(url):
    """url as a browser reads it (what the standard drops, dropped), if that is an absolute
    http(s) address with no other control or space in it; else None. The cleaned address is
    the one published, so the link is the one tested."""
    cleaned = URL_DROPPED.sub("", url).strip(URL_ENDS)
    return cleaned if WEB_ADDRESS.match(cleaned) else None


class _MathWriter(HTMLParser):
    """Re-serialises MathML from what the parser saw, element by element, so that the page
    holds exactly the allowed markup (text and attribute values escaped again)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.open = [], []

    def _tag(self, tag, attrs, close):
        if tag not in MATHML_ELEMENTS:
            raise ValueError(f"the formula holds the markup <{tag}>: formulas are TeX only "
                             "(write \\lt and \\gt for < and >, or move that text out of $...$)")
        parts = [tag]
        for name, value in attrs:
            value = value or ""
            if name not in MATHML_ATTRIBUTES:
                raise ValueError(f"the formula's MathML has the attribute {name}= on <{tag}>, "
                                 "which the book does not publish (e.g. \\style or \\class: "
                                 "leave them out)")
            if name == "xmlns" and value != MATHML_NS:
                raise ValueError(f"the formula's MathML declares the namespace {value[:60]!r}")
            if name == "href" and not safe_link(value):
                raise ValueError(f"\\href{{{value[:60]}}}: a formula may link only to http(s) "
                                 "addresses or to pages of the book")
            parts.append(f'{name}="{html.escape(value, quote=True)}"')
        self.out.append("<" + " ".join(parts) + (" />" if close else ">"))

    def handle_starttag(self, tag, attrs):
        self._tag(tag, attrs, close=False)
        self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._tag(tag, attrs, close=True)

    def handle_endtag(self, tag):
        if not self.open or self.open[-1] != tag:
            raise ValueError(f"the formula's text holds markup (</{tag}>): formulas are TeX "
                             "only (write \\lt and \\gt for < and >)")
        self.open.pop()
        self.out.append(f"</{tag}>")

    def handle_data(self, data):
        self.out.append(html.escape(data, quote=False))

    def _refuse(self, *_):
        raise ValueError("the formula's text holds markup (a comment or a declaration): "
                         "formulas are TeX only")

    handle_comment = handle_decl = handle_pi = unknown_decl = _refuse


def clean_mathml(mathml):
    """latex2mathml's output -> the same MathML from the allow-list; ValueError otherwise."""
    writer = _MathWriter()
    writer.feed(mathml)
    writer.close()
    if writer.open:
        raise ValueError(f"the formula's text holds markup (<{writer.open[-1]}> is never "
                         "closed): formulas are TeX only (write \\lt and \\gt for < and >)")
    return "".join(writer.out)


# ---------------------------------------------------------------- images

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XHTML_NS = "http://www.w3.org/1999/xhtml"
XSL_NS = "http://www.w3.org/1999/XSL/Transform"
# Elements an SVG may hold besides SVG's own: the metadata drawing programs write (Inkscape's
# page settings, the licence as RDF). Browsers show nothing of them and run nothing in them;
# any other vocabulary (HTML, XSLT, MathML, one of its own) is refused.
METADATA_NS = {
    "http://www.inkscape.org/namespaces/inkscape": "Inkscape",
    "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd": "Sodipodi",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "RDF",
    "http://purl.org/dc/elements/1.1/": "Dublin Core",
    "http://purl.org/dc/terms/": "Dublin Core",
    "http://creativecommons.org/ns#": "Creative Commons",
    "http://web.resource.org/cc/": "Creative Commons",
}
SVG_REFUSED = {"script": "a <script>", "foreignobject": "a <foreignObject> (HTML inside SVG)",
               "handler": "a <handler> (script)", "listener": "a <listener> (script)",
               "iframe": "an <iframe>", "embed": "an <embed>", "object": "an <object>"}
SVG_ANIMATIONS = {"animate", "set", "animatemotion", "animatetransform", "animatecolor"}
# The addresses in CSS: url(...) quoted or not, and every quoted string (image-set("...") and
# @import "..." take strings as addresses; a font's name in quotes passes as a relative one).
CSS_ADDRESS = re.compile(r"url\(\s*(?:\"([^\"]*)\"|'([^']*)'|([^)]*))|\"([^\"]*)\"|'([^']*)'",
                         re.I)
SAFE_DATA = re.compile(r"^data:image/(png|jpeg|gif|webp);", re.I)
SIGNATURES = {
    ".png": (lambda b: b.startswith(b"\x89PNG\r\n\x1a\n"), "PNG"),
    ".jpg": (lambda b: b.startswith(b"\xff\xd8\xff"), "JPEG"),
    ".jpeg": (lambda b: b.startswith(b"\xff\xd8\xff"), "JPEG"),
    ".gif": (lambda b: b[:6] in (b"GIF87a", b"GIF89a"), "GIF"),
    ".webp": (lambda b: b[:4] == b"RIFF" and b[8:12] == b"WEBP", "WebP"),
    ".avif": (lambda b: b[4:8] == b"ftyp" and b[8:12] in (b"avif", b"avis"), "AVIF"),
}


def _local(name):
    """'{namespace}name' -> ('namespace', 'name' lowercased)."""
    ns, _, local = name[1:].partition("}") if name.startswith("{") else ("", "", name)
    return ns, local.lower()


def _reference_ok(value):
    """A reference an SVG may hold: to itself (#id), a file beside it, or an inline raster."""
    value = as_browser_reads(value)
    if value.startswith("#") or SAFE_DATA.match(value):
        return True
    return not SCHEME.match(value) and not value.startswith("/")


def _check_css(css, where):
    if "\\" in css:  # an escape spells anything: @\69mport, url("h\74tp://...")
        raise ValueError(f"{where} has a backslash in its CSS (an escape such as \\69, which "
                         "can hide @import or an address): write the characters themselves")
    if re.search(r"@import|expression\s*\(|javascript:", URL_IGNORED.sub("", css), re.I):
        raise ValueError(f"{where} has CSS that imports or runs code (@import, expression(), "
                         "javascript:)")
    for groups in CSS_ADDRESS.findall(css):
        ref = "".join(groups).strip()
        if ref and not _reference_ok(ref):
            raise ValueError(f"{where} refers to {ref[:60]!r}: an SVG of the book may refer "
                             "only to itself (#id) or to files beside it")


def _svg_root(data):
    """The parsed SVG's root element. ElementTree drops processing instructions without a word,
    so the parser reports them here: <?xml-stylesheet?> makes a browser load a stylesheet or run
    an XSLT program (which can write a <script>) when the file is opened."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\0" in data:
        raise ValueError("the SVG is not saved as UTF-8 (UTF-16 or UTF-32): save it as UTF-8")
    if re.search(rb"<!\s*(doctype|entity)", data, re.I):
        raise ValueError("the SVG has a <!DOCTYPE> or <!ENTITY>: remove it (entities can hide "
                         "markup, and SVG needs no DOCTYPE)")
    parser = ET.XMLPullParser(events=("start", "pi"))
    try:
        parser.feed(data)
        parser.close()
    except ET.ParseError as e:
        raise ValueError(f"not a well-formed SVG file ({e})") from None
    root = None
    for event, item in parser.read_events():
        if event == "pi":
            raise ValueError(f"the SVG has the processing instruction <?{item.text[:60]}?>: "
                             "remove it (<?xml-stylesheet?> loads a stylesheet or runs an XSLT "
                             "program when the file is opened)")
        root = item if root is None else root
    return root


def _check_element(ns, tag):
    if ns in (SVG_NS, *METADATA_NS) and tag not in SVG_REFUSED:
        return
    if ns in (SVG_NS, *METADATA_NS):
        what = SVG_REFUSED[tag]
    elif ns == XSL_NS:
        what = f"the XSLT element <{tag}> (XSLT can write a <script> into the drawing)"
    elif ns == XHTML_NS:
        what = f"the HTML element <{tag}>"
    else:
        editors = ", ".join(sorted(set(METADATA_NS.values())))
        raise ValueError(f"the SVG holds <{tag}> of the vocabulary {ns[:60] or '(none)'!r}: an "
                         f"SVG of the book holds only SVG and editors' metadata ({editors}); "
                         "remove it, or save the drawing as plain SVG")
    raise ValueError(f"the SVG holds {what}, which could run script when the file is opened: "
                     "remove it")


def check_svg(data):
    """Refuse SVG that could run script or fetch from another site when opened on its own."""
    root = _svg_root(data)
    if _local(root.tag) != (SVG_NS, "svg"):
        raise ValueError("not an SVG file: its root element is not <svg> in the SVG namespace")
    for el in root.iter():
        ns, tag = _local(el.tag)
        _check_element(ns, tag)
        if tag == "style":  # all its text: CSS after a child element counts too
            _check_css("".join(el.itertext()), "its <style>")
        for name, value in el.attrib.items():
            ans, attr = _local(name)
            if attr.startswith("on"):
                raise ValueError(f"the SVG's <{tag}> has the event attribute {attr}=, which runs "
                                 "script: remove it")
            if ans == XML_NS and attr not in ("space", "lang"):
                raise ValueError(f"the SVG's <{tag}> has xml:{attr}=: remove it")
            if attr == "href" and not _reference_ok(value):
                raise ValueError(f"the SVG's <{tag}> links to {value[:60]!r}: an SVG of the book "
                                 "may refer only to itself (#id) or to files beside it")
            if tag in SVG_ANIMATIONS and attr == "attributename" and \
                    (value.lower().endswith("href") or value.lower().startswith("on")):
                raise ValueError(f"the SVG's <{tag}> animates {value}=, which can run script")
            # style=, and presentation attributes that are CSS too (fill="url(...)"): any
            # function, since an escape can spell its name (fill="\75rl(...)")
            if attr == "style" or (not ans and attr != "href" and "(" in value):
                _check_css(value, f"the SVG's <{tag}>")
            if "javascript:" in URL_IGNORED.sub("", value).lower():
                raise ValueError(f"the SVG's <{tag}> has javascript: in {attr}=: remove it")


def check_image(path, data):
    """The image's bytes are what its suffix says, and an SVG cannot run script."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        check_svg(data)
        return
    test, kind = SIGNATURES[suffix]
    if not test(data):
        raise ValueError(f"the file is not a {kind} image (its first bytes say otherwise); save "
                         f"it as {kind}, or give it the suffix of what it is")
