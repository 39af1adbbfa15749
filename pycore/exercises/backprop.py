"""Chapter 13: two backward passes by hand, the gradient of softmax cross-entropy with respect
to the logits (pycore.gpt.model.cross_entropy_backward) and one causal attention head's
(pycore.attention.attention_backward).

The fixed cases are checked against pycore; the random ones against central finite
differences of the forward pass, computed here apart from pycore's backward, so an answer
has to agree with the definition of a gradient, not only with another implementation of it.
"""
import numpy as np

from .. import attention as att
from ..gpt import model
from ..softmax import softmax
from . import draw
from .spec import Case, Exercise, Mistake, program

A = np.array
H = 1e-5  # finite-difference step: rounding error ~ 1e-16 |f| / H stays far below the atol


def numerical_gradient(f, array):
    """df/d(array) by central differences, one entry at a time (array is changed and put
    back)."""
    grad = np.zeros_like(array)
    for index in np.ndindex(array.shape):
        kept = array[index]
        array[index] = kept + H
        up = f()
        array[index] = kept - H
        down = f()
        array[index] = kept
        grad[index] = (up - down) / (2 * H)
    return grad


# --- softmax cross-entropy: dL/dz ----------------------------------------------------------

CE_DOC = """
softmax 交叉熵对 logits 的梯度（一批样本，损失取平均）。

logits: (N, V)，每行是一个样本对 V 个类别的 logits；targets: (N,) 整数，每个样本的正确类别。
损失 L = -(1/N) * sum_i log softmax(logits[i])[targets[i]]。
返回 dL/dlogits，形状 (N, V)：(softmax(logits) - onehot(targets)) / N。
"""

CE_SOLUTION = """
N = logits.shape[0]
z = logits - np.max(logits, axis=-1, keepdims=True)  # 每行减去最大值，exp 不会溢出
p = np.exp(z)
p = p / np.sum(p, axis=-1, keepdims=True)  # (N, V)：每行的 softmax
p[np.arange(N), targets] -= 1.0  # 减去 one-hot：正确类别那一格减 1
return p / N  # 损失是 N 个样本的平均，梯度也要除以 N
"""

CE_SIGNATURE = "cross_entropy_grad(logits, targets)"


def ce_reference(logits, targets):
    n = len(targets)
    return model.cross_entropy_backward(np.asarray(logits, dtype=float), targets,
                                        np.full(n, 1.0 / n))


def ce_numerical(logits, targets):
    """dL/dlogits of the mean cross-entropy, by finite differences of the loss alone."""
    z = np.array(logits, dtype=float)
    weights = np.full(len(targets), 1.0 / len(targets))
    return numerical_gradient(lambda: model.cross_entropy(z, targets, weights), z)


def _ce_case(name, logits, targets, **kw):
    return Case(name, {"logits": A(logits, dtype=float), "targets": A(targets)}, **kw)


def _ce_random(rng):
    cases = []
    for size in draw.sizes(rng, high=9):
        n, v = int(rng.integers(1, size + 1)), int(rng.integers(2, size + 2))
        cases.append(Case(f"{n} 个样本、{v} 个类别（期望值由有限差分算出）",
                          {"logits": draw.values(rng, (n, v)),
                           "targets": rng.integers(0, v, size=n)},
                          expect=ce_numerical))
    return cases


def _ce_large(rng):
    return Case("512 个样本、2000 个类别", {"logits": rng.normal(0.0, 3.0, size=(512, 2000)),
                                         "targets": rng.integers(0, 2000, size=512)})


def _ce_sign(logits, targets):
    return -ce_reference(logits, targets)


def _ce_sum(logits, targets):
    return ce_reference(logits, targets) * len(targets)


def _ce_axis0(logits, targets):
    p = softmax(np.asarray(logits, dtype=float), axis=0)
    p[np.arange(len(targets)), targets] -= 1.0
    return p / len(targets)


def _ce_no_onehot(logits, targets):
    return softmax(np.asarray(logits, dtype=float), axis=-1) / len(targets)


CROSS_ENTROPY = Exercise(
    id="cross-entropy-grad",
    chapter=13,
    title="交叉熵对 logits 的梯度",
    signature=CE_SIGNATURE,
    statement=(
        "写函数 cross_entropy_grad(logits, targets)：一批 N 个样本的平均交叉熵损失，对 logits "
        "求梯度，返回形状 (N, V) 的数组。检查的内容：手算得出的一个样本、两个样本（梯度要除以 "
        "N）、目标重复的一批、logits 为 ±1000、只有一个类别；随机用例的正确答案不是抄 pycore "
        "的，而是把损失函数每个输入挪动一点点、用有限差分量出来的。"),
    starter=program(CE_SIGNATURE, CE_DOC, "raise NotImplementedError"),
    solution=program(CE_SIGNATURE, CE_DOC, CE_SOLUTION),
    hints=(
        "先对每一行做（数值稳定的）softmax，得到 (N, V) 的概率；正确类别那一格再减去 1。",
        "花式索引 p[np.arange(N), targets] 一次取出每一行正确类别的那一格。",
        "损失是 N 个样本的平均，所以每个样本的梯度都要乘上 1/N。",
    ),
    reference=ce_reference,
    reference_name="pycore.gpt.model.cross_entropy_backward (weights 1/N)",
    fixed=[
        _ce_case("一个样本、三个类别", [[1.0, 2.0, 3.0]], [2],
                 note="N = 1 时梯度就是 softmax(z) 减去正确类别的 one-hot：正确那一格为负，"
                      "其余为正，一行的和为 0。"),
        _ce_case("两个样本：别忘了除以 N", [[0.0, 0.0], [1.0, -1.0]], [0, 1],
                 note="损失是两个样本的平均，每一行的梯度都要再乘 1/2。"),
        _ce_case("三个样本，目标相同", [[2.0, 0.5, -1.0], [0.0, 0.0, 0.0], [-3.0, 1.0, 4.0]],
                 [1, 1, 1]),
        _ce_case("logits 为 ±1000", [[1000.0, -1000.0, 999.0], [-1000.0, -999.0, -1000.0]],
                 [2, 0], hard=True,
                 note="exp(1000) 会溢出：softmax 要先减去每行的最大值。"),
        _ce_case("只有一个类别", [[5.0], [-2.0]], [0, 0],
                 note="只有一个类别时概率恒为 1，损失恒为 0，梯度全是 0。"),
    ],
    random=_ce_random,
    timing=_ce_large,
    rtol=1e-6,
    atol=1e-7,
    nonfinite_hint=(
        "softmax 里的 exp(1000) 溢出成 inf，inf/inf 得到 nan。先减去每行的最大值 "
        "np.max(logits, axis=-1, keepdims=True) 再取 exp。"),
    mistakes=[
        Mistake("wrong-sign", _ce_sign,
                "你的梯度方向反了：应该是 softmax 减 one-hot，不是 one-hot 减 softmax。"
                "正确类别的 logit 上梯度为负（梯度下降时它被往上推）。"),
        Mistake("no-mean", _ce_sum,
                "你的梯度大了 N 倍：损失是 N 个样本的平均，梯度要除以 N（logits.shape[0]）。"),
        Mistake("softmax-axis-0", _ce_axis0,
                "你沿第 0 维（跨样本）做了 softmax。每个样本自己的一行才是一个分布："
                "沿 axis=-1 做，并带上 keepdims=True。"),
        Mistake("no-onehot", _ce_no_onehot,
                "你忘了减去 one-hot：正确类别那一格要减 1，否则梯度只会把所有 logits 一起往下压。"),
    ],
)


# --- one causal attention head: dq, dk, dv -------------------------------------------------

ATT_DOC = """
单个因果注意力头的反向传播。

前向：S = q @ k.T / sqrt(d_k)；第 i 行只保留 j <= i 的位置（其余设为 -inf）；
W = softmax(S)（按行）；out = W @ v。
q, k: (n, d_k)；v: (n, d_v)；d_out: (n, d_v)，是损失对 out 的梯度。
返回 (dq, dk, dv)，形状分别与 q、k、v 相同。
"""

ATT_SOLUTION = """
n, d_k = q.shape
S = q @ k.T / np.sqrt(d_k)  # (n, n)
S = np.where(np.tril(np.ones((n, n), dtype=bool)), S, -np.inf)  # 看不到未来
S = S - np.max(S, axis=-1, keepdims=True)
W = np.exp(S)
W = W / np.sum(W, axis=-1, keepdims=True)  # (n, n)，被遮住的位置为 0
dv = W.T @ d_out  # (n, d_v)
dW = d_out @ v.T  # (n, n)
dS = W * (dW - np.sum(dW * W, axis=-1, keepdims=True))  # softmax 的反向，按行
dS = dS / np.sqrt(d_k)  # 缩放也要反向传回去
dq = dS @ k  # (n, d_k)
dk = dS.T @ q  # (n, d_k)
return dq, dk, dv
"""

ATT_SIGNATURE = "attention_backward(q, k, v, d_out)"


def att_reference(q, k, v, d_out):
    weights, _, _ = att.attention(q, k, v, causal=True)
    return att.attention_backward(np.asarray(d_out, dtype=float), np.asarray(q, dtype=float),
                                  np.asarray(k, dtype=float), np.asarray(v, dtype=float),
                                  weights)


def att_numerical(q, k, v, d_out):
    """(dq, dk, dv) of sum(out * d_out), by finite differences of the forward pass alone."""
    q, k, v = (np.array(a, dtype=float) for a in (q, k, v))
    f = lambda: float(np.sum(att.attention(q, k, v, causal=True)[1] * d_out))
    return tuple(numerical_gradient(f, a) for a in (q, k, v))


def _att_inputs(rng, n, d_k, d_v, scale=1.0):
    return {"q": rng.normal(0.0, scale, (n, d_k)), "k": rng.normal(0.0, scale, (n, d_k)),
            "v": rng.normal(0.0, scale, (n, d_v)), "d_out": rng.normal(0.0, 1.0, (n, d_v))}


def _att_random(rng):
    cases = []
    for n in draw.sizes(rng, high=7):
        d_k, d_v = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        scale = (0.3, 1.0, 3.0)[int(rng.integers(3))]
        cases.append(Case(f"n={n}，d_k={d_k}，d_v={d_v}（期望值由有限差分算出）",
                          _att_inputs(rng, n, d_k, d_v, scale), expect=att_numerical))
    return cases


def _att_large(rng):
    return Case("n=256，d_k=d_v=64", _att_inputs(rng, 256, 64, 64))


def _att_no_scale(q, k, v, d_out):
    d_k = np.shape(q)[1]
    dq, dk, dv = att_reference(np.asarray(q) * np.sqrt(d_k), k, v, d_out)
    return dq * np.sqrt(d_k), dk, dv  # the forward and backward both without 1/sqrt(d_k)


def _att_backward_no_scale(q, k, v, d_out):
    root = np.sqrt(np.shape(q)[1])
    dq, dk, dv = att_reference(q, k, v, d_out)
    return dq * root, dk * root, dv  # the forward scaled, dS not divided by sqrt(d_k)


def _att_no_mask(q, k, v, d_out):
    weights, _, _ = att.attention(q, k, v, causal=False)
    return att.attention_backward(d_out, q, k, v, weights)


def _att_softmax_jacobian_diagonal(q, k, v, d_out):
    weights, _, _ = att.attention(q, k, v, causal=True)
    d_scores = weights * (d_out @ np.asarray(v).T) / np.sqrt(np.shape(q)[1])
    return d_scores @ k, d_scores.T @ q, weights.T @ d_out


def _att_dk_untransposed(q, k, v, d_out):
    weights, _, _ = att.attention(q, k, v, causal=True)
    dq, _, dv = att_reference(q, k, v, d_out)
    dw = d_out @ np.asarray(v).T
    d_scores = weights * (dw - np.sum(dw * weights, axis=-1, keepdims=True)) \
        / np.sqrt(np.shape(q)[1])
    return dq, d_scores @ q, dv


def _att_dv_untransposed(q, k, v, d_out):
    weights, _, _ = att.attention(q, k, v, causal=True)
    dq, dk, _ = att_reference(q, k, v, d_out)
    return dq, dk, weights @ d_out


ATTENTION = Exercise(
    id="attention-backward",
    chapter=13,
    title="一个因果注意力头的反向传播",
    signature=ATT_SIGNATURE,
    statement=(
        "写函数 attention_backward(q, k, v, d_out)：已知损失对一个因果注意力头输出的梯度 "
        "d_out，求它对 q、k、v 的梯度，返回 (dq, dk, dv)。检查的内容：只有一个 token、"
        "两个 token、d_k ≠ d_v、权重几乎饱和的一行；随机用例的正确答案由有限差分量出，"
        "不依赖任何现成的反向传播。"),
    starter=program(ATT_SIGNATURE, ATT_DOC, "raise NotImplementedError"),
    solution=program(ATT_SIGNATURE, ATT_DOC, ATT_SOLUTION),
    hints=(
        "先把前向重算一遍，留下权重 W（n, n）。out = W @ v，所以 dv = W.T @ d_out，"
        "dW = d_out @ v.T。",
        "softmax 的反向按行做：dS = W * (dW - sum(dW * W, 行内))。被遮住的位置 W = 0，"
        "梯度自然是 0，不用再另外屏蔽。",
        "前向是 S = q @ k.T / sqrt(d_k)，所以 dq = dS @ k / sqrt(d_k)，dk 要转置：dS.T @ q / sqrt(d_k)。",
    ),
    reference=att_reference,
    reference_name="pycore.attention.attention_backward (causal)",
    outputs=("dq", "dk", "dv"),
    fixed=[
        Case("只有一个 token", _att_inputs(np.random.default_rng(11), 1, 2, 2),
             note="一个 token 只能看它自己，权重恒为 1：dq 和 dk 都是 0，dv 就是 d_out。"),
        Case("两个 token", _att_inputs(np.random.default_rng(12), 2, 2, 2)),
        Case("d_v 和 d_k 不同", _att_inputs(np.random.default_rng(13), 4, 3, 5)),
        Case("权重几乎饱和", _att_inputs(np.random.default_rng(14), 5, 4, 3, scale=4.0),
             hard=True,
             note="打分很大时 softmax 接近 one-hot，梯度大多很小：减去最大值之后再取 exp。"),
    ],
    random=_att_random,
    timing=_att_large,
    rtol=1e-6,
    atol=1e-7,
    mistakes=[
        Mistake("no-mask", _att_no_mask,
                "你的前向没有因果掩码：第 i 个查询也看到了后面的键。先把 j > i 的打分设成 -inf "
                "再做 softmax。"),
        Mistake("backward-no-scale", _att_backward_no_scale,
                "前向除了 sqrt(d_k)，反向却没有：dS 也要除以 sqrt(d_k)，dq 和 dk 才对。"),
        Mistake("no-scale", _att_no_scale,
                "缩放 1/sqrt(d_k) 没有算进去：前向的打分要除以 sqrt(d_k)，反向的 dS 也要除以它。"),
        Mistake("softmax-diagonal-only", _att_softmax_jacobian_diagonal,
                "softmax 的反向不只是 W * dW：一行里每个权重都依赖整行的打分，还要减去 "
                "sum(dW * W, axis=-1, keepdims=True)。"),
        Mistake("dk-not-transposed", _att_dk_untransposed,
                "dk 算成了 dS @ q。S = q @ k.T，对 k 求导时要转置：dk = dS.T @ q（再除以 "
                "sqrt(d_k)）。"),
        Mistake("dv-not-transposed", _att_dv_untransposed,
                "dv 算成了 W @ d_out。out = W @ v，对 v 求导是 dv = W.T @ d_out。"),
    ],
)

EXERCISES = [CROSS_ENTROPY, ATTENTION]
