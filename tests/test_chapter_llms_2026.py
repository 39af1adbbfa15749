"""Every number chapter 10b states is what pycore computes: each sentence below is looked up in
the chapter with pycore's value written in, so a change on either side fails here. The sizes
of the stated configurations are recomputed from their definitions (pycore/moe.py,
pycore/params.py) beside the widgets' views."""
from pathlib import Path

import pytest

from pycore import moe
from pycore.widgets import compute

CHAPTER_DIR = Path(__file__).resolve().parent.parent / "book"
CHAPTER = (CHAPTER_DIR / "10b-llms-2026.md").read_text(
    encoding="utf-8")
MIXTRAL = {"d_model": 4096, "n_layers": 32, "vocab": 32000, "d_ff": 14336, "n_heads": 32,
           "n_kv_heads": 8}


def f3(x):
    return f"{x:.3f}"


def moe_quotes():
    v = compute("moe-router", {})
    e = v["experts"]
    hot = compute("moe-router", {"temperature": 4.0})
    cold = compute("moe-router", {"temperature": 0.25})
    top1 = compute("moe-router", {"k": 1})
    function_words = [v["routes"][i] for i in (1, 4, 6, 8)]   # 没有 因为 太 了
    assert len(set(function_words)) == 1
    first, second = function_words[0].split(" · ")
    busiest = v["loads"].index(v["busiest"])
    dense = moe.sizes(**MIXTRAL, experts=1, k=1)["total"]
    s = moe.sizes(**MIXTRAL, experts=8, k=2)
    assert hot["loads"] == v["loads"] and hot["chosen"] == v["chosen"]  # T keeps the order
    return [
        "负载依次是 " + "、".join(str(x) for x in v["loads"][:e]),
        f"{['零', '一', '两', '三'][v['idle']]}个专家一个词都没接到，最忙的 E{busiest + 1} 接了 "
        f"{v['busiest']} 个，而均衡时每个专家该接 {v['balanced']:.2f} 个；均衡损失是 {f3(v['loss'])}",
        f"一起去了 {first.split()[0]} 和 {second.split()[0]}，门控都是 {first.split()[1]} 和 "
        f"{second.split()[1]}",
        f"门控变成 {hot['routes'][1].split(' · ')[0].split()[1]} 和 "
        f"{hot['routes'][1].split(' · ')[1].split()[1]}），$P_i$ 也更均匀，均衡损失降到 {f3(hot['loss'])}",
        f"损失升到 {f3(cold['loss'])}",
        f"负载更挤，损失是 {f3(top1['loss'])}",
        f"一个专家 {s['expert']:,} 个参数",
        f"合计约 {s['shared'] / 1e8:.1f} 亿",
        rf"$n_{{\text{{专家}}}}=8$ 时是 {v['total']:,}，约 {v['total_text']}",
        f"$k=2$ 时只有 {v['active']:,}，约 {v['active_text']}，是总数的 {100 * v['active_share']:.1f}%",
        f"按 {v['active_text'][:-1]}B 算，显存却要按 {v['total_text'][:-1]}B 准备",
        f"是 {dense / 1e9:.2f}B，八个专家却只有 {v['total_text']} 而不是 {8 * dense / 1e9:.1f}B",
    ]



def kv_quotes():
    from pycore import params
    mha = compute("kv-heads", {"kv_heads": 32})
    gqa = compute("kv-heads", {"kv_heads": 8})
    mqa = compute("kv-heads", {"kv_heads": 1})
    mla = compute("kv-heads", {"mla": True})
    llama = params.count(**params.PRESETS["LLaMA-7B"]["config"])["total"]
    assert mha["total"] > 2 * llama          # "比 fp16 的 7B 权重还大"
    return [
        f"MHA 时每个 token 要存 {mha['per_token_text']}，32K（{mha['context']:,}）个 token 的上下文"
        f"就是 {mha['total_text']}，比 fp16 的 7B 权重（约 {2 * llama / 1e9:.1f} GB）还大",
        f"8 个键值头（每 {gqa['group']} 个查询头共用一个）是四分之一，{gqa['per_token_text']}、"
        f"整段 {gqa['total_text']}",
        f"MQA 只剩 {mqa['per_token_text']}、{mqa['total_text']}",
        f"每个 token 是 {mla['per_token_text']}，是 MHA 的 {mla['vs_mha']:.4f} 倍，整段 "
        f"{mla['total_text']}",
        f"只有 $576/256={mla['per_token'] / mqa['per_token']:.2f}$ 组键值头的 GQA",
    ]



def window_quotes():
    one = compute("sliding-window", {"layers": 1})
    two = compute("sliding-window", {})
    three = compute("sliding-window", {"layers": 3})
    wide = compute("sliding-window", {"w": 5, "layers": 1})
    w = dict(zip([c["label"] for c in one["heat"]["cols"]], one["weights"]))
    assert w["因为"] == pytest.approx(w["它"]) and w["小猫"] == 0
    return [
        f"“它”在一层里只看得到{one['seen_text'].replace('、它', '、它自己')}",
        f"权重是马路 {f3(w['马路'])}，因为和它各 {f3(w['它'])}",
        f"叠两层，感受野是 {two['field']} 个词，最远到“{two['first']}”",
        f"叠到三层，感受野变成 {three['field']}，“{three['first']}”的信息终于有路可走",
        f"“小猫”直接回到“它”的窗口里，权重 {f3(wide['weights'][0])}",
        f"$32\\times4096={32 * 4096}$",
    ]



def rope_and_vocab_quotes():
    from pycore import positional
    v = compute("rope-scaling", {})
    waves = 2 * 3.141592653589793 / positional.frequencies(128)
    ch3 = (CHAPTER_DIR / "03-embeddings.md").read_text(encoding="utf-8")
    for fact in ("32,000", "128,256", "约 15 万", "256,000"):         # the table is chapter 3's
        assert fact in ch3
    llama3 = 128256 * 4096
    return [
        f"约 {waves[0]:.1f} 个 token 转一圈；最慢的一对要 {int(waves[-1]) // 10000} 万多个 token",
        f"64 对里有 {v['slow_pairs']} 对在训练中连一圈都没转完（波长超过 {v['train_len']}）",
        f"拉长 8 倍读 {v['stretched_text']} 个 token",
        f"波长也从 {v['fastest'][0]:.1f} 变成 {v['fastest'][1]:.1f}",
        f"NTK 的底数变成约 {v['ntk_base']:,.0f}",
        f"最慢一对从约 {v['slowest'][0]:,.0f} 变成约 {v['slowest'][2]:,.0f}",
        f"YaRN 保留 {v['yarn_kept']} 对、插值 {v['yarn_interpolated']} 对，中间 {v['yarn_ramp']} "
        f"对按比例过渡，$\\mathbf{{q}}$ 和 $\\mathbf{{k}}$ 各乘 {v['yarn_factor']:.3f}",
        f"输入和输出两张表各有 {llama3:,} 个参数，合计约 {2 * llama3 / 1e8:.1f} 亿",
        f"换成 32,000 的词表只要约 {2 * 32000 * 4096 / 1e8:.1f} 亿",
        "| GPT-2 | 50,257 |", "| Llama 3 | 128,256 |", "| Gemma | 256,000 |",
        "46.70B，每个 token 只激活 12.88B",
    ]


QUOTES = moe_quotes() + kv_quotes() + window_quotes() + rope_and_vocab_quotes()


@pytest.mark.parametrize("text", QUOTES)
def test_the_chapter_says_pycore_s_numbers(text):
    assert text in CHAPTER, f"chapter 10b no longer says {text!r}"
