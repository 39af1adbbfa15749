"""The running example of the book: one toy sentence with hand-made 6-d embeddings.

Row-vector convention everywhere: a sequence is a (n, d) matrix X, and Q = X @ W_Q.
"""
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
