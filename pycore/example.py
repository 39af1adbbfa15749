"""The running example of the book: one toy sentence with hand-made 6-d embeddings.

Row-vector convention everywhere: a sequence is a (n, d) matrix X, and Q = X @ W_Q.
"""
import math

import numpy as np

TOKENS = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了"]

# One hand-chosen feature per dimension.
FEATURES = ["实体", "有生命", "动作", "功能词", "状态", "代词"]

# (9, 6): row i is the embedding of TOKENS[i].
EMBEDDINGS = np.array([
    [1, 1, 0, 0, 0, 0],  # 小猫: entity + animate
    [0, 0, 0, 1, 0, 0],  # 没有: function word
    [0, 0, 1, 0, 0, 0],  # 过: action
    [1, 0, 0, 0, 0, 0],  # 马路: entity
    [0, 0, 0, 1, 0, 0],  # 因为: function word
    [0, 0, 0, 0, 0, 1],  # 它: pronoun
    [0, 0, 0, 1, 0, 0],  # 太: function word
    [0, 0, 0, 0, 1, 0],  # 累: state
    [0, 0, 0, 1, 0, 0],  # 了: function word
], dtype=float)


def semantic_head():
    """W_Q, W_K, W_V of the "semantic head": identity, except that the pronoun row of W_Q
    becomes [1 1 0 0 0 0] -- a pronoun asks for "entity + animate"."""
    d = len(FEATURES)
    w_q = np.eye(d)
    w_q[5] = [1, 1, 0, 0, 0, 0]
    return w_q, np.eye(d), np.eye(d)


# Section 9: the next-token distribution after "小猫 没有 过 马路 因为 它 太 ___".
# Fixed logits, stated in the chapter, so the reader can check every number of the widget.
NEXT_TOKENS = ["累", "困", "饿", "害怕", "小", "快", "远", "慢", "热", "冷"]
NEXT_LOGITS = np.array([3.0, 2.2, 1.6, 1.1, 0.5, 0.2, -0.3, -0.6, -1.0, -1.4])


# --- the reader's edited example -----------------------------------------------------------
# A page lets the reader edit the running example in place: each token's six features and the
# semantic head's pronoun row of W_Q. An edited example travels as a plain dict
# {"x": 9 rows of 6 numbers, "pronoun": 6 numbers, "tokens": the sentence}, each part
# optional; it comes from the page's URL or the browser's storage, so it is checked here and
# never trusted. The entries are whole numbers from 0 to 2 (a feature absent, present, or
# doubled): every table of the example keeps exact integers, and no similarity turns
# negative.
ENTRY_MIN, ENTRY_MAX = 0, 2
PRONOUN_ROW = [1, 1, 0, 0, 0, 0]


# The palette: tokens the reader may add to the sentence (or put back after removing them),
# each with its six features fixed by the book (only the book's own nine are editable in the
# grid) and the reason for them, shown beside the palette.
PALETTE = {
    "小狗": ([1, 1, 0, 0, 0, 0], "和小猫一样，是有生命的实体"),
    "路口": ([1, 0, 0, 0, 0, 0], "一个地方：是实体，但没有生命"),
    "汽车": ([1, 0, 0, 0, 0, 0], "会动，却不是活的：只算实体"),
    "跑": ([0, 0, 1, 0, 0, 0], "一个动作，和「过」同类"),
    "和": ([0, 0, 0, 1, 0, 0], "连接两个词，只起语法作用"),
    "很": ([0, 0, 0, 1, 0, 0], "程度副词，本身不指任何东西"),
    "饿": ([0, 0, 0, 0, 1, 0], "一种状态，和「累」同类"),
    "它们": ([0, 0, 0, 0, 0, 1], "也是代词：语义头让它和「它」问同样的问题"),
}
# A sentence holds each token at most once (widgets pick a query token by its name), keeps
# 它 (the pronoun every chapter's experiment watches, every widget's default query) and has
# from MIN_TOKENS to MAX_TOKENS tokens (a widget keeps MAX_TOKENS slots on the page).
MIN_TOKENS, MAX_TOKENS = 4, 12
PRONOUN = "它"
ALL_TOKENS = TOKENS + list(PALETTE)  # every token a sentence may hold, book's first


def default_example():
    """The book's example as an editable dict (a fresh copy)."""
    return {"x": EMBEDDINGS.astype(int).tolist(), "pronoun": list(PRONOUN_ROW),
            "tokens": list(TOKENS)}


def _sentence(tokens):
    """`tokens` checked as a sentence (see PALETTE), or ValueError."""
    if not isinstance(tokens, list) or not MIN_TOKENS <= len(tokens) <= MAX_TOKENS:
        raise ValueError(f"example: tokens must be a list of {MIN_TOKENS} to {MAX_TOKENS} "
                         f"tokens, not {str(tokens)[:60]}")
    for t in tokens:
        if t not in ALL_TOKENS:
            raise ValueError(f"example: tokens holds {str(t)[:20]!r}; a token must be one of "
                             f"the book's ({' '.join(TOKENS)}) or the palette's "
                             f"({' '.join(PALETTE)})")
    if len(set(tokens)) != len(tokens):
        raise ValueError("example: tokens holds a token twice; each may appear once")
    if PRONOUN not in tokens:
        raise ValueError(f"example: tokens must keep {PRONOUN}, the pronoun the widgets ask "
                         "about")
    return list(tokens)


def _entries(name, values, length):
    """`values` as `length` whole numbers clamped to [ENTRY_MIN, ENTRY_MAX], or ValueError."""
    if not isinstance(values, list) or len(values) != length:
        raise ValueError(f"example: {name} must be a list of {length} numbers, "
                         f"not {str(values)[:60]}")
    out = []
    for v in values:
        # math, not NumPy, for one number: a NumPy call per entry costs far more in Pyodide
        if isinstance(v, bool) or not isinstance(v, (int, float)) or \
                (isinstance(v, float) and not math.isfinite(v)):
            raise ValueError(f"example: {name} holds {v!r}; every entry must be a number "
                             f"from {ENTRY_MIN} to {ENTRY_MAX}")
        out.append(int(min(ENTRY_MAX, max(ENTRY_MIN, round(v)))))
    return out


def checked_example(raw):
    """The edited example `raw` (None = the book's) checked: a dict with "x" (9 rows of 6),
    "pronoun" (6), entries rounded and clamped to 0..2, and "tokens" (the sentence, see
    PALETTE). Junk raises ValueError."""
    if raw is None:
        return default_example()
    if not isinstance(raw, dict) or not set(raw) <= {"x", "pronoun", "tokens"}:
        raise ValueError("example: expected {\"x\": 9 rows of 6 numbers, \"pronoun\": "
                         f"6 numbers, \"tokens\": the sentence}}, got {str(raw)[:60]}")
    ex = default_example()
    n, d = EMBEDDINGS.shape
    if "x" in raw:
        if not isinstance(raw["x"], list) or len(raw["x"]) != n:
            raise ValueError(f"example: x must be {n} rows, one per token of "
                             f"{' '.join(TOKENS)}")
        ex["x"] = [_entries(f"row {i + 1} of x ({TOKENS[i]})", row, d)
                   for i, row in enumerate(raw["x"])]
    if "pronoun" in raw:
        ex["pronoun"] = _entries("pronoun (the pronoun row of W_Q)", raw["pronoun"], d)
    if "tokens" in raw:
        ex["tokens"] = _sentence(raw["tokens"])
    return ex


def resolve_example(raw):
    """(example, problem): the checked example, or the book's with the reason it was
    refused (a hand-edited link shows the book's example instead of an error)."""
    try:
        return checked_example(raw), ""
    except ValueError as err:
        return default_example(), str(err)


def is_default(ex):
    return ex == default_example()


def features_of(ex, token):
    """The six features of `token` in a checked example: the edited row of a book token, the
    palette's fixed one of another."""
    if token in TOKENS:
        return ex["x"][TOKENS.index(token)]
    return PALETTE[token][0]


def sentence_embeddings(ex):
    """(n, 6) float matrix X of the example's sentence, one row per token of ex["tokens"]."""
    return np.array([features_of(ex, t) for t in ex["tokens"]], dtype=float)


def semantic_head_of(ex):
    """W_Q, W_K, W_V of the semantic head with the example's pronoun row of W_Q."""
    w_q, w_k, w_v = semantic_head()
    w_q[5] = ex["pronoun"]
    return w_q, w_k, w_v


def example_key(ex):
    """A hashable key of a checked example, (x, pronoun, tokens) as tuples: for caches of the
    parts of a view that only the example decides."""
    return tuple(map(tuple, ex["x"])), tuple(ex["pronoun"]), tuple(ex["tokens"])


def example_of_key(key):
    """The checked example back from its example_key."""
    x, pronoun, tokens = key
    return {"x": [list(row) for row in x], "pronoun": list(pronoun), "tokens": list(tokens)}
