"""The pages the build writes besides the chapters' and their embed pages: the renderers write
them under these names, and no chapter may take one (bookbuild/stages/load.py refuses it)."""
INDEX = "index.html"
OFFLINE = "offline.html"  # what the service worker shows for a page it lacks while offline
PRINT = "print.html"
EXERCISES = "exercises.html"
GLOSSARY = "glossary.html"
BIBLIOGRAPHY = "bibliography.html"
NOTATION = "notation.html"
EPUB_NAV = "nav.xhtml"  # the EPUB's table of contents, beside the chapters' <slug>.xhtml

# What each is, for the message that refuses a chapter of that name.
BUILD_PAGES = {INDEX: "the book's contents page",
               OFFLINE: "the page shown offline for a missing page",
               PRINT: "the whole book on one page, for printing",
               EXERCISES: "the list of the book's exercises",
               GLOSSARY: "the glossary page",
               BIBLIOGRAPHY: "the bibliography page",
               NOTATION: "the notation page: each symbol, its meaning, its first chapter"}
