"""Widget char-gpt: the reader types any text, and the character-level model trained on
classical poems (pycore.gpt.poem_run) shows the next character's distribution, with
temperature, top-k and top-p, and continues the text with a seed.

The text is a page input (INPUTS), not a block parameter: it never lands in a shared link.
Any text is answered, never refused: an empty one with a note and no distribution, a long
one read from its last `context` characters, characters outside the vocabulary (emoji,
Latin letters, markup, rare characters) shown as unknown and read as the unknown token.
The picture: the ten most probable next characters after the sampling stages, as bars on a
0-1 axis, each with the model's own probability beside it.

Parts (pycore/view_parts.py): `reading` (the text: the only part that runs the whole model),
`distribution` (temperature, top-k, top-p over its logits) and `continued` (the seeded
continuation, those three and the seed; late: it follows the others when the reader pauses).
"""
from importlib import resources

from ... import figure
from .. import sampling
from ...gpt import poem_run, poems, train_poems

DATA_FILES = poem_run.DATA_FILES + (train_poems.HELDOUT,)  # the last: the first text
INPUTS = ("text",)
TOP = 10       # rows of the picture
NEW = 24       # characters one draw writes
SHOWN = {"\n": "↵", poems.UNKNOWN: "（未知）"}  # how a character the eye cannot see is shown
PANEL = {"width": 260, "row": 20, "label_w": 44, "value_w": 48, "top": 1.0, "bottom": 0.0}

PARAMS = {  # the sampling widget's knobs (chapter 9), top-k over more candidates
    "temperature": sampling.PARAMS["temperature"],
    "top_k": {"type": "int", "min": 0, "max": 50, "default": 0,
              "help": "keep the k most probable characters; 0 = off"},
    "top_p": sampling.PARAMS["top_p"],
    "seed": {"type": "int", "min": 0, "max": 1_000_000, "default": 0,
             "help": "seed of the continuation; the button adds one; 0 = nothing drawn yet"},
}


def default_text():
    """The start of the first held-out poem: a text the model never saw."""
    text = resources.files("pycore").joinpath(train_poems.HELDOUT).read_text(encoding="utf-8")
    return text.split("\n")[0]


def shown(c):
    return SHOWN.get(c, c)


def note_of(r):
    if r is None:
        return "文本是空的：输入至少一个字，才有下一个字的分布。"
    parts = []
    if r["cut"]:
        parts.append(f"模型只读最后 {len(r['chars'])} 个字，前面 {r['cut']} 个字它看不到。")
    if r["unknown"]:
        listed = "".join(shown(c) for c in r["unknown"][:12])
        more = "等" if len(r["unknown"]) > 12 else ""
        parts.append(f"{len(r['unknown'])} 种字不在词表里（{listed}{more}），"
                     f"模型把它们都读作同一个“未知字”。")
    return "".join(parts)


def reading(text=None):
    """The text read and the logits after it: a change of the text only runs the model."""
    text = default_text() if text is None else text
    if not isinstance(text, str):
        text = ""
    r = poem_run.read(text) if text else None
    return {
        "text": text, "note": note_of(r),
        "read": [] if r is None else [{"c": shown(c), "known": k}
                                      for c, k in zip(r["chars"], r["known"])],
        "n_read": 0 if r is None else len(r["chars"]),
        "n_unknown": 0 if r is None else sum(not k for k in r["known"]),
        "context": poem_run.poem_model()[1]["n_positions"],
        # the text's logits and its keys and values, for the parts below: a move of the
        # sampling controls or a new seed continues the same text from here
        "_read": None if r is None else poem_run.extend(r["ids"], 0, None,
                                                        *poem_run.poem_model()[:2]),
    }


def distribution(temperature, top_k, top_p, reading):
    """The next character's distribution: the same logits, sampled another way."""
    if reading["_read"] is None:
        top = [{"char": "", "p": 0.0, "final": 0.0}] * TOP
    else:
        out = poem_run.distribution(reading["_read"][0], temperature, top_k or None, top_p, TOP)
        top = [{**row, "char": shown(row["char"])} for row in out["top"]]
    bars = figure.bars([row["final"] for row in top], [row["char"] for row in top],
                       form="horizontal", texts=[figure.fmt(row["final"], 3) for row in top],
                       **PANEL)
    return {"top": top, "bars": bars,
            "temperature": temperature, "top_k": top_k, "top_p": top_p}


def continued(temperature, top_k, top_p, seed, reading):
    """The seeded continuation (poem_run.generate keeps the text's keys and values, so each
    new character costs one position)."""
    drawn = seed and reading["_read"] is not None
    return {"continuation": poem_run.generate(reading["text"], NEW, temperature, top_k or None,
                                              top_p, seed, start=reading["_read"]) if drawn else "",
            "sample_note": "还没有续写：点“续写”" if not seed else f"种子 {seed} 续写的 {NEW} 个字",
            "seed": seed}


# A text change runs the model once (reading); temperature, top-k and top-p only sample its
# logits again (distribution) and redraw the continuation; a new seed only redraws it.
PARTS = (reading, distribution, continued)
# Drawing 24 characters one at a time takes some 35 ms in Pyodide, two frames: a slider's
# move shows the new distribution at once and the continuation once the reader pauses.
LATE = (continued,)
