"""Widget trained-model: the book's trained Transformer (pycore.gpt) on a sentence the reader
composes, with every stage of its forward pass.

The reader picks a sentence frame, the animal, the obstacle and the adjective (12 words up to
"=", the question). The widget shows the model's answer at "=", the next-token distribution
after any word of the sentence (temperature, top-k, top-p and a seeded draw of pycore.sampling,
the sampling chapter's pipeline), and one stage of the forward pass at a time: the embeddings,
each layer's two LayerNorms, its four heads' attention over the sentence, its FFN, the final
LayerNorm and the logits, each with its shape (pycore.gpt.run.trace). The distribution and the
forward pass are the two sections of the widget, one shown at a time (`section`): each, under
the sentence, gets a screen's room for its pictures.

Every sentence has 12 words, so every picture keeps the same elements: their geometry is the
`fixed` part, sent once. The rest comes in parts (PARTS, pycore/view_parts.py), each a
function of a few parameters, computed once and sent when they change (a sentence or a stage
the reader saw before costs nothing); long columns of numbers and texts are NumPy arrays (one
conversion each on the way to JSON).

The stage's panels (attention, LayerNorm, FFN, logits) are parts too; one shows at a time. The
build draws them all; the page asks with `live` and gets the hidden panels empty: it leaves
them as they were (an adjective at the attention stage: 42 -> 25 KB of JSON), and a panel
shown again comes whole (its part reads the stage, so its key changed).
"""
import numpy as np

from ... import figure, sampling
from ...gpt import corpus, run
from ...softmax import softmax

DATA_FILES = run.DATA_FILES
INPUTS = ("live",)  # the page's requests: the hidden panels come empty (panel_hidden)

# Frames of four words: with 因为 它 太 <adjective> 了 ， 它 = every sentence has 12 words.
FRAMES = [t for t in corpus.TEMPLATES if len(t.split()) == 4]
PLACEHOLDER = {"A": "动物", "I": "障碍", "V": "过"}
FRAME_LABELS = {t: " ".join(PLACEHOLDER.get(w, w) for w in t.split()) for t in FRAMES}
ADJECTIVES = corpus.ANIMATE_ADJECTIVES + corpus.INANIMATE_ADJECTIVES
T = 12
D_MODEL = 48
FFN_COLUMNS = 24  # the 192 hidden units of one word drawn as 8 rows of 24
TOP = 10          # bars of the next-token distribution and of the logits
# The forward pass's pictures share a screen's width in three columns (widget.css): the
# stream, the four heads' curves one under another, the chosen head's matrix. So the curves
# are drawn narrow and flat (each of the 12 words a 30-unit slot, a two-character word at
# 13 units 26 wide; whole slots, so no coordinate has decimals) and the stream's cells thin:
# 48 cells of 5 units, its rows as tall as a word's label.
CURVES = {"width": 360, "height": 82}
HEAT = {"cell_w": 26, "cell_h": 26, "label_w": 44.0, "label_h": 22.0}  # the attention heatmap
STREAM = {"cell_w": 5.0, "cell_h": 14.0}
FFN_CELL = 13.0

# l<layer>-<part>: a stage's name is also a key of the view (so no dots in it)
STAGES = ["embed", "l0-ln1", "l0-attn", "l0-ln2", "l0-ffn", "l1-ln1", "l1-attn", "l1-ln2",
          "l1-ffn", "final", "logits"]
STAGE_LABELS = {"embed": "嵌入", "final": "最终 LN", "logits": "logits"}
for _i in (0, 1):
    STAGE_LABELS.update({f"l{_i}-ln1": f"L{_i} LN①", f"l{_i}-attn": f"L{_i} 注意力",
                         f"l{_i}-ln2": f"L{_i} LN②", f"l{_i}-ffn": f"L{_i} 前馈"})

PARAMS = {
    "frame": {"type": "choice", "choices": FRAMES, "default": FRAMES[0],
              "help": "the sentence frame (A: the animal, I: the obstacle, V: its verb)"},
    "animal": {"type": "choice", "choices": corpus.ANIMATE, "default": "小猫",
               "help": "the animal of the sentence"},
    "obstacle": {"type": "choice", "choices": corpus.OBSTACLES, "default": "马路",
                 "help": "the obstacle of the sentence"},
    "adjective": {"type": "choice", "choices": ADJECTIVES, "default": "累",
                  "help": "the adjective after 它 太: it fits the animal or the obstacle"},
    "position": {"type": "choice", "choices": list(range(T)), "default": T - 1,
                 "help": "the word whose attention rows and next-token distribution are shown "
                         "(0 = the first word, 11 = the \"=\" that asks the question)"},
    "stage": {"type": "choice", "choices": STAGES, "default": "l1-attn",
              "help": "the stage of the forward pass shown"},
    "head": {"type": "choice", "choices": [0, 1, 2, 3], "default": 1,
             "help": "the head whose whole attention matrix is drawn"},
    "temperature": {"type": "float", "min": 0.1, "max": 5.0, "default": 1.0, "scale": "log",
                    "help": "T in softmax(z / T); the slider is log-scaled"},
    "top_k": {"type": "int", "min": 0, "max": 20, "default": 0,
              "help": "keep the k most probable words; 0 = off"},
    "top_p": {"type": "float", "min": 0.05, "max": 1.0, "default": 1.0, "step": 0.05,
              "help": "keep the smallest most-probable set with mass >= p; 1 = off"},
    "section": {"type": "choice", "choices": ["next", "forward"], "default": "forward",
                "help": "the section shown under the sentence: the next word's distribution "
                        "and its sampler, or the forward pass stage by stage"},
    "seed": {"type": "int", "min": 0, "max": 1_000_000, "default": 0,
             "help": "seed of the draw; the sample button adds one; 0 = nothing drawn yet"},
    "draws": {"type": "int", "min": 10, "max": 100_000, "default": 1000,
              "help": "how many words one click of the sample button draws"},
}

SENTENCE = ("frame", "animal", "obstacle", "adjective")


def compose(frame, animal, obstacle, adjective):
    """The 12 words up to "=": the frame filled in, then 因为 它 太 <adjective> 了 ， 它 =.
    Any adjective is allowed (the model reads any word of its vocabulary); whether it fits
    the obstacle is said in the view."""
    verb = corpus.INANIMATE[obstacle][0]
    fill = {"A": animal, "I": obstacle, "V": verb}
    return tuple([fill.get(w, w) for w in frame.split()] + ["因为", "它", "太", adjective, "了"]
                 + corpus.QUESTION)


def pointing_head():
    """(layer, head) of the book's model that points at the answer (its record's best head)."""
    return tuple(run.book_model()[2]["final"]["best_head"])


def word_probs(t):
    """(T, V): the distribution of the word after each word of a trace; padding is never a
    word to say."""
    z = t["logits"].copy()  # (T, V)
    z[:, corpus.PAD_ID] = -np.inf
    return softmax(z, axis=-1)


def columns(items, names):
    """[{name: value}] -> {name: NumPy array}: one conversion each on the way to JSON."""
    return {name: np.array([item[name] for item in items]) for name in names}


def bars(values, labels, width=400, **kw):
    """figure.bars with what the page rebinds as columns (the rest is printed once)."""
    b = figure.bars(values, labels, width=width, **kw)
    return {**b, "bars": columns(b["bars"], ("x", "w", "cx", "y", "h", "ty", "text", "label",
                                              "say"))}


# ---------------------------------------------------------------- geometry that never changes

def fixed():
    """Where every element of the pictures sits: the same for every sentence (T = 12)."""
    zeros = np.zeros((T, T))
    blank = [""] * T
    heat = figure.heatmap(zeros, blank, blank, form="columns", weights=True, **HEAT)
    heat["cells"]["masked"] = heat["cells"]["j"] > heat["cells"]["i"]  # causal: never seen
    stream = figure.heatmap(np.zeros((T, D_MODEL)), blank, [""] * D_MODEL, form="columns",
                            readout=False, **STREAM)
    stream["grid_d"] = figure.grid_path(T, D_MODEL, STREAM["cell_w"], STREAM["cell_h"],
                                        x0=stream["label_w"], y0=stream["label_h"])
    ffn = figure.heatmap(np.zeros((192 // FFN_COLUMNS, FFN_COLUMNS)),
                         [f"{FFN_COLUMNS * k}" for k in range(192 // FFN_COLUMNS)],
                         [""] * FFN_COLUMNS, form="columns", cell_w=FFN_CELL, cell_h=FFN_CELL,
                         label_w=36.0, readout=False)
    curves = figure.attention_curves(blank, np.ones(T) / T, T - 1, **CURVES)
    return {"geometry": {"heat": heat, "stream": stream, "ffn": ffn,
                         "curves": {k: curves[k] for k in ("width", "height", "top", "bottom")}},
            "stage_labels": STAGE_LABELS, "frame_labels": FRAME_LABELS, "vocab": corpus.VOCAB}


# ---------------------------------------------------------------- the parts

# (stage, name in the table, name in the stage's line: its stage is named beside it)
SHAPE_NAMES = {"token embedding": ("embed", "词向量 E[词]", "E[词]"),
               "position embedding": ("embed", "位置向量 P[位置]", "P[位置]"),
               "final LayerNorm": ("final", "最终 LN 的输出 h", "h"),
               "logits": ("logits", "logits = h Eᵀ", "h Eᵀ")}
for _i in (0, 1):
    SHAPE_NAMES.update({
        f"layer {_i} LN1": (f"l{_i}-ln1", f"L{_i} LN① 的输出", "输出"),
        f"layer {_i} Q, K, V": (f"l{_i}-attn", f"L{_i} 每个头的 Q、K、V（头, 词, 维）",
                                "Q、K、V（头, 词, 维）"),
        f"layer {_i} attention weights": (f"l{_i}-attn", f"L{_i} 注意力权重（头, 查询, 键）",
                                          "权重（头, 查询, 键）"),
        f"layer {_i} attention output": (f"l{_i}-attn", f"L{_i} 注意力输出（拼接后乘 W_O）",
                                         "输出"),
        f"layer {_i} LN2": (f"l{_i}-ln2", f"L{_i} LN② 的输出", "输出"),
        f"layer {_i} FFN hidden": (f"l{_i}-ffn", f"L{_i} 前馈隐藏层（GELU 之后）", "隐藏层"),
        f"layer {_i} output": (f"l{_i}-ffn", f"L{_i} 前馈输出", "输出"),
    })


def sentence(frame, animal, obstacle, adjective):
    """The sentence, what the grammar says the answer is, what the model answers at "=", the
    word it finds most likely after each word, and the shapes of the forward pass; for the
    parts after it, the words, the trace of the forward pass and the distributions."""
    words = compose(frame, animal, obstacle, adjective)
    t = run.trace(list(words), top=TOP)
    grammar = corpus.answer_of(words)
    probs = word_probs(t)  # (T, V)
    best = int(np.argmax(probs[-1]))
    if adjective in corpus.ANIMATE_ADJECTIVES:
        fit = f"「{adjective}」说的是动物：按语法，它指「{animal}」。"
    elif adjective in corpus.INANIMATE[obstacle][1]:
        fit = f"「{adjective}」说的是障碍：按语法，它指「{obstacle}」。"
    else:
        fit = (f"训练的句子里「{obstacle}」从不「{adjective}」；「{adjective}」是说障碍的词，"
               f"按它的类别，它指「{obstacle}」。")
    pair = (f"「{animal}」和「{obstacle}」在训练的句子里从没一起出现过（留出的一对）。"
            if corpus.is_heldout(animal, obstacle) else
            f"「{animal}」和「{obstacle}」在训练的句子里一起出现过。")
    guess = np.argmax(probs, axis=1)  # (T,)
    right = corpus.VOCAB[best] == grammar
    return {"tokens": np.array(words), "grammar": grammar, "fit": fit, "pair": pair,
            "shapes": shapes(t), "_words": words, "_trace": t, "_probs": probs,
            "answer": {"word": corpus.VOCAB[best], "p": probs[-1, best],
                       "verdict": "和语法一致" if right else "和语法不一致",
                       "right": right, "p_grammar": probs[-1, corpus.INDEX[grammar]]},
            "guesses": {"word": np.array([corpus.VOCAB[j] for j in guess]),
                        "p": probs[np.arange(T), guess]}}


def shapes(t):
    return [{"stage": SHAPE_NAMES[name][0], "name": SHAPE_NAMES[name][1],
             "shape": " × ".join(str(s) for s in shape)}
            for name, shape in t["shapes"]]


def dist(sentence, position, temperature, top_k, top_p, seed, draws):
    """The distribution after the word at `position` through pycore.sampling's pipeline, its
    TOP most probable words as bars (on a 0-1 axis; a cut word's bar is empty), and a seeded
    draw."""
    words, i = sentence["_words"], position
    z = sentence["_trace"]["logits"][i].copy()
    z[corpus.PAD_ID] = -np.inf
    s = sampling.pipeline(z, temperature, top_k or None, top_p, tokens=corpus.VOCAB)
    final = s["final"]
    order = np.argsort(-s["after_temperature"], kind="stable")[:TOP]
    top_words = [corpus.VOCAB[j] for j in order]
    b = figure.bars(final[order], top_words, top=1.0, digits=3, width=400, height=180)
    for bar, j in zip(b["bars"], order):
        if not s["keep_top_p"][j]:
            bar["text"], bar["say"] = "截断", f"{bar['label']}：已截断"
    # one seeded draw of `draws` words: its counts, and its first word (the first uniform of
    # the seed's stream, so the same word as a draw of one)
    drawn = sampling.sample(final, draws, seed) if seed else None
    counts = np.bincount(drawn, minlength=len(final)) if seed else np.zeros(len(final), int)
    first = corpus.VOCAB[int(drawn[0])] if seed else ""
    rest = int(counts.sum() - counts[order].sum())
    kept = int(s["keep_top_p"].sum())
    others = len(final) - 1 - TOP  # padding is not a word
    return {"dist": {
        "after": words[i], "bars": {**b, "bars": columns(b["bars"], (
            "x", "w", "cx", "y", "h", "ty", "text", "label", "say"))},
        "raw": sentence["_probs"][i, order], "p_temp": s["after_temperature"][order],
        "p_final": final[order], "counts": counts[order], "rest": rest, "kept": kept,
        "top": {"word": top_words[0], "p": final[order[0]]},
        "sample_note": (f"抽了 {draws} 次（种子 {seed}）：第一次抽到「{first}」；其余 {others} "
                        f"个词共抽到 {rest} 次。" if seed else "还没有抽样：点「抽样」。"),
    }}


def layer_of(stage):
    return 0 if stage == "embed" or stage.startswith("l0") else 1


def norm_of(stage):
    """The LayerNorm a stage shows (or, for another stage, the one that feeds it)."""
    if stage.endswith(("ln1", "ln2")) or stage == "final":
        return stage
    return {"embed": "l0-ln1", "logits": "final"}.get(stage) or \
        stage.replace("attn", "ln1").replace("ffn", "ln2")


def kind_of(stage):
    return stage if stage in ("embed", "final", "logits") else stage[3:]


STAGE_TEXT = {
    "embed": "每个词查表得到它的 48 维词向量，再加上它所在位置的位置向量：这就是第 0 层的输入。",
    "ln1": "Pre-LN：进注意力之前，先把每个词的向量各自减去均值、除以标准差，再乘 γ 加 β。",
    "attn": "4 个因果注意力头各看一遍句子（每个词只看它自己和它前面的词），输出拼接后乘 W_O，"
            "再加回残差：x + MHA(LN(x))。",
    "ln2": "进前馈网络之前，再做一次 LayerNorm。",
    "ffn": "前馈网络对每个词各自计算：48 → 192（GELU）→ 48，再加回残差：x + FFN(LN(x))。",
    "final": "两层之后，最后一次 LayerNorm。它的输出 h 是每个位置的“结论”。",
    "logits": "h 乘以词向量表的转置（输出层与输入层共用 E），每个位置得到 56 个词的分数。",
}
STREAM_CAPTION = {"embed": "词向量 + 位置向量", "final": "最终 LN 的输出 h", "logits": "最终 LN 的输出 h",
                  "ln1": "LN① 的输出", "attn": "注意力输出（加回残差之前）", "ln2": "LN② 的输出",
                  "ffn": "前馈输出（加回残差之前）"}


def stream_matrix(t, stage):
    """(T, 48): what a stage writes, drawn in the big heatmap."""
    if stage == "embed":
        return t["embedding"]["sum"]
    if stage in ("final", "logits"):
        return t["final_norm"]["output"]
    layer = t["layers"][layer_of(stage)]
    return {"ln1": layer["ln1"]["output"], "attn": layer["attention"]["output"],
            "ln2": layer["ln2"]["output"], "ffn": layer["ffn"]["output"]}[kind_of(stage)]


def stream(sentence, stage):
    """The big heatmap: what the stage writes, one row per word."""
    words = sentence["_words"]
    m = stream_matrix(sentence["_trace"], stage)  # (T, 48)
    heat = figure.heatmap(m, words, [""] * m.shape[1], form="columns", readout=False, **STREAM)
    size = np.linalg.norm(m, axis=1)  # (T,)
    top = np.argmax(np.abs(m), axis=1)  # (T,)
    say = np.array([f"「{w}」：长度 {n:.2f}，绝对值最大的是第 {j} 维（{m[i, j]:.2f}）"
                    for i, (w, n, j) in enumerate(zip(words, size.tolist(), top.tolist()))])
    # the colours as one path per class (576 cells: the page rewrites 9 `d`, not 576 classes;
    # the lines between the cells are fixed: geometry.stream.grid_d)
    paths = figure.class_paths(heat["cells"]["c"].reshape(m.shape), STREAM["cell_w"],
                               cell_h=STREAM["cell_h"], n=figure.DIV, x0=heat["label_w"],
                               y0=heat["label_h"])
    return {"stream": {"paths": paths, "legend": heat["legend"], "say": say,
                       "norms": size, "text": STAGE_TEXT[kind_of(stage)],
                       "caption": f"{STREAM_CAPTION[kind_of(stage)]}（{m.shape[0]} × {m.shape[1]}）"}}


def panel_hidden(live, stage, panel):
    """Whether a live view leaves the panel out: the stage shows another one."""
    return live and PANEL[kind_of(stage)] != panel


def attention_weights(sentence, layer):
    return sentence["_trace"]["layers"][layer]["attention"]["weights"]  # (H, T, T)


# The attention panel in three parts: a click on another word leaves the matrix, a click on
# another head the curves.

def attn_rows(sentence, stage, position, live=False):
    """The 4 heads of the stage's layer at the word at `position`: curves over the sentence
    and each head's strongest key."""
    if panel_hidden(live, stage, "attn"):
        return {}
    words, layer, i = sentence["_words"], layer_of(stage), position
    w = attention_weights(sentence, layer)  # (H, T, T)
    future = np.arange(T) > i  # causal: word i never sees a later word
    pointer = pointing_head()
    heads = []
    for h in range(w.shape[0]):
        j = int(np.argmax(w[h, i]))
        heads.append({
            "curves": figure.attention_curves(words, w[h, i], i, columns=True, masked=future,
                                              **CURVES),
            "top": {"word": words[j], "weight": w[h, i, j]},
            "pointing": (layer, h) == pointer,
            "say": f"L{layer} 头 {h}：「{words[i]}」最看重「{words[j]}」，{w[h, i, j]:.4f}",
        })
    return {"attn": {"layer": layer, "heads": heads, "rows": w[:, i],
                     "queried": np.arange(T) == i, "query": words[i]}}


def attn_matrix(sentence, stage, head, live=False):
    """One head's whole matrix as a heatmap (0-1): the same for every word of the sentence."""
    if panel_hidden(live, stage, "attn"):
        return {}
    words, layer = sentence["_words"], layer_of(stage)
    heat = figure.heatmap(attention_weights(sentence, layer)[head], words, words, form="columns",
                          weights=True, digits=4, **HEAT)
    return {"attn": {
        "head": head, "heat": {"c": heat["cells"]["c"], "say": heat["cells"]["say"]},
        "title": f"L{layer} 头 {head} 的整张注意力矩阵：行是查询，列是键，颜色 0 到 1",
    }}


def attn_frame(fixed, sentence, stage, position, head, live=False):
    """The frames on that heatmap: the row of the word at `position` and its strongest key,
    the bands of the heatmap drawn once (fixed)."""
    if panel_hidden(live, stage, "attn"):
        return {}
    i = position
    j = int(np.argmax(attention_weights(sentence, layer_of(stage))[head, i]))
    heat = fixed["geometry"]["heat"]
    return {"attn": {"heat": {"row_y": heat["row_bands"][i]["y"],
                              "col_x": heat["col_bands"][j]["x"]}}}


def norm(sentence, stage, live=False):
    """The LayerNorm the stage shows or feeds: each word's input mean and std."""
    if panel_hidden(live, stage, "norm"):
        return {}
    words, which, t = sentence["_words"], norm_of(stage), sentence["_trace"]
    n = t["final_norm"] if which == "final" else t["layers"][layer_of(which)][kind_of(which)]
    title = STAGE_LABELS[which]
    return {"norm": {
        "title": title, "mean": n["input_mean"], "std": n["input_std"],
        # wide and flat: the two charts one under the other fill the panel's column, every
        # word's name under its bar
        "std_bars": bars(n["input_std"], list(words), digits=2, width=600, height=125),
        "mean_bars": bars(n["input_mean"], list(words), digits=2, width=600, height=125),
    }}


def ffn(sentence, stage, position, live=False):
    """The FFN's hidden units of the stage's layer at the word at `position`."""
    if panel_hidden(live, stage, "ffn"):
        return {}
    words, layer, i = sentence["_words"], layer_of(stage), position
    hidden = sentence["_trace"]["layers"][layer]["ffn"]["hidden"][i]  # (192,)
    grid = hidden.reshape(-1, FFN_COLUMNS)  # (8, 24): unit 24 r + c sits in row r, column c
    heat = figure.heatmap(grid, [""] * len(grid), [""] * FFN_COLUMNS, form="columns",
                          readout=False, cell_w=FFN_CELL, cell_h=FFN_CELL, label_w=36.0)
    say = np.array([f"单元 {k}：{v:.3f}" for k, v in enumerate(hidden.tolist())])
    top = int(np.argmax(hidden))
    return {"ffn": {"layer": layer, "word": words[i], "c": heat["cells"]["c"], "say": say,
                    "legend": heat["legend"], "hidden": grid, "active": int((hidden > 0).sum()),
                    "max": {"unit": top, "value": hidden[top]}}}


def logits(sentence, stage, position, live=False):
    """The scores of every word after the word at `position`."""
    if panel_hidden(live, stage, "logits"):
        return {}
    words, i = sentence["_words"], position
    z = sentence["_trace"]["logits"][i]  # (V,)
    order = [j for j in np.argsort(-z, kind="stable") if j != corpus.PAD_ID][:TOP]
    return {"logits": {
        "after": words[i], "row": z,
        "bars": bars(z[order], [corpus.VOCAB[j] for j in order], digits=2, height=170),
        "top": {"word": corpus.VOCAB[order[0]], "z": z[order[0]]},
    }}


PANEL = {"embed": "stream", "final": "norm", "logits": "logits", "ln1": "norm", "ln2": "norm",
         "attn": "attn", "ffn": "ffn"}


def shown_stage(stage):
    """The stage's name, which panel shows, which stage button is on."""
    panel = PANEL[kind_of(stage)]
    return {"stage": stage, "stage_label": STAGE_LABELS[stage],
            "hide": {p: p != panel for p in ("norm", "attn", "ffn", "logits")},
            "current": {s: s == stage for s in STAGES}}


def shown_section(section):
    """Which of the two sections shows (the other keeps its numbers, hidden)."""
    return {"hide_section": {s: s != section for s in PARAMS["section"]["choices"]}}


def stage_shapes(sentence, stage):
    """The shapes of what the stage computes, in a line (the whole table: 数值)."""
    return {"stage_shapes": "这一步的形状：" + "；".join(
        f"{SHAPE_NAMES[name][2]} {' × '.join(str(n) for n in shape)}"
        for name, shape in sentence["_trace"]["shapes"] if SHAPE_NAMES[name][0] == stage)}


def controls(frame, animal, obstacle, adjective, position, head, section, temperature, top_k,
             top_p, seed, draws):
    """The parameters, which the controls show (the stage: shown_stage), and the sampler's
    settings as words."""
    return {"frame": frame, "animal": animal, "obstacle": obstacle, "adjective": adjective,
            "position": position, "head": head, "section": section,
            "temperature": temperature,
            "top_k": top_k, "top_p": top_p, "seed": seed, "draws": draws,
            "top_k_text": str(top_k) if top_k else "关闭",
            "top_p_text": f"{top_p:.2f}" if top_p < 1 else "关闭"}


PARTS = (fixed, controls, sentence, dist, stream, attn_rows, attn_matrix, attn_frame, norm, ffn,
         logits, shown_stage, shown_section, stage_shapes)
