"""Chapter 15, the exam: a whole Pre-LN Transformer block from scratch, checked against
pycore/block.py's block_forward (same weights dict as init_block)."""
from functools import partial

import numpy as np

from .. import block
from . import draw
from .spec import Case, Exercise, Mistake, program

SIGNATURE = "block_forward(x, w, n_heads, causal=False)"

DOC = """
一个 Pre-LN 的 Transformer 块，(B, T, D) -> (B, T, D)：
    x = x + MultiHeadAttention(LayerNorm1(x))
    x = x + FFN(LayerNorm2(x))

x: (B, T, D)。n_heads: 头数 H，Dh = D // H。causal=True 时加因果掩码。
w: 参数字典（和 pycore.block.init_block 给出的一样）：
    "W_Q", "W_K", "W_V", "W_O": (D, D)，注意力的投影没有偏置；
    "W_1": (D, F), "b_1": (F,), "W_2": (F, D), "b_2": (D,)：FFN 是 relu(h W_1 + b_1) W_2 + b_2；
    "ln1_gamma", "ln1_beta", "ln2_gamma", "ln2_beta": (D,)：两个 LayerNorm 的参数。
LayerNorm 沿最后一维，有偏方差，eps = 1e-5 加在根号里。
多头：Q = h W_Q 拆成 H 个头（每个头拿连续的 Dh 列），每个头的分数除以 sqrt(Dh)，
各头的输出拼回 (B, T, D) 后乘 W_O。
"""

HELPERS = '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)  # 有偏方差
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def multi_head_attention(h, w, n_heads, causal):
    B, T, D = h.shape
    Dh = D // n_heads
    def split(a):  # (B, T, D) -> (B, H, T, Dh)
        return a.reshape(B, T, n_heads, Dh).transpose(0, 2, 1, 3)
    q, k, v = split(h @ w["W_Q"]), split(h @ w["W_K"]), split(h @ w["W_V"])
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(Dh)  # (B, H, T, T)
    if causal:
        allowed = np.tril(np.ones((T, T), dtype=bool))  # 键 j <= 查询 i
        scores = np.where(allowed, scores, -np.inf)
    heads = softmax(scores) @ v  # (B, H, T, Dh)
    merged = heads.transpose(0, 2, 1, 3).reshape(B, T, D)  # 拼回 (B, T, D)
    return merged @ w["W_O"]


def feed_forward(h, w):
    hidden = np.maximum(h @ w["W_1"] + w["b_1"], 0.0)  # (B, T, F)
    return hidden @ w["W_2"] + w["b_2"]
'''

SOLUTION = """
if x.shape[-1] % n_heads != 0:
    raise ValueError(f"d_model={x.shape[-1]} 不能被 n_heads={n_heads} 整除")
h = layer_norm(x, w["ln1_gamma"], w["ln1_beta"])
x = x + multi_head_attention(h, w, n_heads, causal)  # 第一条残差
h = layer_norm(x, w["ln2_gamma"], w["ln2_beta"])
return x + feed_forward(h, w)  # 第二条残差
"""


def reference(x, w, n_heads, causal=False):
    return block.block_forward(x, w, n_heads, causal)


# --- wrong answers, built from pycore/block.py's parts ---------------------------------

def _ln(x, w, name, ddof=0):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=ddof)
    return w[name + "_gamma"] * (x - mean) / np.sqrt(var + 1e-5) + w[name + "_beta"]


def _attend(h, w, n_heads, causal):
    return block.multi_head_attention(h, w, n_heads, causal)[0]


def _ffn(h, w, relu=True):
    hidden = h @ w["W_1"] + w["b_1"]
    return (np.maximum(hidden, 0.0) if relu else hidden) @ w["W_2"] + w["b_2"]


def _pre_ln(x, w, n_heads, causal=False, ln=_ln, attend=_attend, ffn=_ffn,
            norms=("ln1", "ln2")):
    x = x + attend(ln(x, w, norms[0]), w, n_heads, causal)
    return x + ffn(ln(x, w, norms[1]), w)


def _post_ln(x, w, n_heads, causal=False):
    x = _ln(x + _attend(x, w, n_heads, causal), w, "ln1")
    return _ln(x + _ffn(x, w), w, "ln2")


def _no_residual(x, w, n_heads, causal=False):
    x = _attend(_ln(x, w, "ln1"), w, n_heads, causal)
    return _ffn(_ln(x, w, "ln2"), w)


def _residual_from_normed(x, w, n_heads, causal=False):
    h = _ln(x, w, "ln1")
    x = h + _attend(h, w, n_heads, causal)
    h = _ln(x, w, "ln2")
    return h + _ffn(h, w)


def _no_second_norm(x, w, n_heads, causal=False):
    x = x + _attend(_ln(x, w, "ln1"), w, n_heads, causal)
    return x + _ffn(x, w)


def _scale_by_d_model(x, w, n_heads, causal=False):
    d = x.shape[-1]
    scaled = {**w, "W_Q": w["W_Q"] * np.sqrt((d // n_heads) / d)}  # scores / sqrt(D)
    return block.block_forward(x, scaled, n_heads, causal)


def _one_head(h, w, n_heads, causal):
    return _attend(h, w, 1, causal)


# --- cases -----------------------------------------------------------------------------

def _weights(rng, d, n_heads, d_ff):
    """init_block's weights, with LayerNorm parameters and biases moved away from 1 and 0 so
    that an answer that skips them cannot pass."""
    w = block.init_block(d, n_heads, d_ff, seed=int(rng.integers(2**31)))
    for name in ("ln1_gamma", "ln2_gamma"):
        w[name] = 1.0 + 0.5 * rng.normal(size=d)
    for name in ("ln1_beta", "ln2_beta", "b_2"):
        w[name] = 0.5 * rng.normal(size=d)
    w["b_1"] = 0.5 * rng.normal(size=d_ff)
    return w


def _case(name, seed, B, T, D, H, F, causal=False, **extra):
    rng = np.random.default_rng(seed)
    inputs = {"x": rng.normal(size=(B, T, D)), "w": _weights(rng, D, H, F), "n_heads": H,
              "causal": causal}
    return Case(name, inputs, **extra)


def _random(rng):
    cases = []
    for T in draw.sizes(rng, high=5):
        D = int(rng.choice([2, 4, 6, 8, 12]))
        H, F, B = draw.divisor(rng, D), D * int(rng.choice([1, 2, 4])), int(rng.integers(1, 3))
        causal = bool(rng.random() < 0.5)
        inputs = {"x": draw.values(rng, (B, T, D), scale=float(rng.choice([0.5, 1.0, 3.0]))),
                  "w": _weights(rng, D, H, F), "n_heads": H, "causal": causal}
        label = "因果" if causal else "无掩码"
        cases.append(Case(f"B={B}，T={T}，D={D}，{H} 个头，F={F}，{label}", inputs))
    return cases


def _large(rng):
    return Case("代码实验室的配置：(2, 32, 128)，8 个头，F=512，因果",
                {"x": rng.normal(size=(2, 32, 128)), "w": _weights(rng, 128, 8, 512),
                 "n_heads": 8, "causal": True})


EXERCISE = Exercise(
    id="transformer-block",
    chapter=15,
    title="手撕一个 Pre-LN Transformer 块",
    signature=SIGNATURE,
    statement=(
        "不看书，只用 NumPy 写出整个 Pre-LN 块 block_forward(x, w, n_heads, causal=False)："
        "x + 多头注意力(LN1(x))，再 x + FFN(LN2(x))，参数字典和 pycore.block.init_block 的一样。"
        "可以自己写辅助函数。检查的内容：2 个头的小块（有掩码和没有掩码）、长度为 1、"
        "一个头、每个头一维、d_model 不能被头数整除，以及一批随机的形状和参数（LayerNorm 的 "
        "gamma、beta 和偏置都不是 1 和 0），最后还有代码实验室的配置。"),
    starter=program(SIGNATURE, DOC, "raise NotImplementedError"),
    solution=program(SIGNATURE, DOC, SOLUTION, before=HELPERS),
    hints=(
        "从小函数写起：layer_norm、softmax、multi_head_attention、feed_forward，"
        "每写完一个就对照形状检查一遍。",
        "Pre-LN 的 LayerNorm 在子层之前，残差加的是没有归一化的 x：x = x + attn(ln1(x))。",
        "多头的关键是形状：(B, T, D) → reshape (B, T, H, Dh) → transpose (B, H, T, Dh)，"
        "分数 (B, H, T, T) 除以 sqrt(Dh)。",
    ),
    reference=reference,
    reference_name="pycore.block.block_forward",
    rtol=1e-8,
    atol=1e-10,
    fixed=[
        _case("B=1，T=3，D=4，2 个头", 1, 1, 3, 4, 2, 8),
        _case("同样的块加上因果掩码", 1, 1, 3, 4, 2, 8, causal=True),
        _case("长度为 1", 2, 2, 1, 4, 2, 8, causal=True),
        _case("只有一个头", 3, 1, 4, 6, 1, 12),
        _case("每个头一维（H = D）", 4, 1, 3, 4, 4, 4, causal=True),
        _case("批大小 2，T=5，D=8，2 个头，因果", 5, 2, 5, 8, 2, 32, causal=True, hard=True),
        Case("d_model=6 不能被 4 个头整除",
             {**_case("", 6, 1, 2, 6, 2, 12).inputs, "n_heads": 4}, raises=ValueError,
             note="6 维分不成 4 个一样宽的头：应该 raise ValueError(...)。"),
    ],
    random=_random,
    timing=_large,
    mistakes=[
        Mistake("ignores-causal", lambda x, w, n_heads, causal=False: reference(x, w, n_heads),
                "causal=True 时你的结果和不加掩码一样：把 causal 传给注意力，在 softmax 之前"
                "把未来位置的分数设成 -inf。"),
        Mistake("post-ln", _post_ln,
                "你写成了 Post-LN：LayerNorm(x + 子层(x))。这道题是 Pre-LN：先归一化再进子层，"
                "残差加的是原来的 x：x = x + attn(ln1(x))。"),
        Mistake("no-residual", _no_residual,
                "你忘了残差连接：子层的输出要加回到 x 上，x = x + attn(ln1(x))，"
                "x = x + ffn(ln2(x))。"),
        Mistake("residual-from-normed", _residual_from_normed,
                "残差加的是归一化之后的 h：h + attn(h)。Pre-LN 的残差要加没有归一化的 x："
                "x = x + attn(ln1(x))。"),
        Mistake("no-second-norm", _no_second_norm,
                "FFN 前面少了第二个 LayerNorm：x = x + ffn(ln2(x))。"),
        Mistake("same-norm-twice", partial(_pre_ln, norms=("ln1", "ln1")),
                "两个 LayerNorm 用的是同一组参数 ln1。FFN 前面要用 ln2_gamma 和 ln2_beta。"),
        Mistake("unbiased-variance", partial(_pre_ln, ln=partial(_ln, ddof=1)),
                "LayerNorm 用了无偏方差（除以 D - 1），应该除以 D：x.var(axis=-1, keepdims=True)。"),
        Mistake("one-head", partial(_pre_ln, attend=_one_head),
                "你的注意力只有一个头（没有拆分 D，分数除以 sqrt(D)）。要把 Q、K、V 拆成 n_heads "
                "个头，每个头的分数除以 sqrt(Dh)。"),
        Mistake("scale-by-d-model", _scale_by_d_model,
                "头拆对了，但分数除以的是 sqrt(D)。每个头的维数是 Dh = D // H，要除以 sqrt(Dh)。"),
        Mistake("no-relu", partial(_pre_ln, ffn=partial(_ffn, relu=False)),
                "FFN 中间少了 ReLU：relu(h W_1 + b_1) W_2 + b_2。没有激活函数，两层线性变换"
                "就合成了一层。"),
    ],
)

EXERCISES = [EXERCISE]
