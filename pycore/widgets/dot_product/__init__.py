"""Widget dot-product: two 2-D arrows, their dot product, lengths and angle.

The picture: both arrows on a grid (figure.plane, figure.arrow) with draggable tips, the angle
between them as an arc with its value (figure.angle_arc), and b's shadow on a's line: the
|b| cos θ that a·b multiplies by |a| (negative when it falls behind the origin).

The grid never changes: it is a part of its own (PARTS, pycore/view_parts.py), which the
page gets once; a move of a tip brings the rest alone."""
from ... import figure, vectors

EXTENT = 4.5  # the plane shows [-4.5, 4.5]^2: the tips' range (PARAMS) and room for labels
SIZE = 324    # SVG units across: 36 per unit of the plane
GRID, TO = figure.plane(EXTENT, size=SIZE)  # the grid, and the map from the plane to SVG units

PARAMS = {
    "a": {"type": "vector", "length": 2, "min": -4.0, "max": 4.0, "default": [3.0, 1.0],
          "help": "first arrow [x, y]"},
    "b": {"type": "vector", "length": 2, "min": -4.0, "max": 4.0, "default": [1.0, 2.0],
          "help": "second arrow [x, y]"},
}


def point(x, y):
    """A vector as the page writes it: (2.0, -1.0)."""
    return f"({figure.fmt(x, 1)}, {figure.fmt(y, 1)})"


def factor(x):
    """A factor of a product written out: 2.0, or (-1.0) when negative."""
    return figure.fmt(x, 1) if x >= 0 else f"({figure.fmt(x, 1)})"


def segment(x1, y1, x2, y2, **more):
    return {"x1": figure.r(x1), "y1": figure.r(y1), "x2": figure.r(x2), "y2": figure.r(y2),
            **more}


def plane():
    return {"grid": GRID}


def arrows(a, b):
    """Everything but the grid: the arrows, the angle, b's shadow on a, the numbers."""
    dot, na, nb = vectors.dot(a, b), vectors.norm(a), vectors.norm(b)
    cos, angle = vectors.cosine(a, b), vectors.angle_degrees(a, b)
    ox, oy = TO(0.0, 0.0)
    (ax, ay), (bx, by) = TO(*a), TO(*b)
    # the arc stays inside the shorter arrow when it can, and readable when it cannot
    shorter = min(na, nb) * SIZE / (2 * EXTENT)
    arc = figure.angle_arc(ox, oy, ax, ay, bx, by, radius=max(14.0, min(34.0, 0.45 * shorter)))
    # b's projection on a's line: the foot (a·b / |a|^2) a, where b's tip drops onto it
    foot = dot / na ** 2 if na > 0 else 0.0
    fx, fy = TO(foot * a[0], foot * a[1])
    projection = nb * cos  # |b| cos θ, signed

    def arrow(x, y):  # a zero arrow has no direction, so no label place: give it the tip's
        return {"tx": figure.r(x), "ty": figure.r(y), **figure.arrow(ox, oy, x, y)}

    def tip(key, vec, x, y, n):
        return {"x": figure.r(x), "y": figure.r(y), "text": point(*vec),
                "say": f"{key} = {point(*vec)}，|{key}| = {figure.fmt(n, 3)}"}

    return {
        "a": list(a), "b": list(b),
        "dot": dot, "norm_a": na, "norm_b": nb, "cos": cos,
        "angle": angle,
        "product": na * nb * cos,  # |a||b|cos(theta): equals dot, shown side by side
        "projection": projection,
        "terms": " + ".join(f"{factor(p)}×{factor(q)}" for p, q in zip(a, b)),  # a1 b1 + a2 b2
        "arrows": {"a": arrow(ax, ay), "b": arrow(bx, by)},
        "tips": {"a": tip("a", a, ax, ay, na), "b": tip("b", b, bx, by, nb)},
        "arc": {**arc, "text": f"θ = {figure.fmt(angle, 1)}°", "hidden": na == 0 or nb == 0},
        "shadow": segment(ox, oy, fx, fy, say=f"b 在 a 方向上的投影 |b| cos θ = "
                                              f"{figure.fmt(projection, 3)}"),
        "drop": segment(bx, by, fx, fy),
    }


PARTS = (plane, arrows)
