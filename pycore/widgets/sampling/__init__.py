"""Widget sampling: the next token after "小猫 没有 过 马路 因为 它 太 ___".

Three knobs in a row (temperature, top-k, top-p) over example.NEXT_LOGITS, and a button that
draws `draws` tokens from the final distribution; each click raises `seed` by one
(seed 0 = nothing drawn yet).

The picture: one panel of horizontal bars per stage (after the temperature, after top-k,
after top-p = the final distribution), all on one 0-1 axis so that a sharper or flatter row
is seen as such; a token a stage cuts keeps a hatched ghost of the probability it had before
(its value column says 已截断). A fourth panel shows how often each token came up in the N
draws, with a tick at its final probability: the bars reach the ticks as N grows.

The view comes in parts (PARTS, pycore/view_parts.py): what the three knobs decide, the
draw, and the panels' titles; a click of the button brings the draw alone.
"""
import numpy as np

from ... import example, figure
from ...sampling import pipeline, sample_counts

CUT = "已截断"
V = len(example.NEXT_TOKENS)
# every panel alike, on one fixed 0-1 axis
PANEL = {"width": 250, "row": 20, "label_w": 40, "value_w": 48, "top": 1.0, "bottom": 0.0}

PARAMS = {
    "temperature": {"type": "float", "min": 0.1, "max": 5.0, "default": 1.0, "scale": "log",
                    "help": "T in softmax(z / T), used rounded to the two decimals shown; "
                            "the slider is log-scaled"},
    "top_k": {"type": "int", "min": 0, "max": V, "default": 0,
              "help": "keep the k most probable tokens; 0 = off"},
    "top_p": {"type": "float", "min": 0.01, "max": 1.0, "default": 1.0, "step": 0.01,
              "help": "keep the smallest most-probable set with mass >= p; 1 = off"},
    "seed": {"type": "int", "min": 0, "max": 1_000_000, "default": 0,
             "help": "seed of the draw; the button adds one; 0 = nothing drawn yet"},
    # at most 10^4: a live view stays within a few milliseconds (10^5 draws alone take ~5 ms)
    "draws": {"type": "int", "min": 10, "max": 10_000, "default": 1000, "scale": "log",
              "step": 1, "help": "how many tokens one click draws (the slider moves by tenfold)"},
}


# The page asks for its live views with live=True and gets the panels' rows with only what a
# live view rebinds (the axes are fixed, the rows' places and labels never change): a lighter
# answer on every move. The build and the tests get the whole picture.
INPUTS = ("live",)
LIVE_ROW = ("w", "text", "say", "cut", "gw", "px")


def _lean(panel):
    return {"rows": [{k: row[k] for k in LIVE_ROW if k in row} for row in panel["rows"]]}


def _cumulative(probs):
    """Mass of each token plus every more probable one (the top-p running sum), per token."""
    order = np.argsort(-probs, kind="stable")  # the same tie rule as pycore.sampling
    cum = np.empty_like(probs)
    cum[order] = np.cumsum(probs[order])
    return cum


def _sample_note(seed, draws, counts, final):
    if seed == 0:
        return "还没有采样：点“从最终分布采样”"
    gap = np.max(np.abs(counts / draws - final))
    return f"{draws} 次里频率与最终概率最多差 {gap:.3f}"


def _stage(probs, tokens, before=None, kept=None):
    """One panel: probs on the 0-1 axis; a token not kept shows a ghost of its bar in the
    panel `before` (the stage before)."""
    if kept is None:  # the first stage cuts nothing
        return figure.bars(probs, tokens, form="horizontal", **PANEL)
    cut = [not k for k in kept]
    texts = [CUT if c else figure.fmt(p, 3) for p, c in zip(probs, cut)]
    panel = figure.bars(probs, tokens, form="horizontal", texts=texts, **PANEL)
    for i, (row, c) in enumerate(zip(panel["rows"], cut)):
        row["cut"] = c
        row["gw"] = before["rows"][i]["w"] if c else 0  # the width the cut took away
    return panel


def _draws_panel(counts, draws, final, tokens, final_panel):
    """How often each token came up (as a share of the draws) and a tick at its probability
    (the end of its bar in the final panel)."""
    freq = counts / draws
    panel = figure.bars(freq, tokens, form="horizontal", texts=[str(int(c)) for c in counts],
                        **PANEL)
    for row, e, c, p in zip(panel["rows"], final_panel["rows"], counts, final):
        row["px"] = figure.r(e["x"] + e["w"])  # x of the final probability
        row["y1"], row["y2"] = row["y"] + 1, row["y"] + PANEL["row"] - 1  # the tick's ends
        row["say"] = f"{row['label']}：抽中 {int(c)} 次（{c / draws:.3f}），概率 {p:.3f}"
    return panel


def distribution(temperature, top_k, top_p, live=False):
    """What the three knobs decide: the stages and their panels."""
    temperature = round(temperature, 2)  # the T the slider shows is the T used
    s = pipeline(temperature=temperature, top_k=top_k or None, top_p=top_p)
    final, tokens = s["final"], s["tokens"]
    keep_k, keep_p = s["keep_top_k"], s["keep_top_p"]
    best = int(np.argmax(final))
    top_k_text = str(top_k) if top_k else "关闭"
    top_p_text = f"{top_p:.2f}" if top_p < 1 else "关闭"
    stages = [_stage(s["after_temperature"], tokens)]
    stages.append(_stage(s["after_top_k"], tokens, stages[0], keep_k))
    stages.append(_stage(final, tokens, stages[1], keep_p))
    return {
        "tokens": tokens, "logits": s["logits"],
        "temperature": temperature, "top_k": top_k, "top_p": top_p,
        "top_k_text": top_k_text, "top_p_text": top_p_text,
        "p_temp": s["after_temperature"], "p_topk": s["after_top_k"], "p_final": final,
        "cum_topk": _cumulative(s["after_top_k"]),
        "mark_topk": ["" if k else CUT for k in keep_k],
        "mark_final": ["" if k else CUT for k in keep_p],
        "n_topk": int(keep_k.sum()), "n_final": int(keep_p.sum()),
        "mass_final": float(s["after_top_k"][keep_p].sum()),  # >= top_p: why top-p stopped here
        "best": {"token": tokens[best], "p": float(final[best])},
        "stages": [_lean(p) for p in stages] if live else stages,
        "_titles": [f"① 温度 T = {temperature:.2f}", f"② top-k（k = {top_k_text}）",
                    f"③ top-p（p = {top_p_text}）：最终分布"],
        "_final_panel": stages[2],
    }


def sample(distribution, seed, draws, live=False):
    """The seeded draw from the final distribution and its panel."""
    final = distribution["p_final"]
    counts = sample_counts(final, draws, seed) if seed else np.zeros(V, dtype=int)
    # the ticks sit at the ends of the final panel's bars
    drawn = _draws_panel(counts, draws, final, distribution["tokens"],
                         distribution["_final_panel"])
    return {"seed": seed, "draws": draws, "counts": counts,
            "sample_note": _sample_note(seed, draws, counts, final),
            "drawn": _lean(drawn) if live else drawn}


def titles(distribution, draws):
    """The four panels' titles (one list: the knobs name three, the draws the fourth)."""
    return {"titles": distribution["_titles"] + [f"④ 抽 {draws} 次：次数"]}


PARTS = (distribution, sample, titles)
