"""Widget beam-search: beam search against sampling on pycore.beam's next-token table.

The reader sets the beam width, the length penalty alpha and how many tokens to generate;
the temperature and the seed are for the sampled sentences beside it.

The picture: a lattice, one row per step and one column per rank in the beam. Each node is a
kept partial sentence (its last token and its log-probability so far), joined to the beam it
grew from; a sentence that ends with 。 at a step is set aside in the column on the right.
The path of the answer is drawn heavy, and its tokens that close a trigram seen before are
marked: with alpha = 1 the answer is the loop 累 了 ， 它 太 …  Under it, the final
candidates ranked by score = log p / len^alpha as bars, and four sampled sentences as
token chips, their repeats marked too.
"""
import functools

import numpy as np

from ... import beam as B, figure

MAX_WIDTH, MAX_NEW = 5, 12
SAMPLES = 4        # sentences shown per seed (seed, seed + 1, ...)
RANKED = 5         # candidates shown in the ranking
# the lattice, in SVG units
COL, ROW, LEFT, TOP = 64, 32, 30, 34
NODE_W, NODE_H = 58, 22
FIN_GAP = 8  # the column of sentences that ended sits right of the beam's `width` columns
# the ranking bars
RANK_W, RANK_ROW, RANK_LEFT, RANK_VALUE = 330, 36, 18, 56

PARAMS = {
    "width": {"type": "int", "min": 1, "max": MAX_WIDTH, "default": 3,
              "help": "beam width: how many partial sentences are kept per step (1 = greedy)"},
    "alpha": {"type": "float", "min": 0.0, "max": 1.0, "default": 1.0, "step": 0.1,
              "help": "length penalty: candidates are ranked by log p / len ** alpha "
                      "(used rounded to one decimal)"},
    "max_new": {"type": "int", "min": 2, "max": MAX_NEW, "default": MAX_NEW,
                "help": "how many tokens to generate at most"},
    "temperature": {"type": "float", "min": 0.1, "max": 5.0, "default": 1.0, "scale": "log",
                    "help": "temperature of the sampled sentences (two decimals used)"},
    "seed": {"type": "int", "min": 0, "max": 100_000, "default": 0,
             "help": f"the sampled sentences use seeds seed .. seed + {SAMPLES - 1}; "
                     f"the button adds {SAMPLES}"},
}

# The page's live views skip the summary over 1000 samples (half a second in CPython; it
# depends on nothing the reader moves): the build prints it once. The view is in parts (PARTS,
# pycore/view_parts.py): the beam reads the width, length and alpha, the samples the seed,
# temperature and length; a move brings the parts that read it.
INPUTS = ("live",)
# ...and leave out what a live view never changes (where each slot sits)
PLACE = {"x", "y", "tx", "ty", "y1", "x2", "y2"}  # a node's slot; its edge's start moves
END_PLACE = {"y", "ty", "y1", "y2"}  # an ended sentence moves with the beam width
RANK_PLACE = {"y", "sy", "by", "ty"}


def _lean(parts, drop):
    return [{k: v for k, v in part.items() if k not in drop} for part in parts]


def _sentence(tokens):
    return " ".join(tokens)


def _repeats(tokens, n=3):
    """For each token: does the n-gram ending at it occur earlier in the sentence?"""
    seen, marks = set(), [False] * len(tokens)
    for i in range(len(tokens) - n + 1):
        gram = tuple(tokens[i:i + n])
        marks[i + n - 1] = gram in seen
        seen.add(gram)
    return marks


def _node_xy(step, rank):
    return LEFT + rank * COL + (COL - NODE_W) / 2, TOP + (step - 1) * ROW + (ROW - NODE_H) / 2


def _lattice(run, best, width):
    """Nodes (MAX_NEW x MAX_WIDTH slots, row-major), the ended candidate of each step, and the
    edges to their parents; unused slots are hidden. The figure is as wide as `width` columns
    and the column of ended sentences (its viewBox follows the beam width)."""
    fin_x = LEFT + width * COL + FIN_GAP
    start = {"x": LEFT + (COL - NODE_W) / 2, "y": 6}
    where = {(): (start["x"] + NODE_W / 2, start["y"] + NODE_H)}  # prefix -> parent anchor
    best_prefixes = {tuple(best["tokens"][:k]) for k in range(1, len(best["tokens"]) + 1)}
    rep = _repeats(best["tokens"])
    nodes, ends = [], []
    steps = {st["step"]: st for st in run["steps"]}
    for step in range(1, MAX_NEW + 1):
        st = steps.get(step, {"beams": [], "finished": []})
        anchors = {}
        for rank in range(MAX_WIDTH):
            x, y = _node_xy(step, rank)
            on = rank < len(st["beams"])
            hyp = st["beams"][rank] if on else None
            node = {**_slot(step, rank), "off": not on, "best": False, "rep": False,
                    "token": "", "logp": "", "say": ""}
            if on:
                key = tuple(hyp["tokens"])
                anchors[key] = (x + NODE_W / 2, y + NODE_H)
                node.update(token=hyp["tokens"][-1], logp=figure.fmt(hyp["logp"], 2),
                            best=key in best_prefixes,
                            say=f"第 {step} 步第 {rank + 1} 名：{_sentence(key)}，"
                                f"log p = {hyp['logp']:.2f}")
                node["rep"] = node["best"] and rep[step - 1]
                node.update(_edge(where[key[:-1]], (x + NODE_W / 2, y)))
            else:
                node.update(_unused_edge(step, rank))
            nodes.append(node)
        ends.append(_ended(st["finished"], step, where, best, fin_x))
        where.update(anchors)
    height = TOP + MAX_NEW * ROW + 4
    w = fin_x + COL + 6
    return {"width": w, "height": height, "box": f"0 0 {w} {height}", "cols_used": width,
            "start": start, "node_w": NODE_W, "node_h": NODE_H, "fin_mid": fin_x + NODE_W / 2,
            "nodes": nodes, "ends": ends,
            "cols": [{"x": LEFT + k * COL + COL / 2, "label": f"第{k + 1}名", "off": k >= width}
                     for k in range(MAX_WIDTH)],
            "steps": [{"y": figure.r(TOP + (s - 1) * ROW + 20), "label": str(s)}
                      for s in range(1, MAX_NEW + 1)]}


@functools.lru_cache(maxsize=None)
def _slot(step, rank):
    """Where a node's slot sits: the same in every lattice."""
    x, y = _node_xy(step, rank)
    return {"x": figure.r(x), "y": figure.r(y), "tx": figure.r(x + NODE_W / 2),
            "ty": figure.r(y + 15)}


@functools.lru_cache(maxsize=None)
def _unused_edge(step, rank):
    """The hidden edge of a slot the beam leaves empty."""
    x, y = _node_xy(step, rank)
    return _edge((0.0, _parent_y(step)), (x + NODE_W / 2, y))


def _parent_y(step):
    """The bottom of the row before `step` (the start node's for step 1): where edges begin."""
    return TOP + (step - 2) * ROW + (ROW - NODE_H) / 2 + NODE_H if step > 1 else 6 + NODE_H


def _edge(a, b):
    """The edge from a parent's bottom centre a to a node's top centre b, drawn (and hidden)
    with its node."""
    return {"x1": figure.r(a[0]), "y1": figure.r(a[1]), "x2": figure.r(b[0]), "y2": figure.r(b[1])}


def _ended(finished, step, where, best, fin_x):
    """The most probable sentence that ended with 。 at this step (others are counted)."""
    x, y = fin_x, TOP + (step - 1) * ROW + (ROW - NODE_H) / 2
    end = {"x": figure.r(x), "tx": figure.r(x + NODE_W / 2), "y": figure.r(y),
           "ty": figure.r(y + 15), "off": not finished,
           "best": False, "logp": "", "say": "",
           **_edge((x + NODE_W / 2, _parent_y(step)), (x + NODE_W / 2, y))}
    if finished:
        hyp = max(finished, key=lambda h: B.tie(h["logp"]))  # first of equals
        key = tuple(hyp["tokens"])
        parent = where[key[:-1]]
        more = f"（另有 {len(finished) - 1} 句）" if len(finished) > 1 else ""
        end.update(logp=figure.fmt(hyp["logp"], 2), best=best["finished"] and
                   hyp["tokens"] == best["tokens"],
                   say=f"第 {step} 步结束：{_sentence(key)}，log p = {hyp['logp']:.2f}{more}",
                   **_edge(parent, (x + NODE_W / 2, y)))
    return end


def _ranking(run, alpha):
    """The final candidates (ended ones and the open beams) ranked by score, as bars that grow
    left from 0 on an axis down to the lowest score shown."""
    pool = run["finished"] + run["steps"][-1]["beams"]
    pool = sorted(pool, key=lambda h: -B.tie(h["score"]))[:RANKED]  # first of equals stays
    lo = -figure.nice_max(max(-h["score"] for h in pool))
    zero = RANK_W - RANK_VALUE
    to_x = lambda s: figure.scale(s, lo, 0.0, RANK_LEFT, zero)  # noqa: E731
    rows = []
    for k in range(RANKED):
        y = k * RANK_ROW
        row = {"y": y, "sy": y + 12, "by": y + 17, "ty": y + 28, "off": k >= len(pool),
               "x": zero, "w": 0, "text": "", "sentence": "", "say": "", "ended": False}
        if k < len(pool):
            h = pool[k]
            x = to_x(h["score"])
            n = len(h["tokens"])
            row.update(x=figure.r(x), w=figure.r(zero - x), text=figure.fmt(h["score"], 3),
                       sentence=_sentence(h["tokens"]), ended=h["finished"],
                       say=f"第 {k + 1}：{_sentence(h['tokens'])}，log p = {h['logp']:.2f}，"
                           f"{n} 个词，分数 {h['logp']:.2f} / {n}^{alpha:.1f} = "
                           f"{h['score']:.3f}")
        rows.append(row)
    return {"width": RANK_W, "height": RANKED * RANK_ROW + 16, "zero": zero, "left": RANK_LEFT,
            "value_x": RANK_W, "lo": figure.fmt(lo, 1), "axis_y": RANKED * RANK_ROW,
            "rows": rows}


def _chips(tokens, marks):
    return [{"t": tokens[i] if i < len(tokens) else "", "off": i >= len(tokens),
             "rep": i < len(tokens) and marks[i]} for i in range(MAX_NEW)]


def _samples(seed, dists, max_new):
    out = []
    for s in range(seed, seed + SAMPLES):
        run = B.sample_sentence(s, max_new=max_new, dists=dists)
        n = len(run["tokens"])
        out.append({"seed": s, "sentence": _sentence(run["tokens"]), "logp": run["logp"],
                    "per_token": run["logp"] / n, "repeats": run["repeated_trigrams"],
                    "ended": run["tokens"][-1] == B.EOS,
                    "end_text": "以 。 结束" if run["tokens"][-1] == B.EOS else "没有结束",
                    "chips": _chips(run["tokens"], _repeats(run["tokens"]))})
    return out


# Fixed data, worked out once (half a second): the build draws many widgets between the pages
# that hold beam-search (the chapter, its embed page, print), and the parts' cache may have let
# the summary part go by then.
@functools.lru_cache(maxsize=1)
def _summary():
    """Sampling at T = 1 over seeds 0 .. 999 (the chapter's figures)."""
    return B.repeat_share(1000, max_new=MAX_NEW)


def beam(width, max_new, alpha, live=False):
    """The beam: its best sentence, lattice and ranking (a live view: without the places)."""
    alpha = round(alpha, ROUNDED["alpha"])  # the value shown is the value used
    run = B.beam_search(width, max_new, alpha)
    best = run["best"]
    n = len(best["tokens"])
    rank, lat = _ranking(run, alpha), _lattice(run, best, width)
    if live:
        lat = {"box": lat["box"], "cols_used": width, "fin_mid": lat["fin_mid"],
               "cols": lat["cols"], "nodes": _lean(lat["nodes"], PLACE),
               "ends": _lean(lat["ends"], END_PLACE)}
        rank = dict(rank, rows=_lean(rank["rows"], RANK_PLACE))
    return {
        "best": {"sentence": _sentence(best["tokens"]), "logp": best["logp"],
                 "score": best["score"], "length": n, "per_token": best["logp"] / n,
                 "repeats": best["repeated_trigrams"],
                 "end_text": "以 。 结束" if best["finished"] else "没有结束",
                 "chips": _chips(best["tokens"], _repeats(best["tokens"]))},
        "n_finished": len(run["finished"]), "lattice": lat, "ranking": rank}


ROUNDED = {"alpha": 1, "temperature": 2}  # digits the view keeps of these parameters


def settings(width, alpha, max_new, temperature, seed):
    """The controls' values as used (rounded as shown) and the prompt."""
    return {"width": width, "alpha": round(alpha, ROUNDED["alpha"]), "max_new": max_new,
            "temperature": round(temperature, ROUNDED["temperature"]), "seed": seed,
            "prompt": _sentence(B.PROMPT)}


def distributions(temperature):
    """The next-word distributions at this temperature (working values: a new seed samples
    them again without working them out)."""
    return {"_dists": B.step_distributions(round(temperature, ROUNDED["temperature"]))}


def samples(seed, max_new, distributions):
    """The sampled sentences of seeds seed .. seed + SAMPLES - 1."""
    made = _samples(seed, distributions["_dists"], max_new)
    return {"samples": made, "sample_repeats": sum(s["repeats"] > 0 for s in made),
            "sample_per_token": float(np.mean([s["per_token"] for s in made]))}


def summary(live=False):
    """The chapter's figures of sampling (the live page has them built)."""
    return {} if live else {"summary": _summary()}


PARTS = (settings, beam, distributions, samples, summary)
