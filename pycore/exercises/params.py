"""Chapter 10: the exact parameter count of a GPT-2-style configuration (pycore/params.py's
count() with its defaults: biases, LayerNorms, a final norm, tied output matrix)."""
from .. import params
from .spec import Case, Exercise, Mistake, program

SIGNATURE = "param_count(d_model, n_layers, vocab, n_positions, d_ff=None)"

DOC = """
GPT-2 式的解码器一共有多少个参数（返回一个整数）。

- 词嵌入 vocab × d_model；可学习的位置表 n_positions × d_model。
- 每层：注意力的 W_Q、W_K、W_V、W_O 各 d_model × d_model，各带一个长 d_model 的偏置；
  MLP 的 d_model × d_ff 和 d_ff × d_model 两个矩阵，各带偏置（长 d_ff 和 d_model）；
  两个 LayerNorm，各有 gamma 和 beta（各长 d_model）。
- 最后还有一个 LayerNorm；输出层和词嵌入共用同一个矩阵，不另算。
d_ff 默认是 4 * d_model。
"""

SOLUTION = """
d = d_model
if d_ff is None:
    d_ff = 4 * d
attention = 4 * d * d + 4 * d  # W_Q, W_K, W_V, W_O 和它们的偏置
mlp = d * d_ff + d_ff + d_ff * d + d  # 两个矩阵和两个偏置
norms = 2 * (2 * d)  # 两个 LayerNorm，各有 gamma 和 beta
per_layer = attention + mlp + norms
embeddings = vocab * d + n_positions * d
return embeddings + n_layers * per_layer + 2 * d  # + 最后的 LayerNorm
"""


def reference(d_model, n_layers, vocab, n_positions, d_ff=None):
    return params.count(d_model, n_layers, vocab, d_ff, n_positions=n_positions)["total"]


def _count(**changes):
    """A wrong answer: params.count with one option changed."""
    def answer(d_model, n_layers, vocab, n_positions, d_ff=None):
        options = {"d_ff": d_ff, "n_positions": n_positions, **changes}
        return params.count(d_model, n_layers, vocab, **options)["total"]
    return answer


def _estimate(d_model, n_layers, vocab, n_positions, d_ff=None):
    return params.estimate(d_model, n_layers, vocab, d_ff)


def _without_norms(d_model, n_layers, vocab, n_positions, d_ff=None):
    full = reference(d_model, n_layers, vocab, n_positions, d_ff)
    return full - (2 * n_layers + 1) * 2 * d_model


def _gamma_only(d_model, n_layers, vocab, n_positions, d_ff=None):
    full = reference(d_model, n_layers, vocab, n_positions, d_ff)
    return full - (2 * n_layers + 1) * d_model


def _ignores_d_ff(d_model, n_layers, vocab, n_positions, d_ff=None):
    return reference(d_model, n_layers, vocab, n_positions)


def _random(rng):
    cases = []
    for k in range(20):
        d = 8 * int(rng.integers(1, 8 + 32 * k))
        inputs = {"d_model": d, "n_layers": int(rng.integers(0, 3 + 2 * k)),
                  "vocab": int(rng.integers(1, 100_000)),
                  "n_positions": int(rng.choice([0, int(rng.integers(1, 4097))]))}
        if rng.random() < 0.4:
            inputs["d_ff"] = int(rng.integers(1, 8 * d))
        cases.append(Case(", ".join(f"{name}={v}" for name, v in inputs.items()), inputs))
    return cases


EXERCISE = Exercise(
    id="param-count",
    chapter=10,
    title="数清一个配置的参数",
    signature=SIGNATURE,
    statement=(
        "写函数 param_count(d_model, n_layers, vocab, n_positions, d_ff=None)，按 GPT-2 的结构"
        "数出全部参数：词嵌入、位置表、每层注意力和 MLP 的矩阵与偏置、每层两个 LayerNorm、"
        "最后一个 LayerNorm；输出层与词嵌入共享。检查的内容：GPT-2 small（124,439,808）、"
        "GPT-2 XL、最小的模型、d_ff 不是 4d、没有层、没有位置表，以及一批随机配置。"
        "结果要一个不差。"),
    starter=program(SIGNATURE, DOC, "raise NotImplementedError"),
    solution=program(SIGNATURE, DOC, SOLUTION),
    hints=(
        "一层一层地数：先写出一层注意力、一层 MLP、两个 LayerNorm 各有多少参数，再乘以层数。",
        "12 L d² 只数了矩阵：偏置、LayerNorm 和嵌入表也都是参数。",
        "d_ff 是 None 时才用 4 * d_model；给了 d_ff 就用给的值。",
    ),
    reference=reference,
    reference_name="pycore.params.count(...)[\"total\"]",
    rtol=0.0,
    atol=0.0,
    fixed=[
        Case("GPT-2 small 的配置", {"d_model": 768, "n_layers": 12, "vocab": 50257,
                             "n_positions": 1024},
             note="GPT-2 small 的准确参数量是 124,439,808，也就是常说的 124M。"),
        Case("GPT-2 XL 的配置", {"d_model": 1600, "n_layers": 48, "vocab": 50257,
                          "n_positions": 1024}),
        Case("最小的模型：d=1，一层，词表 1", {"d_model": 1, "n_layers": 1, "vocab": 1,
                                        "n_positions": 0},
             note="可以手算：嵌入 1；注意力 4 + 4；MLP 4 + 4 + 4 + 1；两个 LayerNorm 4；"
                  "最后的 LayerNorm 2；一共 28。"),
        Case("d_ff 不是 4d", {"d_model": 64, "n_layers": 2, "vocab": 1000, "n_positions": 128,
                              "d_ff": 100}, hard=True,
             note="这里 d_ff=100：MLP 的两个矩阵是 64×100 和 100×64，偏置长 100 和 64。"),
        Case("没有层", {"d_model": 16, "n_layers": 0, "vocab": 10, "n_positions": 4},
             note="没有层时只剩嵌入表、位置表和最后的 LayerNorm。"),
    ],
    random=_random,
    mistakes=[
        Mistake("estimate-12Ld2", _estimate,
                "你算的是估计值 12 L d² + V d，它只数了矩阵。这道题要精确值：还有偏置、"
                "LayerNorm 和位置表。"),
        Mistake("no-biases", _count(bias=False),
                "你漏了偏置：注意力的四个矩阵各有一个长 d 的偏置，MLP 两层各有一个。"),
        Mistake("no-layer-norms", _without_norms,
                "你漏了 LayerNorm：每层两个，最后还有一个，每个有 gamma 和 beta 共 2d 个参数。"),
        Mistake("layer-norm-gamma-only", _gamma_only,
                "LayerNorm 有两组参数：gamma 和 beta，每个 LayerNorm 是 2d 个，不是 d 个。"),
        Mistake("no-final-norm", _count(final_norm=False),
                "你漏了最后一个 LayerNorm（所有层之后、输出层之前），它有 2d 个参数。"),
        Mistake("untied-output", _count(tied=False),
                "输出层和词嵌入共用同一个矩阵（GPT-2 就是这样），不用再加 V × d。"),
        Mistake("no-positions", _count(n_positions=0),
                "你漏了可学习的位置表：n_positions × d_model 个参数。"),
        Mistake("ignores-d-ff", _ignores_d_ff,
                "给了 d_ff 时要用它：只有 d_ff 是 None 时才用 4 * d_model。"),
    ],
)

EXERCISES = [EXERCISE]
