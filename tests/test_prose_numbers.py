"""The numbers the chapters quote about tokenisation (3), online softmax (4), padding and
cross-attention (8) are the numbers their widgets show: each sentence below is looked up in
the chapter with the value pycore computes written in, so a change on either side fails here.
Numbers the prose works out by hand (a gradient, a probability, a ratio) are recomputed below
with NumPy from their definitions and looked up the same way."""
import collections
from pathlib import Path

import numpy as np
import pytest

from pycore import bigram, example
from pycore.widgets import compute

BOOK = Path(__file__).resolve().parent.parent / "book"


def f3(x):
    return f"{x:.3f}"


def quotes():
    bpe0 = compute("bpe", {"k": 0})
    bpe1 = compute("bpe", {"k": 1})
    bpe = compute("bpe", {})
    bal = compute("bpe", {"corpus": "balanced"})
    it = [compute("online-softmax", {"step": s}) for s in (1, 2, 3)]
    tired = compute("online-softmax", {"query": "累", "step": 3})
    pad = compute("padding-mask", {})
    nopad = compute("padding-mask", {"mask": False})
    left = compute("padding-mask", {"mask": False, "causal": True, "side": "left"})
    cat = compute("cross-attention", {"step": 2})
    no = compute("cross-attention", {"step": 4})
    flat = compute("cross-attention", {"step": 2, "scale": 1.0})
    return [
        ("03-embeddings.md", f"就是 {bpe0['zh']['n_tokens']} 个 token；英文句子 56 个字符，"
                             f"{bpe0['en']['n_tokens']} 个 token"),
        ("03-embeddings.md", f"变成 {bpe1['en']['n_tokens']} 个 token"),
        ("03-embeddings.md", f"英文降到 {bpe['en']['n_tokens']} 个 token，中文只降到 "
                             f"{bpe['zh']['n_tokens']} 个"),
        ("03-embeddings.md", f"中文要花英文的 {bpe['ratio']:.2f} 倍"),
        ("03-embeddings.md", f"中文只要 {bal['zh']['n_tokens']} 个 token，英文 "
                             f"{bal['en']['n_tokens']} 个"),
        ("04-attention.md", "$l$ 依次是 " + "、".join(f3(v["l"]) for v in it)),
        ("04-attention.md", f"$1/{f3(it[2]['l'])}={it[2]['so_far'][0]:.4f}$"),
        ("04-attention.md", f"$e^{{-{f3(tired['m'])}}}={tired['eq']['scale'].split('= ')[-1][:5]}$"),
        ("04-attention.md", f"得到 {f3(tired['l'])}"),
        ("04-attention.md", f"要 {it[0]['memory']['full_text'].replace('.00', '')}；一块"),
        ("08-decoder.md", f"给自己的权重是 {f3(pad['self_weight'])}"),
        ("08-decoder.md", f"它给自己的权重跌到 {f3(nopad['self_weight'])}，5 个 pad 合计分走 "
                          f"{f3(nopad['pad_share'])}"),
        ("08-decoder.md", f"本该是 {f3(pad['outputs'][1][3])}，现在只剩 "
                          f"{f3(nopad['outputs'][1][3])}，少了 {f3(nopad['change'])}"),
        ("08-decoder.md", "依次是 " + "、".join(f3(x) for x in nopad["pad_weight"])),
        ("08-decoder.md", f"分走它 {f3(left['pad_share'])} 的注意力"),
        ("08-decoder.md", f"最大差是 {f3(pad['change'])}"),
        ("08-decoder.md", f"=0.765$，“马路”{f3(cat['second_weight'])}"),
        ("08-decoder.md", f"$e^{{2a}}/(e^{{2a}}+e^{{a}}+7)={f3(cat['attended_weight'])}$"),
        ("08-decoder.md", f"“没有”{f3(no['attended_weight'])}，“因为”“太”“了”各 "
                          f"{f3(no['weights'][4])}"),
        ("08-decoder.md", f"“小猫”只剩 {f3(flat['attended_weight'])}"),
    ]


@pytest.mark.parametrize("chapter,sentence", quotes())
def test_the_chapter_quotes_the_widget(chapter, sentence):
    text = (BOOK / chapter).read_text(encoding="utf-8")
    assert sentence in text, f"book/{chapter} should say {sentence!r} (pycore's numbers)"


# --- numbers the prose derives by hand, recomputed here with NumPy from their definitions ---

def softmax(z):
    e = np.exp(z - np.max(z))
    return e / e.sum()


def chapter_says(chapter, sentence):
    text = (BOOK / chapter).read_text(encoding="utf-8")
    assert sentence in text, f"book/{chapter} should say {sentence!r}"


def sci(x, digits=1):
    """4.6e-05 as the chapters write it: $4.6\\times10^{-5}$."""
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"${mantissa}\\times10^{{{int(exponent)}}}$"


def road_weight(w_q, scale):
    """马路's weight in the row of 它 (the semantic head): softmax of scale * q.k / sqrt(d)."""
    x = example.EMBEDDINGS
    q = x[example.TOKENS.index("它")] @ w_q
    return softmax(scale * x @ q / np.sqrt(x.shape[1]))[example.TOKENS.index("马路")]


def road_grad_norm(scale, h=1e-6):
    """|d p_马路 / d W_Q| (Frobenius), by central differences over W_Q's 36 entries."""
    w_q = example.semantic_head()[0]
    grad = np.zeros_like(w_q)
    for i, j in np.ndindex(*w_q.shape):
        step = np.zeros_like(w_q)
        step[i, j] = h
        grad[i, j] = (road_weight(w_q + step, scale) - road_weight(w_q - step, scale)) / (2 * h)
    return np.linalg.norm(grad)


def test_chapter_4_a_scale_of_6_sharpens_but_does_not_saturate():
    w_q = example.semantic_head()[0]
    slope = {c: road_weight(w_q, c) * (1 - road_weight(w_q, c)) for c in (1, 6, 20)}
    smaller = round(100 * (1 - slope[6] / slope[1]))
    ratio = road_grad_norm(6) / road_grad_norm(1)
    gap = 20 * (2 - 1) / np.sqrt(6)  # 小猫 scores 2, 马路 1 against the query of 它
    chapter_says("04-attention.md", f"缩放系数为 1 时是 {slope[1]:.3f}，取 6 时是 "
                                    f"{slope[6]:.3f}，小了 {smaller}%")
    chapter_says("04-attention.md", f"反倒是缩放系数为 1 时的 {ratio:.1f} 倍")
    chapter_says("04-attention.md", f"高出约 {gap:.1f}，这个导数才跌到约 {sci(slope[20], 0)}")


def test_chapter_2_the_softmax_derivative_carries_1_over_t():
    """eq:softmax-grad is the derivative with respect to the logits: a finite-difference
    Jacobian of softmax(z / T) matches (1/T) p_i (delta_ij - p_j), and the chapter's example
    numbers are its largest entries."""
    z = np.array([2.0, 1.0, 0.5, 0.0, -1.0])  # the softmax widget's default logits

    def jacobian(t, h=1e-7):
        return np.array([(softmax((z + h * e) / t) - softmax((z - h * e) / t)) / (2 * h)
                         for e in np.eye(len(z))]).T

    largest = {}
    for t in (1.0, 0.1):
        p = softmax(z / t)
        in_z_over_t = np.diag(p) - np.outer(p, p)
        np.testing.assert_allclose(jacobian(t), in_z_over_t / t, atol=1e-8)
        largest[t] = (np.abs(in_z_over_t).max(), np.abs(jacobian(t)).max())
    chapter_says("02-softmax.md", r"\frac{\partial p_i}{\partial z_j}=\frac{1}{T}\,p_i\left(")
    chapter_says("02-softmax.md", f"最大的一项约 {largest[1.0][1]:.3f}")
    chapter_says("02-softmax.md", f"最大只剩约 {sci(largest[0.1][0])}，乘上 $1/T=10$，"
                                  f"对 logits 的导数最大也只有约 {sci(largest[0.1][1])}")
    assert 500 <= largest[1.0][1] / largest[0.1][1] < 600  # 小了五百多倍
    chapter_says("02-softmax.md", "小了五百多倍")


def test_chapter_13_label_smoothing_spreads_epsilon_over_the_whole_vocabulary():
    """The smoothed target mixes the one-hot with the uniform distribution over all V tokens,
    the right one included (V = 37000, the original paper's shared English-German vocabulary)."""
    eps, v, right = 0.1, 37000, 0
    one_hot = np.zeros(v)
    one_hot[right] = 1  # (np.eye(v)[right] would first make a V x V matrix: 11 GB)
    target = (1 - eps) * one_hot + eps * np.full(v, 1 / v)
    assert np.isclose(target.sum(), 1)
    chapter_says("13-training.md", "正确答案的目标概率是 $1-\\epsilon+\\epsilon/\\lvert\\mathcal{V}\\rvert$，"
                                   "其余每个 token 是 $\\epsilon/\\lvert\\mathcal{V}\\rvert$")
    chapter_says("13-training.md", f"约有 {v} 个 token，正确答案的目标约为 {target[right]:.6f}，"
                                   f"其余每个 token 只有约 {sci(target[1])}")


def test_chapter_13_the_initial_loss_for_each_vocabulary():
    """ln V, the loss of a uniform guess, for GPT-2's, LLaMA-1's and Llama 3's vocabularies."""
    sizes = {50257: "$\\ln 50257\\approx {:.2f}$", 32000: "$\\lvert\\mathcal{{V}}\\rvert=32000$ 时约 {:.2f}",
             128256: "Llama 3 的 $\\lvert\\mathcal{{V}}\\rvert=128256$ 时约 {:.2f}"}
    for v, sentence in sizes.items():
        uniform = np.full(v, 1 / v)
        chapter_says("13-training.md", sentence.format(-np.log(uniform[0])))
    chapter_says("03-embeddings.md", "Llama 3 有 128,256 个 token")


def test_chapter_10_d_over_l_is_not_one_ratio():
    """GPT-2 small, LLaMA-7B and GPT-3 175B: d/L spans 64 to 128 while the models grow."""
    from pycore.params import PRESETS
    shape = {name: (PRESETS[name]["config"]["d_model"], PRESETS[name]["config"]["n_layers"])
             for name in ("GPT-2 small", "LLaMA-7B", "GPT-3 175B")}
    (d0, l0), (d1, l1) = shape["GPT-2 small"], shape["GPT-3 175B"]
    ratios = sorted(d / n for d, n in shape.values())
    grew = PRESETS["GPT-3 175B"]["published"] / PRESETS["GPT-2 small"]["published"]
    assert 1000 < grew < 2000  # 一千多倍
    chapter_says("10-parameters.md", "实际的模型并没有一个固定的比例")
    chapter_says("10-parameters.md", f"参数多了一千多倍，宽度涨了 {d1 // d0} 倍、层数涨了 "
                                     f"{l1 // l0} 倍，$d/L$ 却只是从 {ratios[0]:.0f} 变到 "
                                     f"{ratios[-1]:.0f}，翻了一倍")
    assert ratios[-1] == 2 * ratios[0]


def test_chapter_13_the_bigram_loop_on_four_poems():
    """The training-loop exercise's numbers, recomputed apart from pycore.bigram: the first
    four poems of the held-out file, a one-hot matrix per position (makemore's way), 100 steps
    of full-batch gradient descent at lr 50 from W = 0, and the floor from counted bigrams."""
    heldout = (Path(__file__).resolve().parent.parent / "pycore" / "poem_gpt_heldout.txt")
    text = "\n\n".join(heldout.read_text(encoding="utf-8").split("\n\n")[:4]) + "\n"
    assert text == bigram.TEXT  # the exercise trains on the book's own corpus
    chars = sorted(set(text))
    ids = np.array([chars.index(c) for c in text])
    X, Y = np.eye(len(chars))[ids[:-1]], np.eye(len(chars))[ids[1:]]

    def loss(W):
        z = X @ W
        return float(np.mean(np.log(np.exp(z).sum(axis=1)) - (z * Y).sum(axis=1)))

    W = np.zeros((len(chars), len(chars)))
    start = loss(W)
    for _ in range(100):
        p = np.exp(X @ W)
        p /= p.sum(axis=1, keepdims=True)
        W -= 50 * X.T @ (p - Y) / len(X)
    pairs = collections.Counter(zip(text, text[1:]))
    firsts = collections.Counter(text[:-1])
    floor = -sum(n * np.log(n / firsts[a]) for (a, _), n in pairs.items()) / (len(text) - 1)
    assert floor < loss(W) < start
    assert (bigram.STEPS, bigram.LR) == (100, 50.0)
    chapter_says("13-training.md", f"连标点和换行共 {len(text)} 个字符，其中不同的字有 "
                                   f"{len(chars)} 个")
    chapter_says("13-training.md", f"$\\ln {len(chars)}\\approx {start:.3f}$")
    chapter_says("13-training.md", f"$N={len(text) - 1}$")
    chapter_says("13-training.md", f"走 100 步之后损失降到 {loss(W):.3f}")
    chapter_says("13-training.md", f"得到的表损失是 {floor:.3f}")
