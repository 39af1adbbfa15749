"""Widget dot-product: two 2-D arrows, their dot product, lengths and angle."""
from .. import vectors

PARAMS = {
    "a": {"type": "vector", "length": 2, "min": -4.0, "max": 4.0, "default": [3.0, 1.0],
          "help": "first arrow [x, y]"},
    "b": {"type": "vector", "length": 2, "min": -4.0, "max": 4.0, "default": [1.0, 2.0],
          "help": "second arrow [x, y]"},
}


def view(a, b):
    dot, na, nb = vectors.dot(a, b), vectors.norm(a), vectors.norm(b)
    cos = vectors.cosine(a, b)
    return {
        "a": list(a), "b": list(b),
        "dot": dot, "norm_a": na, "norm_b": nb, "cos": cos,
        "angle": vectors.angle_degrees(a, b),
        "product": na * nb * cos,  # |a||b|cos(theta): equals dot, shown side by side
    }
