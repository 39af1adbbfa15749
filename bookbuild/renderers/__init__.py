"""What the build makes of the compiled book: the site's pages, its assets and search index,
the notebooks and the pycore wheel, the print page, the PDF and the EPUB."""
