"""A bigram language model trained by plain gradient descent: the smallest training loop
(forward, loss, gradient, update), the one chapter 13's exercise asks the reader to write.

The model is one table W (V, V): row i holds the logits of the character that follows
character i. From W = 0 (every next character equally likely, loss ln V), full-batch gradient
descent with a fixed learning rate: no randomness, so every correct loop gives the same table.
"""
import numpy as np

from .softmax import softmax

# The first four poems of the held-out poems (poem_gpt_heldout.txt): small enough to train
# in the reader's browser in a blink, with a few characters that repeat.
TEXT = """夕阳度西岭，群壑倏已暝。
松月生夜凉，风泉满清听。
樵人归尽欲，烟鸟栖初定。
之子期宿来，孤琴候萝径。

今朝郡斋冷，忽念山中客。
涧底束荆薪，归来煮白石。
欲恃一瓢酒，远慰风雨夕。
落叶满空山，何处寻行迹。

岱宗夫如何，齐鲁青未了。
造化钟神秀，阴阳割昏晓。
荡胸生层云，决眦入归鸟。
会当凌绝顶，一览众山小。

慈母手中线，游子身上衣。
临行密密缝，意恐迟迟归。
谁言寸草心，报得三春晖。
"""
STEPS, LR = 100, 50.0  # what the exercise states: this many steps at this learning rate


def encode(text=TEXT):
    """(ids, vocab): the text as ids into its sorted characters."""
    vocab = sorted(set(text))
    index = {c: i for i, c in enumerate(vocab)}
    return np.array([index[c] for c in text]), vocab


def loss(W, ids):
    """Mean cross-entropy of predicting ids[t+1] from ids[t] with the table W."""
    z = W[ids[:-1]]  # (N, V): one row of logits per position
    z = z - z.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return float(-log_p[np.arange(len(z)), ids[1:]].mean())


def gradient(W, ids):
    """dLoss/dW (V, V): each position adds (softmax - onehot(next)) / N to its own row."""
    x, y = ids[:-1], ids[1:]
    d = softmax(W[x], axis=-1)  # (N, V)
    d[np.arange(len(x)), y] -= 1.0
    dW = np.zeros_like(W)
    np.add.at(dW, x, d / len(x))  # add.at: a character that occurs twice adds both rows
    return dW


def train(ids, vocab_size, steps=STEPS, lr=LR):
    """W (vocab_size, vocab_size) after `steps` steps of gradient descent from W = 0."""
    ids = np.asarray(ids)
    W = np.zeros((vocab_size, vocab_size))
    for _ in range(steps):
        W = W - lr * gradient(W, ids)
    return W


def counted(ids, vocab_size):
    """The loss's lower bound on this text: the table of log relative bigram counts, which
    is what the gradient descent approaches (rows of unseen characters do not matter)."""
    counts = np.zeros((vocab_size, vocab_size))
    np.add.at(counts, (ids[:-1], ids[1:]), 1.0)
    with np.errstate(divide="ignore"):
        return np.log(counts / np.maximum(counts.sum(axis=-1, keepdims=True), 1.0))
