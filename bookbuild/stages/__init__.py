"""The stages that turn the chapters into checked HTML: load the book, parse each chapter's
Markdown, and the token rules run over it (math, glossary terms, widget and exercise blocks,
labels and references, the page's ids)."""
