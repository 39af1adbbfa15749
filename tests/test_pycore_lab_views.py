"""The views of chapters 13 and 15 (lr-schedule, chinchilla, code-lab) against values worked
out by hand, by the paper's formula, or by running pycore/block.py as a separate program."""
import math
import subprocess
import sys
from pathlib import Path

import pytest

from pycore.widgets import compute

ROOT = Path(__file__).resolve().parent.parent
BLOCK = ROOT / "pycore" / "block.py"
LR = dict(warmup=2000, peak=3e-4, total=100000, decay="cosine", min_ratio=0.1, step=51000)


def value(p):
    return p["m"] * 10.0 ** p["e"]


# --- lr-schedule ---------------------------------------------------------------------------

def test_chapter_13_cosine_example():
    v = compute("lr-schedule", LR)
    # halfway through the decay the cosine term is 0: the mean of 3e-4 and 3e-5
    assert v["step"] == v["mid_step"] == 51000
    assert v["lr"] == {"m": 1.65, "e": -4} and v["mid"] == {"m": 1.65, "e": -4}
    assert v["final"] == {"m": 3.0, "e": -5} and v["peak"] == {"m": 3.0, "e": -4}
    assert compute("lr-schedule", {**LR, "step": 1000})["lr"] == {"m": 1.5, "e": -4}  # half warmup


def test_curve_samples_and_plot():
    v = compute("lr-schedule", LR)
    assert v["grid"] == 500
    chart = v["chart"]  # 380 x 210, margins (top 22, right 16, bottom 32, left 30)
    assert chart["plot"] == {"x": 30, "y": 22, "w": 334, "h": 156}
    points = chart["paths"][0]["d"].split(" ")
    assert len(points) == 101  # steps 0, 1000, 2000, ..., 100000
    assert points[1].startswith(f"L{30 + 1000 / 100000 * 334:.2f},")
    assert points[0] == "M30.0,178.0"  # step 0, rate 0: the bottom left corner
    assert points[2] == "L36.68,22.0"  # step 2000 = 30 + 0.02 * 334, the peak at the top
    # step 51000: x = 30 + 0.51 * 334; the rate 1.65e-4 of 3e-4 is 0.55 of the height
    assert v["marker"] == {"x": pytest.approx(200.34), "y": pytest.approx(22 + 156 * 0.45)}
    assert v["warm"]["x"] == pytest.approx(36.68)
    # the y axis counts in 10^-4: 0 to 3; the x axis in round steps
    assert [t["label"] for t in chart["y_ticks"] if not t["hidden"]] == ["0", "1", "2", "3"]
    assert [t["label"] for t in chart["x_ticks"] if not t["hidden"]] == \
        ["0", "20000", "40000", "60000", "80000", "100000"]
    assert v["y_unit"] == "学习率（× 10⁻⁴）" and v["peak_text"] == "3.00 × 10⁻⁴"


def test_warmup_point_is_added_when_off_the_grid():
    v = compute("lr-schedule", {**LR, "warmup": 1234})
    points = v["chart"]["paths"][0]["d"].split(" ")
    assert len(points) == 102  # the 101 round steps and the peak at step 1234
    peak = f"L{round(30 + 1234 / 100000 * 334, 2)},22.0"  # at the top of the plot
    assert peak in points


def test_inverse_sqrt_is_the_paper_formula():
    peak = 1 / math.sqrt(512 * 4000)
    v = compute("lr-schedule", {**LR, "decay": "inverse_sqrt", "warmup": 4000, "peak": peak,
                                "step": 16000})
    paper = 512 ** -0.5 * min(16000 ** -0.5, 16000 * 4000 ** -1.5)
    assert math.isclose(v["lr_value"], paper)
    assert v["lr"] == {"m": 3.494, "e": -4}


def test_linear_ignores_the_floor_and_inputs_are_clipped():
    v = compute("lr-schedule", {**LR, "decay": "linear"})
    assert value(v["mid"]) == pytest.approx(1.5e-4) and v["final"]["m"] == 0.0
    v = compute("lr-schedule", {**LR, "warmup": 50000, "total": 20000, "step": 90000})
    assert v["warmup"] == 20000 and v["step"] == 20000
    assert value(v["lr"]) == pytest.approx(3e-4)  # the last step is the end of warmup


# --- chinchilla ----------------------------------------------------------------------------

def chin(params=7e9, tokens=None, flops=None):
    """The view for N alone (D = 20 N), N and D, or a budget C, as the page sends them."""
    given = "C" if flops else "ND" if tokens else "N"
    extra = {"tokens": tokens} if tokens else {"flops": flops} if flops else {}
    return compute("chinchilla", {"params": params, "given": given, **extra})


def test_seven_billion():
    v = chin()
    assert v["tokens"] == pytest.approx(140e9) and v["flops"] == pytest.approx(5.88e21)
    assert v["d"] == {"value": pytest.approx(140.0), "unit": "B"}
    assert v["c"] == {"m": 5.88, "e": 21}
    assert v["ratio"] == pytest.approx(20) and v["times"] == pytest.approx(1)


def test_gpt3_is_far_from_twenty_tokens_per_parameter():
    v = chin(175e9, 300e9)
    assert v["preset"] == "GPT-3"
    assert v["ratio"] == pytest.approx(300 / 175) and v["times"] == pytest.approx(300 / 175 / 20)
    assert v["c"] == {"m": 3.15, "e": 23}
    # the same budget split at 20 tokens per parameter: 6 N (20 N) = 3.15e23
    n = math.sqrt(3.15e23 / 120)
    assert v["best_n"]["value"] * 1e9 == pytest.approx(n)  # about 51.2 B
    assert v["best_d"] == {"value": pytest.approx(20 * n / 1e12), "unit": "T"}
    assert v["verdict"].startswith("数据偏少")


def test_budget_mode_and_presets():
    v = chin(flops=5.88e23)
    assert v["params"] == pytest.approx(70e9) and v["tokens"] == pytest.approx(1.4e12)
    assert v["preset"] == "Chinchilla"
    llama = chin(7e9, 1e12)
    assert llama["times"] == pytest.approx(1e12 / 7e9 / 20) and llama["verdict"].startswith("数据多于")
    assert [p["label"] for p in v["presets"]] == ["70B / 1.4T", "280B / 300B", "175B / 300B", "7B / 1T"]


def test_log_log_chart():
    """D against N, log10 N from 8 to 12 over 358 units from x = 46, log10 D from 9 to 14
    over 234 units up from y = 260 (a 420 x 300 chart, margins 26, 16, 40, 46)."""
    v = chin()
    chart = v["chart"]
    assert chart["plot"] == {"x": 46, "y": 26, "w": 358, "h": 234}
    x = 46 + (math.log10(7e9) - 8) / 4 * 358
    y = 260 - (math.log10(140e9) - 9) / 5 * 234
    assert chart["now"]["x"] == pytest.approx(x, abs=0.006)
    assert chart["now"]["y"] == pytest.approx(y, abs=0.006)
    assert chart["best"] == {"x": chart["now"]["x"], "y": chart["now"]["y"]}  # D = 20 N already
    # the 20:1 line from (1e8, 2e9) to (1e12, 2e13)
    y0, y1 = (260 - (math.log10(2e9) - 9) / 5 * 234, 260 - (math.log10(2e13) - 9) / 5 * 234)
    assert chart["paths"][0]["d"] == f"M46.0,{round(y0, 2)} L404.0,{round(y1, 2)}"
    assert [t["label"] for t in chart["x_ticks"] if not t["hidden"]] == \
        ["100M", "1B", "10B", "100B", "1T"]
    assert chin(1e9, 1e15)["chart"]["now"]["y"] == 26  # 10^15 tokens: clipped at the top
    gpt3 = {p["name"]: p for p in v["chart"]["presets"]}["GPT-3"]
    assert gpt3["anchor"] == "end" and gpt3["tx"] == gpt3["x"] - 8


# --- code-lab ------------------------------------------------------------------------------

def lab(code=None, seed=0, causal=True):
    return compute("code-lab", {"seed": seed, "causal": causal, "code": code})


def test_original_output_is_what_the_file_prints():
    printed = subprocess.run([sys.executable, str(BLOCK)], capture_output=True, text=True,
                             check=True).stdout
    v = lab()
    assert v["error"] == "" and not v["edited"]
    assert v["stdout"] == printed
    assert v["code"] == BLOCK.read_text(encoding="utf-8")
    assert len(v["shapes"]) == 16 and v["output_shape"] == "(2, 32, 128)"
    assert v["shapes"][5] == {"name": "Q split into heads", "shape": [2, 8, 32, 16],
                              "text": "(2, 8, 32, 16)"}
    w = v["weights"]
    assert len(w) == 6 and all(len(r) == 6 for r in w)
    assert w[0] == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert all(sum(r) == pytest.approx(1) for r in w)
    assert all(w[i][j] == 0 for i in range(6) for j in range(i + 1, 6))  # causal


def test_edited_code_changes_the_shapes():
    src = BLOCK.read_text(encoding="utf-8")
    code = src.replace("batch=2, length=32, d_model=128, n_heads=8",
                       "batch=3, length=32, d_model=64, n_heads=4")
    v = lab(code)
    assert v["edited"] and v["error"] == ""
    assert v["output_shape"] == "(3, 32, 64)"
    assert v["shapes"][5]["shape"] == [3, 4, 32, 16]  # 64 / 4 columns per head
    assert "(3, 4, 32, 16)" in v["stdout"]
    non_causal = lab(seed=0, causal=False)["weights"]
    assert non_causal[0][1] > 0


def test_errors_come_back_as_tracebacks():
    src = BLOCK.read_text(encoding="utf-8")
    code = src.replace("x + attn)", "x + atn)")
    line = next(i for i, t in enumerate(code.splitlines(), 1) if "x + atn)" in t)
    v = lab(code)
    assert "NameError" in v["error"] and "atn" in v["error"]
    assert f'File "<代码实验室>", line {line}, in block_forward' in v["error"]
    assert "code_lab.py" not in v["error"]  # the widget's own frames are left out
    assert v["shapes"] == [] and v["weights"] == [] and v["output_shape"] == "—"
    syntax = lab("def f(:\n    pass\n")
    assert "SyntaxError" in syntax["error"] and "line 1" in syntax["error"]
    leave = lab("import sys\nprint('bye')\nsys.exit(3)\n")
    assert leave["stdout"] == "bye\n" and "SystemExit: 3" in leave["error"]


def test_every_run_starts_from_a_fresh_namespace():
    code = "try:\n    runs += 1\nexcept NameError:\n    runs = 1\nprint(runs)\n"
    assert lab(code)["stdout"] == "1\n" and lab(code)["stdout"] == "1\n"


def test_long_output_is_cut_and_bad_weights_are_dropped():
    v = lab("for i in range(10000):\n    print('x' * 10)\n")
    assert len(v["stdout"]) < 20100 and v["stdout"].rstrip().endswith("省略了）")
    nan = lab("import numpy as np\ndef lab_report(seed, causal):\n"
              "    return [('x', (2, 3))], np.full((2, 2), np.nan)\n")
    assert nan["weights"] == [] and nan["output_shape"] == "(2, 3)" and nan["error"] == ""


def test_the_budget_line_runs_through_the_model_and_its_best_split():
    """Every (N, D) with N D = C / 6 lies on one line of slope -1 in log-log; GPT-3's budget
    line passes through GPT-3 and meets 20:1 at its best split (51 B, 1.02 T)."""
    chart = chin(175e9, 300e9)["chart"]
    (x0, y0), (x1, y1) = [tuple(map(float, p[1:].split(",")))
                          for p in chart["paths"][1]["d"].split(" ")]
    # log10(3.15e23 / 6) = 22.72: from log N = 8.72 (D = 10^14, the top) to 12 (D = 10^10.72)
    assert x0 == pytest.approx(46 + (math.log10(3.15e23 / 6) - 14 - 8) / 4 * 358, abs=0.006)
    assert (y0, x1) == (26, 404)
    for p in (chart["now"], chart["best"]):
        cross = (x1 - x0) * (p["y"] - y0) - (y1 - y0) * (p["x"] - x0)
        assert abs(cross) < 0.01 * math.hypot(x1 - x0, y1 - y0)  # on the line (rounding)
