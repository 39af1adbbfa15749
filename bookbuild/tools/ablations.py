"""The head-ablation widget's table, computed once with the model: pycore/gpt_ablations.json.

Every set of heads switched off (2^8 = 256 for the eight switches) is run through the book's
model on the widget's 200 held-out sentences and its two example sentences
(pycore/widgets/head_ablation `measured`), so the page answers a click by reading a row.
Run it again when the weights, the sample or the switches change:

    python3 -m bookbuild.tools.ablations      (a minute or two on this machine)

tests/test_pycore_head_ablation_table.py recomputes some rows with the model and fails on a
stale table.
"""
import json
from pathlib import Path

from pycore.widgets import head_ablation as widget

PATH = Path(__file__).resolve().parents[2] / "pycore" / widget.TABLE


def sets():
    """Every set of heads off, in row order (row i: SWITCHES[j] off when bit j of i is set)."""
    return [tuple(s for j, s in enumerate(widget.SWITCHES) if i >> j & 1)
            for i in range(2 ** len(widget.SWITCHES))]


def compute():
    _, animal = widget.sample()
    return {"about": "pycore/widgets/head_ablation: a row per set of heads off (bit j of the "
                     "row's index: SWITCHES[j] off), [right, right among animal answers, right "
                     "among obstacle answers, the answer to each example sentence]; written "
                     "by python3 -m bookbuild.tools.ablations",
            "n": widget.SAMPLE, "n_animal": int(animal.sum()), "n_obstacle": int((~animal).sum()),
            "sets": [widget.measured(off) for off in sets()]}


def write(data, path=PATH):
    """One row per line: a changed row is a changed line."""
    head = {k: v for k, v in data.items() if k != "sets"}
    text = json.dumps(head, ensure_ascii=False)[:-1] + ', "sets": [\n'
    text += ",\n".join(json.dumps(row, ensure_ascii=False) for row in data["sets"]) + "\n]}\n"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write(compute())
    print(PATH)
