"""How well a model answers 「它 = ?」, and whether one of its heads looks at the answer.

- accuracy: the share of sentences whose most probable next token at "=" (over the whole
  vocabulary) is the right noun;
- attention: for every layer and head, the share of sentences in which that head, at the
  position of "=", puts at least ATTENTION_THRESHOLD of its weight on the answer noun.
"""
import numpy as np

from . import corpus, model

ATTENTION_THRESHOLD = 0.5
HELDOUT_SEED = 20240601  # the fixed sample of held-out sentences every run is measured on


def heldout(n=1000):
    """A fixed sample of n held-out sentences (the same for every model and run)."""
    return corpus.sample(np.random.default_rng(HELDOUT_SEED), "heldout", n)


def evaluate(params, cfg, sentences, chunk=500):
    """Accuracy and attention figures over sentences (a list from corpus.sample).

    Returns accuracy, loss (mean cross-entropy of the answer), attention (n_layers, n_heads):
    the share of sentences where the head puts >= 0.5 on the answer, mean_attention (same
    shape): its mean weight there, and best_head: (layer, head) with the largest share.
    """
    correct, loss, hits, mean_w = 0, 0.0, 0.0, 0.0
    for start in range(0, len(sentences), chunk):
        b = corpus.batch(sentences[start:start + chunk])
        rows = np.arange(len(b["query"]))
        h, cache = model.forward(params, cfg, b["inputs"])  # (B, T, D)
        z = model.logits(params, h[rows, b["query"]])  # (B, V): the logits at "="
        correct += int((z.argmax(axis=-1) == b["answer"]).sum())
        loss += model.cross_entropy(z, b["answer"], np.ones(len(rows)))
        w = np.stack([c["attn"]["weights"] for c in cache["blocks"]])  # (L, B, H, T, T)
        on_answer = w[:, rows, :, b["query"], b["answer_position"]]  # (B, L, H)
        hits = hits + (on_answer >= ATTENTION_THRESHOLD).sum(axis=0)  # (L, H)
        mean_w = mean_w + on_answer.sum(axis=0)
    n = len(sentences)
    share = hits / n
    best = np.unravel_index(int(np.argmax(share)), share.shape)
    return {"accuracy": correct / n, "loss": loss / n, "attention": share,
            "mean_attention": mean_w / n, "best_head": [int(best[0]), int(best[1])],
            "best_attention": float(share[best]), "sentences": n}
