"""Dot product, length and angle: the similarity measure behind attention."""
import numpy as np


def dot(a, b):
    return float(np.dot(a, b))


def norm(a):
    return float(np.linalg.norm(a))


def angle_degrees(a, b):
    """The angle between a and b in degrees; 0 when either vector is zero."""
    na, nb = norm(a), norm(b)
    if na == 0 or nb == 0:
        return 0.0
    cos = np.clip(dot(a, b) / (na * nb), -1.0, 1.0)
    return float(np.degrees(np.arccos(cos)))


def cosine(a, b):
    na, nb = norm(a), norm(b)
    return 0.0 if na == 0 or nb == 0 else dot(a, b) / (na * nb)
