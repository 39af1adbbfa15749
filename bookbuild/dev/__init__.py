"""The preview: a hardened static server for site/, and `build.py serve`'s watch-and-reload."""
