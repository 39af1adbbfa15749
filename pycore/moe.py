"""Mixture of experts: a router sends each token to k of E feed-forward networks.

The router is one matrix W_r (d x E): a token's row x gives the logits x W_r / T and their
softmax p (one probability per expert). The token goes to the k experts of largest p, and
their gates are those k probabilities renormalised to sum to 1 (the layer's output is the
gated sum of the k experts' outputs); the other E - k experts never see the token.

The load-balance loss is the Switch Transformer's: with f_i the share of the n k
assignments that went to expert i and P_i the mean router probability of expert i over the
tokens, loss = E * sum_i f_i P_i. It is 1 when both are uniform (1/E each) and grows to E when
every token sends everything to one expert; training adds it times a small alpha (0.01 in
the Switch paper) to the language-model loss, so the router learns to spread the tokens.

Sizing: each expert is a SwiGLU FFN (3 d d_ff). Every token passes through all the shared
parts (attention, norms, router, embeddings) but only k of the E experts, so a model has
`total` parameters to store and `active` ones per token to compute with.
"""
import numpy as np

from .softmax import softmax


def router_weights(seed, d, max_experts):
    """A seeded Gaussian router W_r (d x max_experts); E experts use its first E columns, so
    adding an expert keeps the others' columns."""
    return np.random.default_rng(seed).standard_normal((d, max_experts))


def route(x, w_r, k, temperature=1.0):
    """Router probabilities (n, E), the chosen experts (n, k; largest probability first, a tie
    to the lower index) and their gates (n, k; the chosen probabilities renormalised)."""
    probs = softmax(np.asarray(x, dtype=float) @ w_r, temperature=temperature, axis=-1)
    chosen = np.argsort(-probs, axis=-1, kind="stable")[:, :k]
    picked = np.take_along_axis(probs, chosen, axis=-1)
    return probs, chosen, picked / picked.sum(axis=-1, keepdims=True)


def load(chosen, n_experts):
    """How many of the tokens' assignments each expert got (a token counts once per expert)."""
    return np.bincount(np.asarray(chosen).ravel(), minlength=n_experts)


def balance_loss(probs, chosen):
    """The Switch Transformer's load-balance loss E * sum_i f_i P_i (f: the share of the
    assignments expert i got, P: its mean router probability); 1 when both are uniform."""
    n_experts = probs.shape[1]
    f = load(chosen, n_experts) / chosen.size
    p = probs.mean(axis=0)
    return float(n_experts * np.sum(f * p)), f, p


def sizes(d_model, n_layers, vocab, d_ff, n_heads, n_kv_heads, experts, k):
    """Parameters stored (total) and used per token (active) by a decoder whose every FFN is
    E SwiGLU experts, top-k routed: attention with n_kv_heads K/V heads (GQA), two RMSNorms per
    layer, a router d x E per layer, untied input and output embeddings, a final norm.
    Returns a dict of the parts and both sums."""
    d = d_model
    kv = n_kv_heads * (d // n_heads)
    attention = 2 * d * d + 2 * d * kv            # W_Q, W_O: d x d; W_K, W_V: d x kv
    expert = 3 * d * d_ff                         # SwiGLU: W_1, W_3 (d x d_ff), W_2
    router = d * experts
    norms = 2 * d
    embeddings = 2 * vocab * d + d                # input, output, final norm
    shared = n_layers * (attention + router + norms) + embeddings
    return {"attention": attention, "expert": expert, "router": router, "shared": shared,
            "total": shared + n_layers * experts * expert,
            "active": shared + n_layers * k * expert}
