"""Widget embedding: the running example's embedding table (a row of six features per token of
the sentence), one chosen pair of tokens compared by dot product and cosine, and the
similarity matrices of all the sentence's tokens.

The picture: the table as a heatmap (tokens × features) with the two picked rows framed, and
both similarity matrices as heatmaps with the pair's two cells framed. The matrices never
change with the pair (only with the reader's edited example); only the frames and the pair's
figures follow the reader's choice. So the view is in two parts: the sentence's (the matrices
and their heatmaps) and the pair's; a pick brings the pair's alone.

The reader's sentence may be longer or shorter than the book's (pycore.example.PALETTE): the
page keeps MAX_TOKENS slots of every token list (the pickers, the table's rows, the matrices'
rows and columns), and the view fills them, the unused ones hidden and every table padded
with zeros, as the attention widget does."""
from ... import figure, vectors
from ...example import ALL_TOKENS, FEATURES, MAX_TOKENS, resolve_example, sentence_embeddings
from ..attention import padded, slots

# `example`: the reader's edited example (None: the book's), from the page, not a block
# parameter. The view is in parts (PARTS, pycore/view_parts.py): the sentence's matrices
# and heatmaps change with the example alone, the pair's numbers and frames with the picks.
INPUTS = ("example",)

PARAMS = {
    "a": {"type": "choice", "choices": ALL_TOKENS, "default": "小猫",
          "help": "the first token of the compared pair (the sentence's first if it lacks it)"},
    "b": {"type": "choice", "choices": ALL_TOKENS, "default": "马路",
          "help": "the second token of the compared pair (the sentence's last if it lacks it)"},
}


def similarity_matrices(rows):
    """(every pairwise dot product, every pairwise cosine) of the rows, each as nested lists."""
    dots = [[vectors.dot(x, y) for y in rows] for x in rows]
    cosines = [[vectors.cosine(x, y) for y in rows] for x in rows]
    return dots, cosines


def pairwise(matrix, tokens, say, digits, cell=30):
    """An n x n similarity heatmap in MAX_TOKENS slots (figure.heatmap's slots), sequential
    from 0 (a checked example's entries are 0..2, so no similarity is negative); each used cell
    says `say(token, token, value)`."""
    hi = max(max(row) for row in matrix)
    heat = figure.heatmap(matrix, tokens, tokens, slots=MAX_TOKENS, lo=0.0, hi=hi, cell=cell,
                          digits=digits)
    for c in heat["cells"]:
        if not c["hidden"]:
            c["say"] = say(tokens[c["i"]], tokens[c["j"]], c["v"])
    return heat


def table_heatmap(e, tokens, cell=36, label_w=44, label_h=26):
    """The embedding table (n tokens x 6 features) in MAX_TOKENS rows: figure.heatmap of the
    rows padded with zeros, the spare rows hidden (no label, no readout) and below the
    viewBox, which frames the used rows. An embedding is drawn as every embedding and
    activation of the running example is (the book's colour rule): the diverging map over
    +-figure.ACTIVATION_LIMIT, 0 the neutral middle."""
    n = len(tokens)
    labels = list(tokens) + [""] * (MAX_TOKENS - n)
    limit = figure.ACTIVATION_LIMIT
    table = figure.heatmap(padded(e, MAX_TOKENS), labels, FEATURES, cell=cell, lo=-limit,
                           hi=limit, diverging=True, digits=1, label_w=label_w,
                           label_h=label_h)
    for c in table["cells"]:
        c["hidden"] = c["i"] >= n
        c["say"] = "" if c["hidden"] else \
            f"{tokens[c['i']]} 的「{FEATURES[c['j']]}」 = {figure.fmt(c['v'], 0)}"
    for rw in table["rows"]:
        rw["hidden"] = rw["i"] >= n
    vw, vh = table["width"], label_h + n * cell
    table.update({"slots": MAX_TOKENS, "n_rows": n, "vw": vw, "vh": vh,
                  "viewbox": f"0 0 {vw} {vh}"})
    return table


def sentence(example=None):
    """What no pick changes: the sentence, its embeddings, the similarity matrices and the
    three heatmaps (but their frames)."""
    ex, _ = resolve_example(example)
    tokens = ex["tokens"]
    e = sentence_embeddings(ex)  # (n, 6)
    dots, cosines = similarity_matrices(e)  # each (n, n)
    table = table_heatmap(e, tokens)
    dot_heat = pairwise(dots, tokens, lambda s, t, x: f"{s} · {t} = {figure.fmt(x, 0)}", 0)
    cos_heat = pairwise(cosines, tokens,
                        lambda s, t, x: f"cos(「{s}」,「{t}」) = {figure.fmt(x, 4)}", 2)
    return {
        "tokens": tokens, "n": len(tokens), "features": FEATURES, "slots": slots(tokens),
        "embeddings": padded(e, MAX_TOKENS),        # (n, 6) in (s, 6)
        "dots": padded(dots, MAX_TOKENS, MAX_TOKENS),  # (n, n) in (s, s): E E^T
        "cosines": padded(cosines, MAX_TOKENS, MAX_TOKENS),
        "max_dot": max(max(row) for row in dots),  # the dot heatmap's top
        "table": table, "dot_heat": dot_heat, "cos_heat": cos_heat,
        "_e": e,
    }


def cell_frames(heat, cells):
    """Frames round the cells (i, j) of a heatmap drawn in another part: each where the
    heatmap drew that cell (its cells are row-major)."""
    n = len(heat["cols"])
    return [{k: heat["cells"][i * n + j][k] for k in ("x", "y", "w", "h")} for i, j in cells]


def pair(a, b, sentence):
    """The picked pair (the sentence's first and last token for a word it lacks): their
    vectors, dot product, norms and cosine, and the frames on them."""
    tokens, e = sentence["tokens"], sentence["_e"]  # e: (n, 6), a row per token
    a = a if a in tokens else tokens[0]
    b = b if b in tokens else tokens[-1]
    ia, ib = tokens.index(a), tokens.index(b)
    cells = [(ia, ib), (ib, ia)]
    return {
        "a": a, "b": b, "ia": ia, "ib": ib,
        "vec_a": e[ia], "vec_b": e[ib],
        "dot": vectors.dot(e[ia], e[ib]),
        "norm_a": vectors.norm(e[ia]), "norm_b": vectors.norm(e[ib]),
        "cos": vectors.cosine(e[ia], e[ib]),
        "table": {"frames": [sentence["table"]["row_bands"][k] for k in (ia, ib)]},
        "dot_heat": {"frames": cell_frames(sentence["dot_heat"], cells)},
        "cos_heat": {"frames": cell_frames(sentence["cos_heat"], cells)},
    }


PARTS = (sentence, pair)
