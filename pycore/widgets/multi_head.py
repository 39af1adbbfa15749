"""Widget multi-head: head A (semantic) and head B (previous token) over the running example,
their concatenation and W_O. The math is pycore.multihead; this module only picks what the
page shows.

`heads` chooses which heads feed the layer: "A+B" (the chapter's two-head layer: concat
(9, 12), W_O (12, 6)), or one head alone (concat (9, 6), W_O = I (6, 6)). Both weight
matrices are always shown, so the reader can compare them whatever is switched on.
"""
import numpy as np

from .. import example, multihead

HEAD_CHOICES = ["A+B", "A", "B"]

PARAMS = {
    "query": {"type": "choice", "choices": example.TOKENS, "default": "它",
              "help": "the token whose row is highlighted in both heads"},
    "heads": {"type": "choice", "choices": HEAD_CHOICES, "default": "A+B",
              "help": "which heads are concatenated and fed to W_O"},
}


def _shape(a):
    return " × ".join(str(s) for s in np.shape(a))


def _layer(heads, used):
    """Concatenation, W_O and output for the heads in `used` (their outputs side by side)."""
    outs = [h["output"] for h in heads if h["name"] in used]
    concat = np.concatenate(outs, axis=1)  # (9, 6 * len(outs))
    w_o = multihead.output_matrix(outs[0].shape[1], len(outs))  # (6 * len(outs), 6)
    return concat, w_o, concat @ w_o


def view(query, heads):
    full = multihead.two_heads()
    head_a, head_b = full["heads"]
    if heads == "A+B":
        concat, w_o, out = full["concat"], full["w_o"], full["output"]
    else:
        concat, w_o, out = _layer(full["heads"], heads)
    i = example.TOKENS.index(query)
    d_v = head_a["v"].shape[1]
    return {
        "tokens": example.TOKENS, "features": example.FEATURES,
        "query": query, "index": i, "heads": heads,
        "weights_a": head_a["weights"], "weights_b": head_b["weights"],
        "row_a": head_a["weights"][i], "row_b": head_b["weights"][i],
        # column of the largest weight in each row of head B (i - 1 for every i >= 1)
        "peak_b": np.argmax(head_b["weights"], axis=1),
        "peak_b_tokens": [example.TOKENS[j] for j in np.argmax(head_b["weights"], axis=1)],
        "head_a": head_a["output"], "head_b": head_b["output"],
        "concat": concat, "w_o": w_o, "output": out,
        "output_row": out[i],
        "n_heads": len(heads.replace("+", "")), "d_v": d_v,
        "shape_head": _shape(head_a["output"]),
        "shape_concat": _shape(concat), "shape_w_o": _shape(w_o), "shape_output": _shape(out),
        "concat_cols": [f"{h}{j}" for h in heads.replace("+", "") for j in range(d_v)],
        "concat_caption": "拼接 = [" + " | ".join(f"头 {h} 的输出" for h in heads.replace("+", "")) + "]",
    }
