"""Exercises: the reader writes one part of the Transformer in NumPy, pycore checks it.

    from pycore.exercises import check, describe, ids
    feedback = check("softmax", source_text, seed=0)  # a JSON-able dict, never raises

Each exercise (one module per chapter's topic) is plain data, see spec.py; the checker is
checker.py (running the cases), sandbox.py (running the reader's code), compare.py
(finding the first wrong number) and feedback.py (saying it in Chinese).
"""
from .checker import check
from .feedback import FIELDS, TITLES
from .registry import EXERCISES, catalog, describe, get, ids

__all__ = ["check", "describe", "catalog", "get", "ids", "EXERCISES", "FIELDS", "TITLES"]
