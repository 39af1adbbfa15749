"""Code lab, in PyTorch: the Transformer block of pycore/block.py, line for line.

The same Pre-LN layout and the same shapes (B = batch, T = sequence length, D = d_model,
H = heads, Dh = D // H, F = d_ff):

    x = x + MultiHeadAttention(LayerNorm(x))
    x = x + FeedForward(LayerNorm(x))

What changes from the NumPy version:
- each weight matrix is an nn.Linear, which stores its weight as (out, in) and computes
  x @ weight.T (+ bias): block.py's W (in, out) is that weight transposed (load_numpy_weights);
- reshape/transpose become view/transpose, and a tensor must be made contiguous before
  view can merge the heads again;
- np.where(allowed, scores, -inf) becomes scores.masked_fill(future, -inf): masked_fill
  writes where its mask is True, so it takes the future (j > i), not the allowed part;
- autograd: loss.backward() gives every gradient, where NumPy would need each backward
  written by hand.
The book's pages run in the browser, where there is no PyTorch: this file is shown beside
block.py and is never imported there. tests/test_pycore_block_torch.py runs both on the
same weights (float64) and checks they agree to 1e-10.
"""
import math

import numpy as np
import torch
from torch import nn


class Block(nn.Module):
    """One Pre-LN block: (B, T, D) -> (B, T, D)."""

    def __init__(self, d_model, n_heads, d_ff, dtype=torch.float64):
        super().__init__()
        if d_model % n_heads:
            raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
        self.n_heads = n_heads
        self.W_Q = nn.Linear(d_model, d_model, bias=False, dtype=dtype)  # all heads side by side
        self.W_K = nn.Linear(d_model, d_model, bias=False, dtype=dtype)
        self.W_V = nn.Linear(d_model, d_model, bias=False, dtype=dtype)
        self.W_O = nn.Linear(d_model, d_model, bias=False, dtype=dtype)
        self.W_1 = nn.Linear(d_model, d_ff, dtype=dtype)  # weight (F, D), bias b_1 (F,)
        self.W_2 = nn.Linear(d_ff, d_model, dtype=dtype)  # weight (D, F), bias b_2 (D,)
        self.ln1 = nn.LayerNorm(d_model, eps=1e-5, dtype=dtype)  # gamma = weight, beta = bias
        self.ln2 = nn.LayerNorm(d_model, eps=1e-5, dtype=dtype)

    def split_heads(self, x):
        """(B, T, D) -> (B, H, T, Dh)."""
        B, T, D = x.shape
        x = x.view(B, T, self.n_heads, D // self.n_heads)  # (B, T, H, Dh)
        return x.transpose(1, 2)  # (B, H, T, Dh)

    def merge_heads(self, x):
        """(B, H, T, Dh) -> (B, T, D)."""
        B, H, T, Dh = x.shape
        x = x.transpose(1, 2).contiguous()  # (B, T, H, Dh), laid out anew for view
        return x.view(B, T, H * Dh)  # (B, T, D)

    def multi_head_attention(self, x, causal=False):
        """x (B, T, D) -> (output (B, T, D), attention weights (B, H, T, T))."""
        T = x.shape[1]
        q = self.split_heads(self.W_Q(x))  # (B, H, T, Dh)
        k = self.split_heads(self.W_K(x))  # (B, H, T, Dh)
        v = self.split_heads(self.W_V(x))  # (B, H, T, Dh)
        d_head = q.shape[-1]
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, H, T, T)
        if causal:
            future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # j > i
            scores = scores.masked_fill(future, float("-inf"))
        weights = torch.softmax(scores, dim=-1)  # (B, H, T, T)
        heads = weights @ v  # (B, H, T, Dh)
        merged = self.merge_heads(heads)  # (B, T, D)
        return self.W_O(merged), weights

    def feed_forward(self, x):
        """relu(x W_1 + b_1) W_2 + b_2, the same for every token."""
        return self.W_2(torch.relu(self.W_1(x)))  # (B, T, F) -> (B, T, D)

    def forward(self, x, causal=False):
        attn, _ = self.multi_head_attention(self.ln1(x), causal)
        x = x + attn  # residual connection
        x = x + self.feed_forward(self.ln2(x))
        return x


def load_numpy_weights(block, w):
    """Copy pycore.block's weight dict (from init_block) into a Block, in place."""
    t = lambda a: torch.from_numpy(np.ascontiguousarray(a)).to(block.W_Q.weight.dtype)
    with torch.no_grad():
        for name in ("W_Q", "W_K", "W_V", "W_O", "W_1", "W_2"):
            getattr(block, name).weight.copy_(t(w[name].T))  # (in, out) -> (out, in)
        block.W_1.bias.copy_(t(w["b_1"]))
        block.W_2.bias.copy_(t(w["b_2"]))
        block.ln1.weight.copy_(t(w["ln1_gamma"]))
        block.ln1.bias.copy_(t(w["ln1_beta"]))
        block.ln2.weight.copy_(t(w["ln2_gamma"]))
        block.ln2.bias.copy_(t(w["ln2_beta"]))
    return block


def from_numpy(w, n_heads):
    """A float64 Block holding the weights of pycore.block.init_block's dict w."""
    d_model, d_ff = w["W_1"].shape
    return load_numpy_weights(Block(d_model, n_heads, d_ff), w)
