"""Chapter 13: the reader's own training loop, a bigram model trained by gradient descent
(pycore/bigram.py).

The loop starts from W = 0 and uses the whole text every step, so there is nothing random in
it: the table after k steps is the same for every correct loop, and the checker compares it
entry by entry. The last fixed case trains on the book's poems with the stated steps and
learning rate, and the checker computes the loss of the returned table itself: a loop that
only returns a number, or a table not trained on that text, cannot pass it.
"""
import numpy as np

from .. import bigram
from ..softmax import softmax
from . import draw
from .spec import Case, Exercise, Mistake, program

A = np.array
POEM_IDS, POEM_VOCAB = bigram.encode()

DOC = f"""
用梯度下降训练一个二元（bigram）语言模型，返回训练好的表 W。

ids: (n,) 整数，一段文本的字编号；vocab_size: 字表大小 V。
模型是一张 (V, V) 的表：W[i] 是“当前字为 i”时下一个字的 logits。
从 W = 0 开始，重复 steps 次，每次用整段文本：
  前向：logits = W[ids[:-1]]，形状 (N, V)，N = n - 1；
  损失：-(1/N) * sum_t log softmax(logits[t])[ids[t+1]]；
  梯度：dlogits = (softmax(logits) - onehot(ids[1:])) / N，再加回 W 的对应行；
  更新：W = W - lr * dW。
书里的诗句（{len(POEM_VOCAB)} 个不同的字）训练 {bigram.STEPS} 步、lr = {bigram.LR:g}，损失从 ln {len(POEM_VOCAB)} ≈ \
{np.log(len(POEM_VOCAB)):.3f} 降到 {bigram.loss(bigram.train(POEM_IDS, len(POEM_VOCAB)), POEM_IDS):.3f}。
"""

SOLUTION = """
x, y = ids[:-1], ids[1:]  # 当前字、下一个字
N = len(x)
W = np.zeros((vocab_size, vocab_size))
for step in range(steps):
    logits = W[x]  # (N, V)：前向就是查表
    logits = logits - np.max(logits, axis=-1, keepdims=True)
    p = np.exp(logits)
    p = p / np.sum(p, axis=-1, keepdims=True)  # 每行一个 softmax
    loss = -np.mean(np.log(p[np.arange(N), y]))  # 想看训练过程，可以 print(step, loss)
    dlogits = p.copy()
    dlogits[np.arange(N), y] -= 1.0
    dlogits = dlogits / N
    dW = np.zeros_like(W)
    np.add.at(dW, x, dlogits)  # 同一个字出现几次，就往它那一行加几次
    W = W - lr * dW
return W
"""

SIGNATURE = "train_bigram(ids, vocab_size, steps, lr)"


def reference(ids, vocab_size, steps, lr):
    return bigram.train(ids, vocab_size, steps, lr)


def trained_loss(train, ids, vocab_size, steps, lr):
    """Train with the reader's loop, then score the table here: the loss that counts is the
    one this checker computes from the table, whatever the loop printed."""
    W = np.asarray(train(ids.copy(), vocab_size, steps, lr), dtype=float)
    if W.shape != (vocab_size, vocab_size):
        return W  # the comparison then names the wrong shape
    return bigram.loss(W, ids)


def _case(name, ids, vocab_size, steps, lr, **kw):
    return Case(name, {"ids": A(ids), "vocab_size": vocab_size, "steps": steps, "lr": lr},
                **kw)


def _markov_text(rng, n, v):
    """n ids from a random Markov chain over v characters (some transitions likelier)."""
    table = rng.dirichlet(np.full(v, 0.5), size=v)
    ids = [int(rng.integers(v))]
    for _ in range(n - 1):
        ids.append(int(rng.choice(v, p=table[ids[-1]])))
    return A(ids)


def _random(rng):
    cases = []
    for size in draw.sizes(rng, low=2, high=12):
        n, v = int(rng.integers(2, 5 * size + 3)), int(rng.integers(2, size + 2))
        steps, lr = int(rng.integers(1, 2 * size + 2)), float(rng.uniform(0.1, 3.0))
        cases.append(_case(f"{n} 个字的随机文本，V={v}，{steps} 步，lr={lr:.3g}",
                           _markov_text(rng, n, v), v, steps, lr))
    return cases


# The typical mistakes, each the solution with one line changed.

def _train_with(ids, vocab_size, steps, lr, softmax_axis=-1, sign=1.0, mean=True,
                accumulate=True):
    x, y = ids[:-1], ids[1:]
    W = np.zeros((vocab_size, vocab_size))
    for _ in range(steps):
        d = softmax(W[x], axis=softmax_axis)
        d[np.arange(len(x)), y] -= 1.0
        d = d / len(x) if mean else d
        dW = np.zeros_like(W)
        if accumulate:
            np.add.at(dW, x, d)
        else:
            dW[x] += d  # a repeated index keeps only its last row
        W = W - sign * lr * dW
    return W


def _wrong_sign(ids, vocab_size, steps, lr):
    return _train_with(ids, vocab_size, steps, lr, sign=-1.0)


def _no_mean(ids, vocab_size, steps, lr):
    return _train_with(ids, vocab_size, steps, lr, mean=False)


def _axis0(ids, vocab_size, steps, lr):
    return _train_with(ids, vocab_size, steps, lr, softmax_axis=0)


def _fancy_add(ids, vocab_size, steps, lr):
    return _train_with(ids, vocab_size, steps, lr, accumulate=False)


def _transposed(ids, vocab_size, steps, lr):
    return reference(ids, vocab_size, steps, lr).T


def _one_more_step(ids, vocab_size, steps, lr):
    return reference(ids, vocab_size, steps + 1, lr)


EXERCISE = Exercise(
    id="bigram-training",
    chapter=13,
    title="自己写训练循环：二元语言模型",
    signature=SIGNATURE,
    statement=(
        f"写函数 train_bigram(ids, vocab_size, steps, lr)：从全零的表开始，用整段文本做 steps "
        f"步梯度下降（前向、损失、梯度、更新），返回训练好的 (V, V) 表。检查的内容：一步之后"
        f"的表、0 步、同一个字出现多次、没出现过的字、几步之后；然后在书里的 "
        f"{len(POEM_IDS)} 个字符的诗句上训练 {bigram.STEPS} 步（lr = {bigram.LR:g}），检查程序"
        f"拿你返回的表自己算损失，应当降到 "
        f"{bigram.loss(bigram.train(POEM_IDS, len(POEM_VOCAB)), POEM_IDS):.3f}；"
        "最后是一批随机生成的文本。"),
    starter=program(SIGNATURE, DOC, "raise NotImplementedError"),
    solution=program(SIGNATURE, DOC, SOLUTION),
    hints=(
        "前向就是查表：logits = W[ids[:-1]]，每个位置取出当前字那一行；目标是 ids[1:]。",
        "logits 的梯度是 (softmax - onehot) / N。把它加回 W 时，同一个字会出现好几次，"
        "dW[x] += d 只会留下其中一次：用 np.add.at(dW, x, d)，或者 one-hot 矩阵 X.T @ d。",
        "梯度下降是 W = W - lr * dW：减号，顺着梯度的反方向走。",
    ),
    reference=reference,
    reference_name="pycore.bigram.train",
    fixed=[
        _case("两个字交替，一步", [0, 1, 0, 1], 2, 1, 1.0,
              note="一步之后，W[0, 1] 和 W[1, 0] 变大，W[0, 0] 和 W[1, 1] 变小。"),
        _case("0 步：表还是全零", [0, 1, 2], 3, 0, 1.0,
              note="steps = 0 时一步都不走，返回 (V, V) 的全零表。"),
        _case("同一个字出现多次", [0, 1, 0, 2, 0, 1], 3, 1, 1.0,
              note="字 0 后面跟了三次别的字，它那一行的梯度是三个位置之和。"),
        _case("有没出现过的字", [1, 2, 1, 2, 1], 4, 1, 1.0,
              note="字 0 和字 3 从没出现在“当前字”的位置上，它们那一行一直是 0。"),
        _case("几步之后", [2, 0, 1, 2, 0, 2, 1], 3, 5, 2.0),
        Case(f"书里的诗句：{bigram.STEPS} 步后的损失", {
                 "ids": POEM_IDS.copy(), "vocab_size": len(POEM_VOCAB),
                 "steps": bigram.STEPS, "lr": bigram.LR},
             run=trained_loss, hard=True,
             call=f"W = train_bigram(ids, {len(POEM_VOCAB)}, {bigram.STEPS}, {bigram.LR:g})；"
                  "检查程序用 W 在这段文本上算平均交叉熵",
             note="检查程序用你返回的表，在这段诗句上自己算出平均交叉熵。前面的小用例都对、"
                  "只有这里不对时，多半是循环提前结束了，或者步数、学习率被写死了。"),
    ],
    random=_random,
    rtol=1e-7,
    atol=1e-9,
    nonfinite_hint=(
        "表里出现了 inf 或 nan：训练发散了。检查梯度是否除以了 N、更新是不是减号，"
        "以及 softmax 是否先减去了每行的最大值。"),
    mistakes=[
        Mistake("wrong-sign", _wrong_sign,
                "你的更新方向反了：W = W - lr * dW。加上梯度会让损失越来越大。"),
        Mistake("no-mean", _no_mean,
                "你的梯度大了 N 倍：损失是 N 个位置的平均，dlogits 要除以 N = len(ids) - 1。"),
        Mistake("softmax-axis-0", _axis0,
                "你沿第 0 维（跨位置）做了 softmax。每个位置自己的一行 logits 是一个分布："
                "沿 axis=-1 做。"),
        Mistake("fancy-index-add", _fancy_add,
                "dW[x] += dlogits 遇到重复的字只加了一次（NumPy 的花式索引不会累加）。"
                "用 np.add.at(dW, x, dlogits)，或者 one-hot 矩阵：dW = X.T @ dlogits。"),
        Mistake("transposed", _transposed,
                "你的表转置了：W[i, j] 应该是“当前字 i、下一个字 j”的 logit，行是当前字。"),
        Mistake("one-more-step", _one_more_step,
                "你多走了一步：循环 steps 次（range(steps)），steps = 0 时一步都不走。"),
    ],
)

EXERCISES = [EXERCISE]
