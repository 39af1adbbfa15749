"""Widget attention: the semantic head over the running example."""
from .. import example
from ..attention import attention

PARAMS = {
    "query": {"type": "choice", "choices": example.TOKENS, "default": "它",
              "help": "the token whose row of weights is drawn"},
    "scale": {"type": "float", "min": 0.25, "max": 6.0, "default": 1.0,
              "help": "multiplies the logits; 1 = divide by sqrt(d_k) as in the paper"},
    "causal": {"type": "bool", "default": False, "help": "hide the future (j > i)"},
}


def view(query, scale, causal):
    x = example.EMBEDDINGS  # (9, 6)
    w_q, w_k, w_v = example.semantic_head()
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # each (9, 6)
    weights, out, scores = attention(q, k, v, causal=causal, scale=scale)
    i = example.TOKENS.index(query)
    return {
        "tokens": example.TOKENS, "features": example.FEATURES,
        "query": query, "index": i, "scale": scale, "causal": causal,
        "q": q, "k": k, "v": v,
        "scores": scores,          # scale * Q K^T / sqrt(d_k), before mask and softmax
        "weights": weights,        # (9, 9), rows sum to 1
        "row": weights[i],
        "output": out[i],          # the query's new vector, a weighted mean of the V rows
    }
