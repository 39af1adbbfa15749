"""Widget embedding: the running example's 9x6 embedding table, one chosen pair of tokens
compared by dot product and cosine, and the 9x9 similarity matrices of all tokens."""
from .. import example, vectors

PARAMS = {
    "a": {"type": "choice", "choices": example.TOKENS, "default": "小猫",
          "help": "the first token of the compared pair"},
    "b": {"type": "choice", "choices": example.TOKENS, "default": "马路",
          "help": "the second token of the compared pair"},
}


def similarity_matrices(rows):
    """(every pairwise dot product, every pairwise cosine) of the rows, each as nested lists."""
    dots = [[vectors.dot(x, y) for y in rows] for x in rows]
    cosines = [[vectors.cosine(x, y) for y in rows] for x in rows]
    return dots, cosines


def view(a, b):
    e = example.EMBEDDINGS  # (9, 6): one row per token
    ia, ib = example.TOKENS.index(a), example.TOKENS.index(b)
    dots, cosines = similarity_matrices(e)
    return {
        "tokens": example.TOKENS, "features": example.FEATURES,
        "embeddings": e,
        "a": a, "b": b, "ia": ia, "ib": ib,
        "vec_a": e[ia], "vec_b": e[ib],
        "dot": vectors.dot(e[ia], e[ib]),
        "norm_a": vectors.norm(e[ia]), "norm_b": vectors.norm(e[ib]),
        "cos": vectors.cosine(e[ia], e[ib]),
        "dots": dots,          # (9, 9): E E^T
        "cosines": cosines,    # (9, 9): E E^T divided by the product of the row lengths
        "max_dot": max(max(row) for row in dots),  # the dot table's darkest shade
    }
