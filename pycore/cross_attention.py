"""Cross-attention: an encoder-decoder translating the running example into English.

The encoder reads the whole Chinese sentence once; the decoder writes the English one word at
a time. At step i the decoder has written TARGET[:i] (after a start token <bos>) and is about
to write TARGET[i]. Its masked self-attention looks back at its own i + 1 inputs; its
cross-attention looks at all 9 encoder outputs, with no mask: the source sentence is known in
full. Queries come from the decoder, keys and values from the encoder, so the weight matrix is
(target words x source words) = (13, 9), not square, and row i says which Chinese words step i
reads while it writes TARGET[i]: an alignment.

The hand-made vectors (W_Q = W_K = W_V = I, so everything is in the feature space):
- Encoder output = the 6 features of pycore.example, plus 4 features an encoder layer would
  have worked out from the context: 否定 (negation), 原因 (cause), 程度 (degree) and 完成
  (a state that has come about). The bare embeddings cannot tell 没有, 因为, 太 and 了 apart
  (all four are just "function word"); after the encoder each carries its own meaning.
- Decoder query at step i = what the word it is about to write needs (NEEDS): "cat" asks for
  实体 + 有生命; "road" for 实体 and not 有生命 (2 实体 - 2 有生命); "not" and "did" for
  功能词 + 否定; "because" for 功能词 + 原因; "too" for 功能词 + 程度; "was" for 功能词 + 完成;
  "cross", "it", "tired" for twice 动作, 代词, 状态; <eos> for twice 完成 (the sentence ends
  where the source's last word, 了, is covered). An article has no Chinese word of its own:
  "the" asks for what its noun asks for, so the first "the" looks at 小猫, the second at 马路.
  Every word's own Chinese word scores 2 (the 功能词 needs give the other function words 1).
- Logits = SCALE * q . k / sqrt(10) with SCALE = 6: large enough that each row's peak stands out
  (0.64 to 0.85), small enough that the rest of the row stays visible.

Numbers the chapter quotes (tests/test_pycore_cross_attention.py), a = 6 / sqrt(10) = 1.897:
- The row of "cat": 小猫 scores 2, 马路 1, the other 7 words 0, so 小猫 gets
  e^(2a) / (e^(2a) + e^a + 7) = 0.765, 马路 e^a / (...) = 0.115, every other word 0.017.
- The row of "not": 没有 gets e^(2a) / (e^(2a) + 3 e^a + 5) = 0.640, and 因为, 太, 了 0.096 each.
- Every row's largest weight falls on the word an aligner would draw: the cat -> 小猫,
  did not -> 没有, cross -> 过, the road -> 马路, because -> 因为, it -> 它, was -> 了,
  too -> 太, tired -> 累, <eos> -> 了.
"""
import numpy as np

from . import example
from .softmax import softmax

SOURCE = example.TOKENS
TARGET = ["the", "cat", "did", "not", "cross", "the", "road", "because", "it", "was", "too",
          "tired", "<eos>"]
BOS = "<bos>"
ENCODER_FEATURES = example.FEATURES + ["否定", "原因", "程度", "完成"]
SCALE = 6.0

_F = {name: i for i, name in enumerate(ENCODER_FEATURES)}
_CONTEXT = {"没有": "否定", "因为": "原因", "太": "程度", "了": "完成"}


def encoder_output():
    """(9, 10): the embeddings, plus the one context feature of each function word."""
    extra = np.zeros((len(SOURCE), 4))  # (9, 4)
    for i, token in enumerate(SOURCE):
        if token in _CONTEXT:
            extra[i, _F[_CONTEXT[token]] - 6] = 1.0
    return np.hstack([example.EMBEDDINGS, extra])  # (9, 6) | (9, 4) -> (9, 10)


def _vector(**features):
    v = np.zeros(len(ENCODER_FEATURES))
    for name, value in features.items():
        v[_F[name]] = value
    return v


# What each English word asks of the source, in encoder features ("the": see need()).
NEEDS = {
    "cat": _vector(实体=1, 有生命=1),
    "road": _vector(实体=2, 有生命=-2),
    "did": _vector(功能词=1, 否定=1),
    "not": _vector(功能词=1, 否定=1),
    "cross": _vector(动作=2),
    "because": _vector(功能词=1, 原因=1),
    "it": _vector(代词=2),
    "was": _vector(功能词=1, 完成=1),
    "too": _vector(功能词=1, 程度=1),
    "tired": _vector(状态=2),
    "<eos>": _vector(完成=2),
}


def need(i, target=TARGET):
    """The decoder's query at step i: what target[i] needs; an article borrows its noun's."""
    word = target[i]
    if word == "the":
        return need(i + 1, target)
    if word not in NEEDS:
        raise ValueError(f"no query for {word!r}; words with one: {sorted(NEEDS)} and 'the'")
    return NEEDS[word]


def queries(target=TARGET):
    """(m, 10): one query per decoder step."""
    return np.array([need(i, target) for i in range(len(target))])


def cross_attention(scale=SCALE, target=TARGET):
    """The whole (m, 9) matrix at once: what the decoder computes in training, when every
    target word is known and all steps run in parallel.

    Returns queries (m, 10), keys and values (9, 10), scores (m, 9) (before the scale),
    logits, weights (m, 9), outputs (m, 10) and the source word of each row's largest weight.
    """
    q, kv = queries(target), encoder_output()
    scores = q @ kv.T  # (m, 10) @ (10, 9) -> (m, 9)
    logits = scale * scores / np.sqrt(q.shape[1])
    weights = softmax(logits, axis=-1)  # (m, 9): each row sums to 1
    return {"source": SOURCE, "target": list(target), "features": ENCODER_FEATURES,
            "queries": q, "keys": kv, "values": kv, "scores": scores, "logits": logits,
            "weights": weights, "outputs": weights @ kv,  # (m, 9) @ (9, 10) -> (m, 10)
            "aligned": [SOURCE[j] for j in np.argmax(weights, axis=1)], "scale": scale}


def decoder_step(i, scale=SCALE, target=TARGET):
    """Step i of generation: the decoder has read <bos> + target[:i] and writes target[i].

    self_keys: the decoder inputs its masked self-attention may look at (i + 1 of them);
    cross_keys: the source words its cross-attention looks at (all 9, no mask).
    """
    if not 0 <= i < len(target):
        raise ValueError(f"step must be between 0 and {len(target) - 1}, not {i}")
    q, kv = need(i, target), encoder_output()
    scores = kv @ q  # (9,)
    weights = softmax(scale * scores / np.sqrt(len(q)))
    j = int(np.argmax(weights))
    return {"step": i, "inputs": [BOS] + list(target[:i]), "writes": target[i],
            "self_keys": [BOS] + list(target[:i]), "cross_keys": SOURCE,
            "query": q, "scores": scores, "weights": weights, "output": weights @ kv,
            "attended": SOURCE[j], "attended_weight": float(weights[j])}
