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


# --- the widget's view: its grids and bars (pycore/widgets/kv_cache.py) --------------------

def test_kv_view_marks_what_each_step_does_with_each_row():
    from pycore.widgets import compute
    v = compute("kv-cache", {"step": 5})
    without, with_cache = v["grids"]
    assert [r["state"] for r in without["rows"]] == ["recomputed"] * 5 + ["future"] * 3
    assert [r["state"] for r in with_cache["rows"]] == ["cached"] * 4 + ["new"] + ["future"] * 3
    assert [r["text"] for r in with_cache["rows"][3:6]] == ["读缓存", "新算", ""]
    # 6 cells of K, a gap, 6 of V: cell centres 13 units apart, V after 6 * 13 + 8; one digit
    # of the row's K | V numbers per cell (小猫: K = V = 1 1 0 0 0 0)
    cx = [float(x) for x in with_cache["cx"].split()]
    assert cx[:2] == [40 + 6.5, 40 + 19.5] and cx[6] == 40 + 78 + 8 + 6.5 and len(cx) == 12
    assert with_cache["rows"][0]["digits"] == "110000110000"
    # a prompt of 3 tokens: step 1 computes the three rows at once (prefill), either way
    p = compute("kv-cache", {"prompt": 3, "step": 1})["grids"][1]["rows"]
    assert [r["state"] for r in p[:4]] == ["new"] * 3 + ["future"]


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
