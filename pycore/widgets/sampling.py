"""Widget sampling: the next token after "小猫 没有 过 马路 因为 它 太 ___".

Three knobs in a row (temperature, top-k, top-p) over example.NEXT_LOGITS, and a button that
draws `draws` tokens from the final distribution; each click raises `seed` by one
(seed 0 = nothing drawn yet).
"""
import numpy as np

from .. import example
from ..sampling import pipeline, sample_counts

CUT = "已截断"
V = len(example.NEXT_TOKENS)

PARAMS = {
    "temperature": {"type": "float", "min": 0.1, "max": 5.0, "default": 1.0,
                    "help": "T in softmax(z / T); the slider is log-scaled"},
    "top_k": {"type": "int", "min": 0, "max": V, "default": 0,
              "help": "keep the k most probable tokens; 0 = off"},
    "top_p": {"type": "float", "min": 0.01, "max": 1.0, "default": 1.0,
              "help": "keep the smallest most-probable set with mass >= p; 1 = off"},
    "seed": {"type": "int", "min": 0, "max": 1_000_000, "default": 0,
             "help": "seed of the draw; the button adds one; 0 = nothing drawn yet"},
    "draws": {"type": "int", "min": 10, "max": 100_000, "default": 1000,
              "help": "how many tokens one click draws"},
}


def _cumulative(probs):
    """Mass of each token plus every more probable one (the top-p running sum), per token."""
    order = np.argsort(-probs, kind="stable")  # the same tie rule as pycore.sampling
    cum = np.empty_like(probs)
    cum[order] = np.cumsum(probs[order])
    return cum


def _sample_note(seed, draws, counts, final):
    if seed == 0:
        return "还没有采样：点上面的按钮"
    gap = np.max(np.abs(counts / draws - final))
    return f"{draws} 次里频率与最终概率最多差 {gap:.3f}"


def view(temperature, top_k, top_p, seed, draws):
    s = pipeline(temperature=temperature, top_k=top_k or None, top_p=top_p)
    final = s["final"]
    counts = sample_counts(final, draws, seed) if seed else np.zeros(V, dtype=int)
    keep_k, keep_p = s["keep_top_k"], s["keep_top_p"]
    return {
        "tokens": s["tokens"], "logits": s["logits"],
        "temperature": temperature, "top_k": top_k, "top_p": top_p, "seed": seed, "draws": draws,
        "top_k_text": str(top_k) if top_k else "关闭",
        "top_p_text": f"{top_p:.2f}" if top_p < 1 else "关闭",
        "p_temp": s["after_temperature"], "p_topk": s["after_top_k"], "p_final": final,
        "cum_topk": _cumulative(s["after_top_k"]),
        "kept_topk": keep_k, "kept_final": keep_p,
        "mark_topk": ["" if k else CUT for k in keep_k],
        "mark_final": ["" if k else CUT for k in keep_p],
        "n_topk": int(keep_k.sum()), "n_final": int(keep_p.sum()),
        "mass_final": float(s["after_top_k"][keep_p].sum()),  # >= top_p: why top-p stopped here
        "counts": counts,
        "sample_note": _sample_note(seed, draws, counts, final),
    }
