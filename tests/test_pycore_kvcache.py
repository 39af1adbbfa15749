"""KV-cache counts against closed forms and presets worked out by hand."""
import pytest

from pycore import kvcache as K


def test_llama_7b_cache_by_hand():
    # 2 (K, V) * 32 layers * 32 heads * 128 dims * 2 bytes = 524,288 bytes = 0.5 MiB per token
    s = K.preset_summary("LLaMA-7B")
    assert s["bytes_per_token"] == 524_288
    assert s["cache_bytes"] == 524_288 * 2048 == 2 ** 30  # exactly 1 GiB at 2048 tokens
    # K and V projections: 2 * 32 layers * 4096 * 4096
    assert s["madds_per_token"] == 2 * 32 * 4096 * 4096


def test_gqa_shrinks_the_cache():
    s = K.preset_summary("LLaMA-2-70B (GQA)", tokens=1000)
    assert s["bytes_per_token"] == 2 * 80 * 8 * 128 * 2 == 327_680
    assert s["cache_bytes"] == 327_680_000
    # with all 64 heads keeping their own K, V it would be 8 times larger
    assert K.cache_bytes(1000, 80, 64, 128) == 8 * s["cache_bytes"]
    assert K.cache_bytes(1024, 12, 12, 64, bytes_per_value=4, batch=3) == \
        2 * 12 * 12 * 64 * 1024 * 4 * 3


@pytest.mark.parametrize("prompt_len", [1, 7])
def test_steps_closed_forms(prompt_len):
    t = 5
    steps = K.generation_steps(t, prompt_len)  # the running example: d = 6, 1 layer, 1 head
    per_token = 2 * 6 * 6  # K and V: two (6 x 6) projections of one row
    assert [s["context"] for s in steps] == [prompt_len + s for s in range(t)]
    # without a cache: P + (P+1) + ... + (P+t-1) rows; with a cache: P + (t - 1) rows
    assert steps[-1]["total_no_cache"] == (t * prompt_len + t * (t - 1) // 2) * per_token
    assert steps[-1]["total_cache"] == (prompt_len + t - 1) * per_token
    assert steps[0]["madds_no_cache"] == steps[0]["madds_cache"]  # the prompt, either way
    for s in steps[1:]:
        assert s["madds_cache"] == per_token
        assert s["rows_cache"] == (s["context"] - 1, s["context"])
        assert s["rows_no_cache"] == (0, s["context"])
    assert steps[-1]["cache_bytes"] == 2 * 1 * 1 * 6 * (prompt_len + t - 1) * 2


def test_preset_dict_can_be_passed_whole():
    steps = K.generation_steps(3, 10, **K.PRESETS["GPT-2 small"])
    assert steps[1]["madds_cache"] == 2 * 12 * 768 * 12 * 64
    assert steps[2]["cache_bytes"] == 2 * 12 * 12 * 64 * 12 * 2


# --- the widget's view: its grids and bars (pycore/widgets/kv_cache/__init__.py) -----------------

def used(grid):
    """The grid's rows the sentence uses (the others are hidden spare slots)."""
    return [r for r in grid["rows"] if not r["hidden"]]


def test_kv_view_marks_what_each_step_does_with_each_row():
    from pycore.widgets import compute
    v = compute("kv-cache", {"step": 5})
    without, with_cache = v["grids"]
    # the book's 9 tokens: the model reads 8 of them, in 11 slots (12 tokens at most)
    assert len(without["rows"]) == 11 and [r["hidden"] for r in without["rows"]] == \
        [False] * 8 + [True] * 3
    assert [r["state"] for r in used(without)] == ["recomputed"] * 5 + ["future"] * 3
    assert [r["state"] for r in used(with_cache)] == ["cached"] * 4 + ["new"] + ["future"] * 3
    assert [r["text"] for r in with_cache["rows"][3:6]] == ["读缓存", "新算", ""]
    # 6 cells of K, a gap, 6 of V: cell centres 13 units apart, V after 6 * 13 + 8; one digit
    # of the row's K | V numbers per cell (小猫: K = V = 1 1 0 0 0 0)
    cx = [float(x) for x in with_cache["cx"].split()]
    assert cx[:2] == [40 + 6.5, 40 + 19.5] and cx[6] == 40 + 78 + 8 + 6.5 and len(cx) == 12
    assert with_cache["rows"][0]["digits"] == "110000110000"
    # a prompt of 3 tokens: step 1 computes the three rows at once (prefill), either way
    p = compute("kv-cache", {"prompt": 3, "step": 1})["grids"][1]["rows"]
    assert [r["state"] for r in p[:4]] == ["new"] * 3 + ["future"]


# --- the reader's sentence: any n from 4 to 12 tokens -------------------------------------

SHORT = ["马路", "因为", "它", "累"]
TWELVE = ["小猫", "马路", "小狗", "因为", "它", "累", "汽车", "跑", "很", "饿", "它们", "了"]


def test_a_four_token_sentence_by_hand():
    """马路 因为 它 累: the model reads 马路, 因为, 它 (W_K = W_V = I, so K = V = X) and
    produces 因为, 它, 累 in three steps of 72 multiply-adds per row."""
    from pycore.widgets import compute
    v = compute("kv-cache", {"step": 3, "example": {"tokens": SHORT}})
    assert (v["n_steps"], v["step"], v["prompt"], v["clamp_note"]) == (3, 3, 1, "")
    assert (v["prefix"], v["produced"]) == ("马路 因为 它", "累")
    with_cache = v["grids"][1]
    assert [r["label"] for r in used(with_cache)] == ["马路", "因为", "它"]
    assert [r["digits"] for r in used(with_cache)] == ["100000100000", "000100000100",
                                                       "000001000001"]
    assert [r["state"] for r in used(with_cache)] == ["cached", "cached", "new"]
    assert [r["label"] for r in with_cache["rows"][3:]] == [""] * 8
    # 1 + 2 + 3 rows recomputed against 3 rows, 2 * 6 * 6 each
    assert (v["total_nocache"], v["total_cache"]) == (6 * 72, 3 * 72)
    assert v["ratio"] == 2.0
    # the viewBox frames 3 rows of 16 units under the 16-unit head; 40 + 6 * 13 + 8 + 6 * 13
    # + 44 units wide
    assert with_cache["viewbox"] == "0 0 248 64" and with_cache["height"] == 64
    assert [r["y"] for r in with_cache["rows"][:3]] == [16, 32, 48]
    # the 数值 tables: 3 rows of K | V and 3 steps used, zeros in the spare slots
    assert v["n_read"] == 3 and v["kv"][0] == [1, 0, 0, 0, 0, 0] * 2
    assert v["kv"][3:] == [[0.0] * 12] * 8
    assert [s["label"] for s in v["step_slots"][:4]] == ["第 1 步", "第 2 步", "第 3 步", ""]
    assert v["macs"][:3] == [[72, 72, 72, 72], [144, 216, 72, 144], [216, 432, 72, 216]]
    assert v["macs"][3:] == [[0, 0, 0, 0]] * 8
    # a prompt of two tokens: step 1 computes both (prefill), then 2 steps of one new row
    p = compute("kv-cache", {"step": 2, "prompt": 2, "example": {"tokens": SHORT}})
    assert (p["n_steps"], p["total_nocache"], p["total_cache"]) == (2, 5 * 72, 3 * 72)


def test_twelve_tokens_fill_every_slot():
    from pycore.widgets import compute
    v = compute("kv-cache", {"step": 11, "example": {"tokens": TWELVE}})
    assert (v["n_steps"], v["step"], v["clamp_note"]) == (11, 11, "")
    assert v["prefix"] == " ".join(TWELVE[:11]) and v["produced"] == "了"
    without, with_cache = v["grids"]
    assert [r["label"] for r in used(without)] == TWELVE[:11]
    assert [r["state"] for r in used(without)] == ["recomputed"] * 11
    assert [r["state"] for r in used(with_cache)] == ["cached"] * 10 + ["new"]
    # palette tokens keep their fixed features: 小狗 like 小猫, 跑 an action, 它们 a pronoun
    digits = {r["label"]: r["digits"] for r in used(with_cache)}
    assert digits["小狗"] == "110000110000" and digits["跑"] == "001000001000"
    assert digits["它们"] == "000001000001"
    assert with_cache["viewbox"] == f"0 0 248 {16 + 11 * 16}"
    # without a cache 1 + 2 + ... + 11 = 66 rows, with it 11
    assert (v["total_nocache"], v["total_cache"]) == (66 * 72, 11 * 72)
    # the bars' axes fit the last step of this sentence, and they are bound (not fixed)
    now, total = v["madds_bars"]
    assert not total["fixed"] and total["top"] >= 66 * 72 and now["top"] >= 11 * 72
    assert total["rows"][0]["w"] == pytest.approx(66 * 72 / total["top"] * total["plot"]["w"],
                                                  abs=0.01)


@pytest.mark.parametrize("n, step, prompt, shown", [
    (5, 6, 2, (2, 3)),    # 5 tokens, a prompt of 2: steps 1..3
    (5, 1, 8, (4, 1)),    # a prompt longer than the sentence: all but its last token
    (4, 11, 11, (3, 1)),
    (12, 11, 1, (1, 11)),  # nothing to change
    (9, 8, 1, (1, 8)),
])
def test_a_prompt_or_step_beyond_the_sentence_is_clamped_and_said(n, step, prompt, shown):
    from pycore.widgets import compute
    others = [t for t in TWELVE if t != "它"]
    tokens = others[:n - 1] + ["它"]
    v = compute("kv-cache", {"step": step, "prompt": prompt, "example": {"tokens": tokens}})
    assert v["tokens"] == tokens and (v["prompt"], v["step"]) == shown
    assert v["n_steps"] == n - shown[0] and v["context_rows"] == shown[0] + shown[1] - 1
    assert (v["prompt_asked"], v["step_asked"]) == (prompt, step)
    note = v["clamp_note"]
    assert (f"只有 {n} 个词" in note) == (shown[0] < prompt)
    assert (f"显示第 {shown[1]} 步而不是第 {step} 步" in note) == (shown[1] < step)
    assert (note == "") == ((prompt, step) == shown)


def test_an_edited_book_token_changes_its_row_only():
    from pycore.example import default_example
    from pycore.widgets import compute
    x = default_example()["x"]
    x[0][1] = 0  # 小猫 without 有生命
    v = compute("kv-cache", {"example": {"x": x, "tokens": ["小猫", "小狗", "它", "累"]}})
    assert [r["digits"] for r in used(v["grids"][0])] == ["100000100000", "110000110000",
                                                          "000001000001"]


def test_kv_view_bars_grow_on_axes_that_fit_the_last_step():
    from pycore.widgets import compute
    v = compute("kv-cache", {"step": 4})
    now, total = v["madds_bars"]
    # step 4 of 8: 4 rows * 72 against 72; so far (1 + 2 + 3 + 4) * 72 = 720 against 4 * 72
    assert [r["text"] for r in now["rows"]] == ["288", "72"] and now["top"] == 600  # 8 * 72 = 576
    assert [r["text"] for r in total["rows"]] == ["720", "288"] and total["top"] == 3000  # 2592
    assert total["rows"][0]["w"] == pytest.approx(720 / 3000 * total["plot"]["w"], abs=0.01)


def test_kv_view_compares_the_presets_at_one_length_and_format():
    from pycore.widgets import compute
    v = compute("kv-cache", {"preset": "LLaMA-7B", "context": 2048, "dtype": "fp16"})
    bars = v["presets_bars"]
    assert bars["unit"] == "GiB"  # GPT-3 175B: 2 * 96 * 96 * 128 * 2048 * 2 bytes = 9 GiB
    assert [r["text"] for r in bars["rows"]] == ["72.0 MiB", "1.0 GiB", "640.0 MiB", "9.0 GiB"]
    assert [r["value"] for r in bars["rows"]] == pytest.approx([72 / 1024, 1, 0.625, 9])
    assert [r["on"] for r in bars["rows"]] == [False, True, False, False]


def test_a_longer_sentence_has_one_more_step_and_a_wider_gap():
    """Chapter 9's experiment: a token more is a step more, and at the last step the gap
    between the two ways grows: (1 + 2 + ... + (n - 1)) rows against n - 1, that is n / 2."""
    from pycore.widgets import compute
    others = [t for t in TWELVE if t != "它"]
    for n in range(4, 13):
        tokens = others[:n - 1] + ["它"]
        v = compute("kv-cache", {"step": 11, "example": {"tokens": tokens}})
        assert v["n_steps"] == v["step"] == n - 1
        assert v["ratio"] == pytest.approx(n / 2)
