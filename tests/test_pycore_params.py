"""Parameter counts against the published exact figures and a tensor-by-tensor tally."""
import math

import pytest

from pycore import params as P


def gpt2_tensors(d, L, V, ctx):
    """Shapes of every tensor in a GPT-2 checkpoint (wte, wpe, h.i.*, ln_f)."""
    shapes = [(V, d), (ctx, d)]
    for _ in range(L):
        shapes += [(d,), (d,),                     # ln_1 weight, bias
                   (d, 3 * d), (3 * d,),           # attn.c_attn (Q, K, V together)
                   (d, d), (d,),                   # attn.c_proj
                   (d,), (d,),                     # ln_2
                   (d, 4 * d), (4 * d,),           # mlp.c_fc
                   (4 * d, d), (d,)]               # mlp.c_proj
    return shapes + [(d,), (d,)]                   # ln_f


def llama_tensors(d, L, V, d_ff, n_heads, n_kv):
    dh = d // n_heads
    shapes = [(V, d)]                              # embed_tokens
    for _ in range(L):
        shapes += [(d, d), (d, n_kv * dh), (d, n_kv * dh), (d, d),   # q, k, v, o
                   (d, d_ff), (d, d_ff), (d_ff, d),                  # gate, up, down
                   (d,), (d,)]                                       # two RMSNorms
    return shapes + [(d,), (V, d)]                 # final norm, lm_head


def tally(shapes):
    return sum(math.prod(s) for s in shapes)


def test_gpt2_small_exact():
    assert tally(gpt2_tensors(768, 12, 50257, 1024)) == 124_439_808
    c = P.count(**P.PRESETS["GPT-2 small"]["config"])
    assert c["total"] == 124_439_808
    assert c["per_layer"] == 7_087_872  # 12 d^2 + 13 d at d = 768
    assert c["token_embedding"] == 50257 * 768 and c["position_embedding"] == 786_432


def test_gpt2_xl_exact():
    assert tally(gpt2_tensors(1600, 48, 50257, 1024)) == 1_557_611_200
    assert P.count(**P.PRESETS["GPT-2 XL"]["config"])["total"] == 1_557_611_200


def test_llama_7b_exact():
    assert tally(llama_tensors(4096, 32, 32000, 11008, 32, 32)) == 6_738_415_616
    c = P.count(**P.PRESETS["LLaMA-7B"]["config"])
    assert c["total"] == 6_738_415_616
    assert c["output"] == c["token_embedding"] == 131_072_000  # untied


def test_llama2_70b_gqa():
    expected = tally(llama_tensors(8192, 80, 32000, 28672, 64, 8))
    assert expected == 68_976_648_192
    assert P.count(**P.PRESETS["LLaMA-2-70B"]["config"])["total"] == expected


def test_bert_base_with_pooler():
    d, L = 768, 12
    emb = 30522 * d + 512 * d + 2 * d + 2 * d      # word, position, token type, LayerNorm
    layer = 4 * (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * 2 * d
    pooler = d * d + d
    assert emb + L * layer + pooler == 109_482_240
    assert P.count(**P.PRESETS["BERT-base"]["config"])["total"] == 109_482_240


def test_gpt3_by_hand():
    d, L = 12288, 96
    by_hand = 50257 * d + 2048 * d + L * (12 * d * d + 13 * d) + 2 * d
    assert P.count(**P.PRESETS["GPT-3 175B"]["config"])["total"] == by_hand
    assert abs(by_hand / 175e9 - 1) < 0.01


def test_estimate_formula_and_errors():
    assert P.estimate(768, 12, 50257) == 12 * 12 * 768 ** 2 + 50257 * 768 == 123_532_032
    assert P.estimate(768, 12, 50257, d_ff=2 * 768) == 12 * (4 + 4) * 768 ** 2 + 50257 * 768
    c = P.compare("GPT-2 small")
    assert c["estimate_rel_error"] == pytest.approx((123_532_032 - 124e6) / 124e6)
    assert abs(c["exact_rel_error"]) < 0.01
    for name in P.PRESETS:  # the rough formula lands within 10 % of every published count
        assert abs(P.compare(name)["estimate_rel_error"]) < 0.1


def test_switches():
    base = dict(d_model=64, n_layers=2, vocab=100)
    c = P.count(**base)
    assert c["total"] == 100 * 64 + 2 * (12 * 64 * 64 + 13 * 64) + 2 * 64
    assert P.count(**base, tied=False)["total"] - c["total"] == 100 * 64
    assert c["total"] - P.count(**base, bias=False)["total"] == 2 * (4 * 64 + 4 * 64 + 64)
    rms = P.count(**base, norm="rmsnorm")["total"]
    assert c["total"] - rms == 5 * 64  # 2 layers x 2 norms + final, each loses its beta
    swi = P.count(**base, mlp="swiglu", d_ff=128, bias=False)
    assert swi["mlp"] == 2 * 3 * 64 * 128
    with pytest.raises(ValueError):
        P.count(**base, norm="batchnorm")


# --- the widget's view: where the parameters are, the presets' errors ----------------------

def test_param_count_view_stacks_the_exact_count():
    from pycore.widgets import compute
    v = compute("param-count", {"preset": "GPT-2 small"})
    d, layers = 768, 12
    # by hand: the two tables, four d x d matrices and their biases, the MLP, three LayerNorms
    groups = [50257 * d + 1024 * d, layers * (4 * d * d + 4 * d),
              layers * (2 * d * 4 * d + 4 * d + d), layers * 4 * d + 2 * d, 0]
    assert sum(groups) == 124_439_808
    segs = v["where"]["segments"]
    assert [s["value"] for s in segs] == groups
    shares = [560 * g / 124_439_808 for g in groups]
    assert [s["w"] for s in segs] == [pytest.approx(w, abs=0.006) for w in shares]
    assert segs[3]["text"] == "0.03 %" and segs[2]["text"] == "45.5 %"
    assert [p["name"] for p in v["parts"]][:2] == ["词嵌入 |𝒱|·d", "位置嵌入表"]


def test_param_count_view_draws_each_presets_error():
    from pycore.widgets import compute
    rows = compute("param-count", {"preset": "GPT-3 175B"})["errors"]["rows"]
    gpt3 = rows[3]
    est = 12 * 96 * 12288 ** 2 + 50257 * 12288  # 174,563,733,504 against the published 175B
    assert gpt3["value"] == pytest.approx(100 * (est - 175e9) / 175e9) and gpt3["text"] == "-0.25 %"
    assert [r["on"] for r in rows] == [False, False, False, True, False, False]
    assert all(r["value"] < 0 for r in rows)  # every estimate is short of the published count
    longest = max(rows, key=lambda r: r["w"])
    assert longest["label"] == "LLaMA-2-70B · 70B" and longest["text"] == "-7.59 %"
