"""What each widget's notebook teaches: a title, the view's numbers it shows, and the NumPy
underneath, step by step, each step a sentence of Chinese and a code cell.

A step's code runs after the notebook has set `params` (the widget's parameters), `view`
(pycore's view of them) and imported `np`, `pycore` and `same(mine, widget)`, which prints
whether our own NumPy gives the widget's number and stops the notebook when it does not.
Every step must hold for any parameters the widget allows: tests/test_notebooks.py runs them
at the blocks' parameters and at moved ones.
"""

LESSONS = {
    "panorama": {
        "title": "整体结构与参数量",
        "keys": ["d_model", "layers", "vocab", "d_ff", "model_total", "layer_params_text"],
        "steps": [
            ("每层的注意力有 $W_Q, W_K, W_V, W_O$ 四个 $d\\times d$ 矩阵，前馈网络有两个 "
             "$d\\times d_{ff}$ 矩阵，两个 LayerNorm 各有 $2d$ 个参数；再加上词嵌入 "
             "$V\\times d$ 和最后一个 LayerNorm，就是图中的总数（不含偏置和位置表）。",
             "d, L = view[\"d_model\"], view[\"layers\"]\n"
             "V, d_ff = view[\"vocab\"], view[\"d_ff\"]\n"
             "per_layer = 4 * d * d + 2 * d * d_ff + 2 * (2 * d)\n"
             "total = L * per_layer + V * d + 2 * d\n"
             "print(f\"每层 {per_layer:,}，全部 {total:,}\")\n"
             "same(total, view[\"model_total\"])"),
        ],
    },
    "dot-product": {
        "title": "点积与夹角",
        "keys": ["a", "b", "dot", "norm_a", "norm_b", "cos", "angle", "projection"],
        "steps": [
            ("点积是对应分量相乘再相加；除以两个长度，得到夹角的余弦。",
             "a, b = np.array(params[\"a\"]), np.array(params[\"b\"])\n"
             "dot = a @ b\n"
             "norm_a, norm_b = np.sqrt(a @ a), np.sqrt(b @ b)\n"
             "print(\"a·b =\", dot)\n"
             "same(dot, view[\"dot\"])\n"
             "if norm_a > 0 and norm_b > 0:\n"
             "    cos = dot / (norm_a * norm_b)\n"
             "    same(cos, view[\"cos\"])\n"
             "    same(norm_b * cos, view[\"projection\"])  # b 落在 a 方向上的影子"),
        ],
    },
    "softmax": {
        "title": "softmax 与温度",
        "keys": ["logits", "temperature", "probs", "entropy", "max_entropy"],
        "steps": [
            ("先把分数除以温度，减去最大值（不改变结果，却能防止 exp 溢出），取指数后归一化。",
             "z = np.array(params[\"logits\"]) / params[\"temperature\"]\n"
             "e = np.exp(z - z.max())\n"
             "p = e / e.sum()\n"
             "print(np.round(p, 4))\n"
             "same(p, view[\"probs\"])"),
            ("熵 $-\\sum p_i \\log p_i$ 衡量分布有多“平”：均匀分布时最大，为 $\\log n$。",
             "h = -np.sum(p[p > 0] * np.log(p[p > 0]))\n"
             "print(f\"熵 {h:.4f}，上限 {np.log(len(p)):.4f}\")\n"
             "same(h, view[\"entropy\"])"),
        ],
    },
    "embedding": {
        "title": "词向量的点积与余弦",
        "keys": ["a", "b", "vec_a", "vec_b", "dot", "cos"],
        "steps": [
            ("运行示例里每个词是一行 6 维的特征向量；取出两行，点积和余弦就是它们的相似程度。",
             "from pycore import example\n"
             "ex = example.resolve_example(params.get(\"example\"))[0]  # 你改过的例子，或书中的\n"
             "va = np.array(example.features_of(ex, params[\"a\"]), dtype=float)  # (6,)\n"
             "vb = np.array(example.features_of(ex, params[\"b\"]), dtype=float)  # (6,)\n"
             "same(va @ vb, view[\"dot\"])\n"
             "same(va @ vb / (np.linalg.norm(va) * np.linalg.norm(vb)), view[\"cos\"])"),
        ],
    },
    "attention": {
        "title": "缩放点积注意力",
        "keys": ["query", "scale", "causal", "row", "output"],
        "steps": [
            ("用语义头的三个矩阵把嵌入投影成 Q、K、V，算 $QK^\\top/\\sqrt{d_k}$，"
             "需要时遮住未来的位置，再逐行 softmax。",
             "from pycore import example\n"
             "ex = example.resolve_example(params.get(\"example\"))[0]  # 你改过的例子，或书中的\n"
             "tokens = ex[\"tokens\"]  # 句子里的词（你可能增删过）\n"
             "n = len(tokens)\n"
             "X = example.sentence_embeddings(ex)  # (n, 6)\n"
             "W_q, W_k, W_v = example.semantic_head_of(ex)  # W_Q 的代词行也可能改过\n"
             "Q, K, V = X @ W_q, X @ W_k, X @ W_v  # 各 (n, 6)\n"
             "scores = params[\"scale\"] * Q @ K.T / np.sqrt(Q.shape[1])  # (n, n)\n"
             "if params[\"causal\"]:\n"
             "    scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)\n"
             "w = np.exp(scores - scores.max(axis=1, keepdims=True))\n"
             "w = w / w.sum(axis=1, keepdims=True)  # 每行和为 1\n"
             "i = tokens.index(params[\"query\"])\n"
             "print(dict(zip(tokens, np.round(w[i], 3))))\n"
             "same(w[i], view[\"row\"][:n])  # 图有 12 个位置，多出的为 0"),
            ("输出是值向量按这一行权重的加权平均。",
             "same(w[i] @ V, view[\"output\"])"),
        ],
    },
    "scaling-variance": {
        "title": "为什么要除以 √d_k",
        "keys": ["d_k", "seed", "n", "var_raw", "var_scaled", "std_raw", "std_scaled"],
        "steps": [
            ("两个分量独立、方差为 1 的 $d_k$ 维随机向量，点积的方差约为 $d_k$；除以 "
             "$\\sqrt{d_k}$ 后约为 1。固定 q 时 $q\\cdot k$ 服从 $N(0, |q|^2)$，所以不必抽出"
             "整个向量：抽 $|q|^2\\sim\\chi^2(d_k)$ 和 $z\\sim N(0,1)$，$q\\cdot k = |q|\\,z$。",
             "rng = np.random.default_rng(params[\"seed\"])\n"
             "sq_norm = rng.chisquare(params[\"d_k\"], size=view[\"n\"])  # |q|^2，共 n 次\n"
             "z = rng.standard_normal(view[\"n\"])\n"
             "raw = np.sqrt(sq_norm) * z\n"
             "scaled = raw / np.sqrt(params[\"d_k\"])\n"
             "print(f\"原始方差 {raw.var():.2f}，缩放后 {scaled.var():.3f}\")\n"
             "same(raw.var(), view[\"var_raw\"])\n"
             "same(scaled.var(), view[\"var_scaled\"])"),
        ],
    },
    "attention-cost": {
        "title": "注意力的代价",
        "keys": ["n", "scores", "bytes", "rnn_steps", "attention_steps"],
        "steps": [
            ("n 个位置两两打分，一个头就有 $n^2$ 个分数；每个按 fp16 存两个字节。"
             "RNN 要一步接一步走 n 步，注意力一步就能让所有位置同时看到彼此。",
             "n = params[\"n\"]\n"
             "same(n * n, view[\"scores\"])\n"
             "same(2 * n * n, view[\"bytes\"])\n"
             "same(n, view[\"rnn_steps\"])"),
        ],
    },
    "multi-head": {
        "title": "两个头，拼接后乘 W_O",
        "keys": ["query", "heads", "row_a", "row_b", "output_row"],
        "steps": [
            ("头 A 看语义，头 B 看前一个位置；各自算出注意力权重。",
             "from pycore import example, multihead\n"
             "ex = example.resolve_example(params.get(\"example\"))[0]  # 你改过的例子，或书中的\n"
             "tokens = ex[\"tokens\"]  # 句子里的词（你可能增删过）\n"
             "n = len(tokens)\n"
             "X = example.sentence_embeddings(ex)  # (n, 6)\n"
             "r = multihead.two_heads(X, w_q=example.semantic_head_of(ex)[0])\n"
             "i = tokens.index(view[\"query\"])  # 句子里没有所选的词时，小部件改看「它」\n"
             "same(r[\"heads\"][0][\"weights\"][i], view[\"row_a\"][:n])  # 图有 12 个位置\n"
             "same(r[\"heads\"][1][\"weights\"][i], view[\"row_b\"][:n])"),
            ("把用到的头的输出并排拼起来，再乘 $W_O$（这里取各头的平均），得到这一层的输出。",
             "used = [\"A\", \"B\"] if params[\"heads\"] == \"A+B\" else [params[\"heads\"]]\n"
             "outs = [h[\"output\"] for h in r[\"heads\"] if h[\"name\"] in used]\n"
             "concat = np.concatenate(outs, axis=1)  # (n, 6 × 头数)\n"
             "W_o = np.vstack([np.eye(6)] * len(outs)) / len(outs)  # (6 × 头数, 6)\n"
             "out = concat @ W_o  # (n, 6)\n"
             "same(out[i], view[\"output_row\"])"),
        ],
    },
    "permutation": {
        "title": "打乱词序：没有位置信息时注意力看不出来",
        "keys": ["perm", "perm_note", "positions", "tokens", "max_abs_diff", "n_changed"],
        "steps": [
            ("把句子按 perm 重排后再算注意力，与“原输出跟着词挪位置”比较；"
             "加上正弦位置编码后，两者才会不同。",
             "from pycore import example\n"
             "from pycore.positional import sinusoidal\n"
             "\n"
             "ex = example.resolve_example(params.get(\"example\"))[0]  # 你改过的例子，或书中的\n"
             "\n"
             "def semantic_attention(x):\n"
             "    W_q, W_k, W_v = example.semantic_head_of(ex)\n"
             "    q, k, v = x @ W_q, x @ W_k, x @ W_v\n"
             "    s = q @ k.T / np.sqrt(q.shape[1])\n"
             "    w = np.exp(s - s.max(axis=1, keepdims=True))\n"
             "    return (w / w.sum(axis=1, keepdims=True)) @ v\n"
             "\n"
             "tokens = ex[\"tokens\"]  # 句子里的词（你可能增删过）\n"
             "n = len(tokens)\n"
             "X = example.sentence_embeddings(ex)  # (n, 6)\n"
             "perm = np.array(view[\"perm\"])  # 第 s 个座位坐原来的第 perm[s] 个词\n"
             "print(\"\".join(tokens[i] for i in perm))\n"
             "if view[\"perm_note\"]:\n"
             "    print(view[\"perm_note\"])  # 给定的 perm 不适用于这句话\n"
             "pe = sinusoidal(n, 6) if params[\"positions\"] else np.zeros_like(X)  # (n, 6)\n"
             "diff = np.abs(semantic_attention(X[perm] + pe) - semantic_attention(X + pe)[perm])\n"
             "print(f\"最大差 {diff.max():.2e}\")\n"
             "same(diff.max(), view[\"max_abs_diff\"])\n"
             "same(diff.max(axis=1), view[\"diff_per_slot\"])"),
        ],
    },
    "positional-encoding": {
        "title": "正弦位置编码",
        "keys": ["d_model", "pair", "omega", "wavelength", "p", "dots_p", "k", "rot_error"],
        "steps": [
            ("第 i 对维度的角频率是 $\\omega_i = 10000^{-2i/d}$，波长 $2\\pi/\\omega_i$。",
             "d = params[\"d_model\"]\n"
             "omega = 10000.0 ** (-2 * np.arange(d // 2) / d)\n"
             "same(omega[view[\"pair\"]], view[\"omega\"])\n"
             "same(2 * np.pi / omega[view[\"pair\"]], view[\"wavelength\"])"),
            ("$PE(p)\\cdot PE(p+k) = \\sum_i \\cos(\\omega_i k)$：只取决于相隔 k，与 p 无关。",
             "from pycore.positional import encode\n"
             "ks = np.array(view[\"ks\"])\n"
             "closed_form = np.cos(np.outer(ks, omega)).sum(axis=1)  # (len(ks),)\n"
             "same(closed_form, view[\"dots_p\"])\n"
             "# 再从编码本身算一遍：PE(p) 与 PE(p + k) 逐维相乘后相加\n"
             "a = encode(np.full(len(ks), params[\"p\"]), d)  # (len(ks), d)\n"
             "b = encode(params[\"p\"] + ks, d)\n"
             "same((a * b).sum(axis=1), view[\"dots_p\"])"),
        ],
    },
    "rope": {
        "title": "旋转位置编码 RoPE",
        "keys": ["q", "k", "m", "n", "theta", "q_rot", "k_rot", "score", "score_unrotated"],
        "steps": [
            ("把 q 转 $m\\theta$、k 转 $n\\theta$，它们的点积只取决于 $m-n$。",
             "def rotate(v, angle):\n"
             "    c, s = np.cos(angle), np.sin(angle)\n"
             "    return np.array([[c, -s], [s, c]]) @ v\n"
             "\n"
             "q_rot = rotate(np.array(params[\"q\"]), params[\"m\"] * params[\"theta\"])\n"
             "k_rot = rotate(np.array(params[\"k\"]), params[\"n\"] * params[\"theta\"])\n"
             "same(q_rot, view[\"q_rot\"])\n"
             "same(k_rot, view[\"k_rot\"])\n"
             "same(q_rot @ k_rot, view[\"score\"])\n"
             "# 同样的 q、k 转过 (m - n)θ 的夹角：\n"
             "offset = (params[\"m\"] - params[\"n\"]) * params[\"theta\"]\n"
             "q, k = np.array(params[\"q\"]), np.array(params[\"k\"])\n"
             "same(rotate(q, offset) @ k, view[\"score\"])"),
        ],
    },
    "encoder-layer": {
        "title": "编码器层的一步步",
        "keys": ["layout", "step", "name", "formula", "tokens", "n", "shape", "row_std"],
        "steps": [
            ("pycore.encoder 把整层拆成一串步骤，每步给出 n×6 的矩阵（句子里每个词一行）；"
             "LayerNorm 之后每行的标准差接近 1。",
             "from pycore import example\n"
             "from pycore.encoder import encoder_steps\n"
             "ex = example.resolve_example(params.get(\"example\"))[0]  # 你改过的例子，或书中的\n"
             "tokens = ex[\"tokens\"]  # 句子里的词（你可能增删过）\n"
             "X = example.sentence_embeddings(ex)  # (n, 6)\n"
             "s = encoder_steps(params[\"layout\"], x=X,\n"
             "                  w_q=example.semantic_head_of(ex)[0])[view[\"step\"] - 1]\n"
             "m = s[\"matrix\"]  # (n, 6)\n"
             "print(s[\"key\"], m.shape)\n"
             "print({t: round(float(sd), 4) for t, sd in zip(tokens, m.std(axis=1))})\n"
             "same(m.std(axis=1), view[\"row_std\"])\n"
             "same(len(m), view[\"n\"])  # 一个词一行：图和表有 12 行，只用前 n 行"),
        ],
    },
    "sampling": {
        "title": "温度、top-k 与 top-p",
        "keys": ["temperature", "top_k", "top_p", "tokens", "p_temp", "p_final", "n_final"],
        "steps": [
            ("下一个词的分数先除以温度再 softmax。",
             "from pycore import example\n"
             "T = round(params[\"temperature\"], 2)\n"
             "z = example.NEXT_LOGITS / T\n"
             "p = np.exp(z - z.max()); p = p / p.sum()\n"
             "same(p, view[\"p_temp\"])"),
            ("top-k 只留概率最大的 k 个词，top-p 只留累计概率刚到 p 的最前几个词，"
             "留下的再归一化；pycore.sampling.pipeline 依次做这几步。",
             "from pycore.sampling import pipeline\n"
             "s = pipeline(temperature=T, top_k=params[\"top_k\"] or None,\n"
             "             top_p=params[\"top_p\"])  # top_k = 0：不截断\n"
             "print(dict(zip(s[\"tokens\"], np.round(s[\"final\"], 3))))\n"
             "same(s[\"final\"], view[\"p_final\"])\n"
             "same(np.sum(s[\"final\"] > 0), view[\"n_final\"])"),
        ],
    },
    "kv-cache": {
        "title": "KV 缓存省下的计算",
        "keys": ["step", "prompt", "n_steps", "context_rows", "step_nocache", "step_cache",
                 "total_nocache", "total_cache", "cache_bytes"],
        "steps": [
            ("玩具模型就是语义头（1 层、1 个头、d = 6）：句子里每个被读入的词（最后一个词只被"
             "生成，不被读入）有一行 $K = XW_K$ 和一行 $V = XW_V$，算出来就不再变。",
             "from pycore import example\n"
             "ex = example.resolve_example(params.get(\"example\"))[0]  # 你改过的例子，或书中的\n"
             "tokens = ex[\"tokens\"]  # 句子里的词（你可能增删过）\n"
             "X = example.sentence_embeddings(ex)[:-1]  # (n - 1, 6)\n"
             "_, W_k, W_v = example.semantic_head_of(ex)\n"
             "KV = np.hstack([X @ W_k, X @ W_v])  # (n - 1, 12)：K | V\n"
             "same(KV, view[\"kv\"][:len(X)])  # 表有 11 行位置，多出的为 0"),
            ("每个位置的 K 和 V 是两次 6×6 投影，共 72 次乘加。不缓存时每一步要为整个前缀"
             "重算，缓存后只算新来的那一行。n 个词的句子、P 个词的提示共有 n − P 步；"
             "提示最长取到倒数第二个词，步数超出时显示最后一步（view 里的 prompt 和 step）。",
             "n, P = len(tokens), min(params[\"prompt\"], len(tokens) - 1)\n"
             "same(P, view[\"prompt\"])\n"
             "same(min(params[\"step\"], n - P), view[\"step\"])\n"
             "per_row = 2 * 6 * 6\n"
             "steps = range(1, view[\"step\"] + 1)\n"
             "context = [P + s - 1 for s in steps]\n"
             "new = [P if s == 1 else 1 for s in steps]\n"
             "print(\"读入：\", \" \".join(tokens[:context[-1]]), \"→ 产出：\", "
             "tokens[context[-1]])\n"
             "same(context[-1] * per_row, view[\"step_nocache\"])\n"
             "same(new[-1] * per_row, view[\"step_cache\"])\n"
             "same(sum(context) * per_row, view[\"total_nocache\"])\n"
             "same(sum(new) * per_row, view[\"total_cache\"])"),
            ("真实模型的缓存：每层、每个键值头、每个 token 存 K 和 V 两个 $d_{head}$ 维向量。",
             "bytes_ = 2 * params[\"context\"] * view[\"layers\"] * view[\"kv_heads\"] \\\n"
             "    * view[\"d_head\"] * view[\"bytes_per_value\"]\n"
             "print(f\"{bytes_:,} 字节\")\n"
             "same(bytes_, view[\"cache_bytes\"])"),
        ],
    },
    "param-count": {
        "title": "数一数参数",
        "keys": ["preset", "d_model", "layers", "vocab", "d_ff", "estimate", "exact"],
        "steps": [
            ("粗估：每层约 $12d^2$（注意力 $4d^2$，前馈按 $d_{ff}=4d$ 算是 $8d^2$），"
             "再加词嵌入 $Vd$；与逐项精确数出的总数相比，误差通常不到几个百分点。",
             "d, L, V = view[\"d_model\"], view[\"layers\"], view[\"vocab\"]\n"
             "rough = 12 * L * d * d + V * d\n"
             "print(f\"粗估 {rough:,}，精确 {view['exact']:,}\")\n"
             "same(rough, view[\"estimate\"])"),
        ],
    },
    "vit-patches": {
        "title": "把图片切成块",
        "keys": ["P", "index", "temperature", "grid_h", "n_patches", "n_tokens", "patch_dim",
                 "self_weight", "top_index"],
        "steps": [
            ("224×224 的图按 P×P 切块：每边 224/P 块，每块拉平成 $P^2\\cdot 3$ 维，"
             "再加一个 [CLS]。",
             "P = params[\"P\"]\n"
             "same((224 // P) ** 2, view[\"n_patches\"])\n"
             "same((224 // P) ** 2 + 1, view[\"n_tokens\"])\n"
             "same(P * P * 3, view[\"patch_dim\"])"),
            ("这个手工的头用每块的颜色特征：分数是负的欧氏距离，再 softmax。",
             "from importlib import resources\n"
             "from pycore import vit\n"
             "data = resources.files(\"pycore\").joinpath(\"photo224.rgb\").read_bytes()\n"
             "img = np.frombuffer(data, dtype=np.uint8).reshape(224, 224, 3)  # (H, W, C)\n"
             "f = vit.patch_features(img, P)  # (块数, 4)\n"
             "dist = np.sqrt(((f - f[params[\"index\"]]) ** 2).sum(axis=1))\n"
             "z = -dist / params[\"temperature\"]\n"
             "w = np.exp(z - z.max()); w = w / w.sum()\n"
             "same(w[params[\"index\"]], view[\"self_weight\"])\n"
             "top = np.argsort(-w, kind=\"stable\")[:len(view[\"top_index\"])]  # 权重最大的几块\n"
             "same(top, view[\"top_index\"])"),
        ],
    },
    "swin-windows": {
        "title": "Swin 的窗口注意力",
        "keys": ["image_size", "P", "M", "layer", "n_patches", "n_windows", "window_tokens",
                 "global", "windowed", "ratio"],
        "steps": [
            ("全局注意力要 $N^2$ 个分数；切成每窗 $M^2$ 个块后，每个窗口只在内部算 $M^4$ 个。",
             "N = view[\"n_patches\"]\n"
             "same(N * N, view[\"global\"])\n"
             "same(view[\"n_windows\"] * view[\"window_tokens\"] ** 2, view[\"windowed\"])\n"
             "print(f\"省下 {view['global'] / view['windowed']:.1f} 倍\")"),
        ],
    },
    "lr-schedule": {
        "title": "学习率：预热与衰减",
        "keys": ["warmup", "total", "decay", "min_ratio", "step", "lr_value", "peak_value"],
        "steps": [
            ("预热阶段学习率线性升到峰值；之后按所选方式降到 min_ratio × 峰值。"
             "余弦衰减可以直接写出来。",
             "from pycore.schedule import learning_rate\n"
             "peak, w, total = params[\"peak\"], params[\"warmup\"], params[\"total\"]\n"
             "t = view[\"step\"]\n"
             "lo = params[\"min_ratio\"] * peak\n"
             "lr = learning_rate(t, w, peak, total, params[\"decay\"], lo)\n"
             "print(f\"第 {t} 步：{lr:.3g}\")\n"
             "same(lr, view[\"lr_value\"])\n"
             "if params[\"decay\"] == \"cosine\" and w <= t <= total:\n"
             "    progress = (t - w) / max(total - w, 1)\n"
             "    cosine = lo + (peak - lo) * 0.5 * (1 + np.cos(np.pi * progress))\n"
             "    same(cosine, view[\"lr_value\"])"),
        ],
    },
    "chinchilla": {
        "title": "Chinchilla：算力怎么分",
        "keys": ["given", "params", "tokens", "flops", "ratio"],
        "steps": [
            ("训练算力约为 $C = 6ND$；算力最优时每个参数约配 20 个 token。",
             "N, D = view[\"params\"], view[\"tokens\"]\n"
             "same(6 * N * D / view[\"flops\"], 1.0)\n"
             "same(D / N, view[\"ratio\"])\n"
             "if params[\"given\"] == \"N\":\n"
             "    same(D / N, 20.0)"),
        ],
    },
    "code-lab": {
        "title": "代码实验室：一个完整的 Pre-LN 块",
        "keys": ["seed", "causal", "output_shape", "error", "weights"],
        "steps": [
            ("实验室的脚本调用 pycore.block.lab_report：随机初始化一个块，跑一遍前向，"
             "返回每一步的形状和头 0 的前几行注意力权重。",
             "from pycore.block import lab_report\n"
             "trace, head0 = lab_report(seed=params[\"seed\"], causal=params[\"causal\"])\n"
             "for name, shape in trace:\n"
             "    print(f\"{name:<34} {shape}\")\n"
             "same(head0, view[\"weights\"])\n"
             "if params[\"causal\"]:  # 只看自己和前面的位置：前几列就是一行的全部权重\n"
             "    same(head0.sum(axis=1), np.ones(len(head0)))"),
        ],
    },
    "bpe": {
        "title": "字节对编码 BPE",
        "keys": ["k", "corpus", "k_used", "vocab_size", "ratio"],
        "steps": [
            ("BPE 从 UTF-8 字节出发：一个汉字是三个字节，一个字母是一个。学到的每条合并规则"
             "把相邻的一对 token 换成一个新 token；按顺序用前 k 条，且合并从不跨过预切分的块"
             "（词和标点各自成块）。",
             "from pycore import bpe, bpe_corpus\n"
             "merges = bpe.book_merges(params[\"corpus\"], bpe.MAX_MERGES)  # 按学到的顺序\n"
             "\n"
             "def apply(seq, pair, new):\n"
             "    \"\"\"从左到右，把每一处相邻的 pair 换成 new（不重叠）。\"\"\"\n"
             "    out, i = [], 0\n"
             "    while i < len(seq):\n"
             "        if tuple(seq[i:i + 2]) == tuple(pair):\n"
             "            out.append(new); i += 2\n"
             "        else:\n"
             "            out.append(seq[i]); i += 1\n"
             "    return out\n"
             "\n"
             "def tokens(text, k):\n"
             "    ids = []\n"
             "    for chunk in bpe.pretokenize(text):\n"
             "        seq = list(chunk.encode(\"utf-8\"))  # 先是一个字节一个 token\n"
             "        for m in merges[:k]:\n"
             "            seq = apply(seq, m[\"pair\"], m[\"token\"])\n"
             "        ids += seq\n"
             "    return ids\n"
             "\n"
             "zh, en = bpe_corpus.HELD_OUT\n"
             "ids_zh, ids_en = tokens(zh, params[\"k\"]), tokens(en, params[\"k\"])\n"
             "print(f\"中文 {len(zh.encode())} 个字节 → {len(ids_zh)} 个 token；\"\n"
             "      f\"英文 {len(en.encode())} 个字节 → {len(ids_en)} 个 token\")\n"
             "same(len(ids_zh), view[\"zh\"][\"n_tokens\"])\n"
             "same(len(ids_en), view[\"en\"][\"n_tokens\"])\n"
             "same(len(ids_zh) / len(ids_en), view[\"ratio\"])"),
            ("词表是 256 个字节加上用到的合并，每个新 token 的字节是它那一对拼起来；"
             "把 token 的字节接回去，就是原来的句子。",
             "vocab = [bytes([b]) for b in range(256)]\n"
             "for m in merges:\n"
             "    vocab.append(vocab[m[\"pair\"][0]] + vocab[m[\"pair\"][1]])\n"
             "same(256 + min(params[\"k\"], len(merges)), view[\"vocab_size\"])\n"
             "assert b\"\".join(vocab[t] for t in ids_zh).decode(\"utf-8\") == zh\n"
             "print([bpe.token_label(vocab[t]) for t in ids_zh])  # <e5> 这样的 token 只是一个汉字的一部分字节"),
        ],
    },
    "online-softmax": {
        "title": "分块计算 softmax（FlashAttention 的做法）",
        "keys": ["query", "tile", "step", "n_tiles", "m", "l", "output", "max_diff"],
        "steps": [
            ("一块一块地读键：记住目前为止的最大分数 m、分母 l 和加权和 acc。来了新的一块，"
             "若最大值变大，就把旧的 l 和 acc 乘上 $e^{m_旧-m_新}$ 再加上这一块的贡献；"
             "任何时候 acc / l 都是已读键上的注意力输出。",
             "from pycore import example\n"
             "X = example.EMBEDDINGS  # (9, 6)\n"
             "W_q, W_k, W_v = example.semantic_head()\n"
             "i = example.TOKENS.index(params[\"query\"])\n"
             "q, K, V = X[i] @ W_q, X @ W_k, X @ W_v  # (6,), (9, 6), (9, 6)\n"
             "s = K @ q / np.sqrt(6)  # (9,)：这一行的分数\n"
             "m, l, acc = -np.inf, 0.0, np.zeros(6)\n"
             "for start in range(0, 9, params[\"tile\"])[:view[\"step\"]]:\n"
             "    block = slice(start, start + params[\"tile\"])\n"
             "    m_new = max(m, s[block].max())\n"
             "    rescale = np.exp(m - m_new)  # 第一块：e^(-inf) = 0\n"
             "    p = np.exp(s[block] - m_new)\n"
             "    l = l * rescale + p.sum()\n"
             "    acc = acc * rescale + p @ V[block]\n"
             "    m = m_new\n"
             "print(f\"m = {m:.4f}，l = {l:.4f}\")\n"
             "same(m, view[\"m\"])\n"
             "same(l, view[\"l\"])\n"
             "same(acc / l, view[\"output\"])"),
            ("读完所有块，结果和一次算出整行 softmax 完全一样；"
             "而一块 B × B 的分数比整张 n × n 的表小 $(n/B)^2$ 倍。",
             "w = np.exp(s - s.max()); w = w / w.sum()\n"
             "same(w @ V, view[\"full_output\"])\n"
             "size = {\"fp32\": 4, \"fp16\": 2, \"bf16\": 2, \"fp8\": 1}[params[\"dtype\"]]  # 字节\n"
             "n, B = params[\"n\"], min(params[\"block\"], params[\"n\"])\n"
             "same(n * n * size, view[\"memory\"][\"full_scores\"])\n"
             "same(B * B * size, view[\"memory\"][\"tile_scores\"])\n"
             "same((n / B) ** 2, view[\"memory\"][\"ratio\"])"),
        ],
    },
    "example-editor": {
        "title": "改写运行示例",
        "keys": ["query", "x", "pronoun", "n_changed", "changes", "row", "top"],
        "steps": [
            ("小部件先检查改过的例子：每格取整并夹到 0 到 2 之间；再数出哪些格与书中的不同，"
             "句子增删过词也算一处。没有改过（params 里没有 example）时就是书中的例子。",
             "from pycore import example\n"
             "ex, problem = example.resolve_example(params.get(\"example\"))  # 坏的例子：书中的\n"
             "book = example.default_example()\n"
             "X, X_book = np.array(ex[\"x\"]), np.array(book[\"x\"])  # 各 (9, 6)\n"
             "changed = np.sum(X != X_book) + np.sum(np.array(ex[\"pronoun\"])\n"
             "                                       != np.array(book[\"pronoun\"]))\n"
             "changed += ex[\"tokens\"] != book[\"tokens\"]  # 句子换过：一处\n"
             "print(f\"改了 {changed} 处\")\n"
             "same(X, view[\"x\"])\n"
             "same(changed, view[\"n_changed\"])"),
            ("预览的是语义头在查询词那一行的权重，算在你的句子上（词板上的词用它的固定特征）："
             "$W_Q$ 是单位矩阵，只有代词那一行换成你设的数；$W_K$、$W_V$ 是单位矩阵。"
             "打分除以 $\\sqrt{6}$ 再 softmax。句子里没有的查询词换成“它”。",
             "tokens = ex[\"tokens\"]  # 句子里的词（你可能增删过）\n"
             "S = np.array([example.features_of(ex, t) for t in tokens])  # (n, 6)\n"
             "W_q = np.eye(6)\n"
             "W_q[5] = ex[\"pronoun\"]  # 代词那一行：它要找什么\n"
             "query = params[\"query\"] if params[\"query\"] in tokens else \"它\"\n"
             "i = tokens.index(query)\n"
             "s = (S[i] @ W_q) @ S.T / np.sqrt(6)  # (n,)：查询词对每个词的分数\n"
             "w = np.exp(s - s.max()); w = w / w.sum()\n"
             "print(query, dict(zip(tokens, np.round(w, 3).tolist())))\n"
             "n = len(tokens)\n"
             "assert query == view[\"query\"]\n"
             "same(w, view[\"row\"][:n])  # 图有 12 个位置，多出的为 0\n"
             "assert tokens[int(np.argmax(w))] == view[\"top\"][\"token\"]"),
        ],
    },
    "alibi-rope": {
        "title": "ALiBi 与 RoPE：两种告诉注意力距离的办法",
        "keys": ["query", "head", "theta", "causal", "slope", "w_before", "w_alibi", "w_rope"],
        "steps": [
            ("ALiBi 不改向量，只在分数上减去 $m\\,|i-j|$：8 个头的斜率是 $2^{-h}$"
             "（1/2 到 1/256）。距离每远一个词就少 $m$ 个 logit，所以权重每隔 "
             "$\\ln 2/m$ 个词减半。",
             "from pycore import example\n"
             "X = example.EMBEDDINGS  # (9, 6)\n"
             "W_q, W_k, _ = example.semantic_head()\n"
             "i = example.TOKENS.index(params[\"query\"])\n"
             "scores = (X[i] @ W_q) @ (X @ W_k).T / np.sqrt(6)  # (9,)\n"
             "dist = np.abs(np.arange(9) - i)\n"
             "m = 2.0 ** -params[\"head\"]\n"
             "keep = np.arange(9) <= i if params[\"causal\"] else np.ones(9, dtype=bool)\n"
             "\n"
             "def softmax(z):\n"
             "    z = np.where(keep, z, -np.inf)  # 因果掩码：查询之后的词不看\n"
             "    e = np.exp(z - z.max())\n"
             "    return e / e.sum()\n"
             "\n"
             "alibi = softmax(scores - m * dist)\n"
             "print(f\"m = {m}，权重每 {np.log(2) / m:.1f} 个词减半\")\n"
             "same(m, view[\"slope\"])\n"
             "same(np.log(2) / m, view[\"half_weight\"])\n"
             "same(softmax(scores), view[\"w_before\"])\n"
             "same(alibi, view[\"w_alibi\"])"),
            ("RoPE 把 q、k 的每一对维度 $(x_{2k}, x_{2k+1})$ 按位置转 $p\\theta$，"
             "分数于是只和相对位置 $i-j$ 有关。这里三对维度用同一个 $\\theta$。",
             "theta = round(params[\"theta\"], 2)\n"
             "\n"
             "def rotate(v, p):  # v: (..., 6)；p：位置，标量或 (n, 1)\n"
             "    a, b = v[..., 0::2], v[..., 1::2]\n"
             "    c, s = np.cos(p * theta), np.sin(p * theta)\n"
             "    out = np.empty_like(v)\n"
             "    out[..., 0::2], out[..., 1::2] = a * c - b * s, a * s + b * c\n"
             "    return out\n"
             "\n"
             "q = rotate(X[i] @ W_q, i)  # (6,)\n"
             "k = rotate(X @ W_k, np.arange(9)[:, None])  # (9, 6)：第 j 个键转 jθ\n"
             "rope = softmax(k @ q / np.sqrt(6))\n"
             "print(dict(zip(example.TOKENS, np.round(rope, 3).tolist())))\n"
             "same(rope, view[\"w_rope\"])"),
        ],
    },
    "beam-search": {
        "title": "束搜索与采样",
        "keys": ["width", "alpha", "max_new", "best", "n_finished", "sample_per_token"],
        "steps": [
            ("模型是一张二元表：下一个词的 logit 只看上一个词。束搜索找到的句子，"
             "$\\log p$ 是每一步 $\\log p(w_t\\mid w_{t-1})$ 之和；排名用的分数再除以长度的 "
             "$\\alpha$ 次方。",
             "from pycore import beam as B\n"
             "table = B.logit_table()  # (V, V)：行是上一个词，列是下一个词；-inf 表示不可能\n"
             "logp_table = np.full(table.shape, -np.inf)\n"
             "for r in range(len(table)):\n"
             "    if np.isfinite(table[r]).any():  # “。”那一行什么也接不了\n"
             "        z = table[r] - table[r][np.isfinite(table[r])].max()\n"
             "        logp_table[r] = z - np.log(np.exp(z).sum())  # 对数 softmax\n"
             "words = view[\"best\"][\"sentence\"].split()\n"
             "prev = [B.PROMPT[-1]] + words[:-1]  # 每个词前面的那个词\n"
             "logp = sum(logp_table[B.VOCAB.index(a), B.VOCAB.index(b)]\n"
             "           for a, b in zip(prev, words))\n"
             "alpha = round(params[\"alpha\"], 1)\n"
             "print(f\"{' '.join(words)}：log p = {logp:.3f}\")\n"
             "same(logp, view[\"best\"][\"logp\"])\n"
             "same(logp / len(words) ** alpha, view[\"best\"][\"score\"])"),
            ("采样的句子也用同一张表打分（温度只改变抽签，不改变这里的 $\\log p$）；"
             "四句各自每词平均的 $\\log p$ 再取平均，就是小部件里和束比较的那个数。",
             "per_token = []\n"
             "for sample in view[\"samples\"]:\n"
             "    w = sample[\"sentence\"].split()\n"
             "    p = [B.PROMPT[-1]] + w[:-1]\n"
             "    lp = sum(logp_table[B.VOCAB.index(a), B.VOCAB.index(b)] for a, b in zip(p, w))\n"
             "    same(lp, sample[\"logp\"])\n"
             "    per_token.append(lp / len(w))\n"
             "same(np.mean(per_token), view[\"sample_per_token\"])"),
        ],
    },
    "quantize": {
        "title": "量化：用更少的位存权重",
        "keys": ["bits", "symmetric", "granularity", "group_size", "levels", "n_scales",
                 "weight"],
        "steps": [
            ("对称量化：每一块（整个矩阵、每一列或每列的每一组）的缩放因子是 "
             "$s=\\max|x|/(2^{b-1}-1)$，存 $q=\\mathrm{round}(x/s)$，读回 $qs$。"
             "非对称量化多存一个零点 $z$，把 $2^b$ 个整数铺满 $[\\min, \\max]$。",
             "from pycore import quantize as Q\n"
             "W = Q.lab_weight(\"W_Q\")  # (128, 128)：代码实验里的 W_Q\n"
             "b = params[\"bits\"]\n"
             "g = {\"tensor\": 128 * 128, \"channel\": 128, \"group\": params[\"group_size\"]}\n"
             "n = g[params[\"granularity\"]]  # 共用一个缩放因子的数\n"
             "blocks = W.T.reshape(-1, n)  # 一列接一列切块：(块数, n)\n"
             "if params[\"symmetric\"]:\n"
             "    top = 2 ** (b - 1) - 1\n"
             "    s = np.abs(blocks).max(axis=1, keepdims=True) / top\n"
             "    z = np.zeros_like(s)\n"
             "    q = np.clip(np.round(blocks / s), -top, top)\n"
             "else:\n"
             "    top = 2 ** b - 1\n"
             "    lo = np.minimum(blocks.min(axis=1, keepdims=True), 0)\n"
             "    hi = np.maximum(blocks.max(axis=1, keepdims=True), 0)\n"
             "    s = (hi - lo) / top\n"
             "    z = np.round(-lo / s)\n"
             "    q = np.clip(np.round(blocks / s) + z, 0, top)\n"
             "err = np.abs((q - z) * s - blocks)\n"
             "print(f\"{len(s)} 个缩放因子，最大误差 {err.max():.2e}\")\n"
             "same(len(s), view[\"n_scales\"])\n"
             "same(err.max(), view[\"weight\"][\"max_abs\"])\n"
             "same(err.mean(), view[\"weight\"][\"mean_abs\"])"),
            ("字节数：原来每个数 2 字节（fp16）；量化后整数占 $b/8$ 字节，"
             "每个缩放因子按 fp16 存 2 字节，非对称时每块再加一个 $b$ 位的零点。",
             "payload = W.size * b // 8\n"
             "zeros = 0 if params[\"symmetric\"] else -(-len(s) * b // 8)  # 向上取整\n"
             "after = payload + 2 * len(s) + zeros\n"
             "print(f\"{2 * W.size:,} → {after:,} 字节\")\n"
             "same(2 * W.size, view[\"weight\"][\"before\"])\n"
             "same(after, view[\"weight\"][\"after\"])"),
        ],
    },
    "padding-mask": {
        "title": "补齐与 padding 掩码",
        "keys": ["query", "side", "mask", "causal", "row", "pad_share", "self_weight"],
        "steps": [
            ("短句补上 <pad>（嵌入是零向量）到和长句一样长。padding 掩码遮住 pad 所在的列，"
             "因果掩码遮住未来；被遮住的分数设为 $-\\infty$，softmax 后权重为 0。",
             "from pycore import example, padding\n"
             "short = padding.SHORT  # 4 个词\n"
             "T = len(example.TOKENS)  # 批里最长的句子：9 个词\n"
             "real = np.zeros(T, dtype=bool)\n"
             "real[:len(short)] = True\n"
             "if params[\"side\"] == \"left\":\n"
             "    real = real[::-1]  # pad 在前\n"
             "x = np.zeros((T, 6))\n"
             "x[real] = example.EMBEDDINGS[[example.TOKENS.index(t) for t in short]]\n"
             "allowed = np.ones((T, T), dtype=bool)\n"
             "if params[\"mask\"]:\n"
             "    allowed &= real[None, :]  # 每一行都不看 pad 的列\n"
             "if params[\"causal\"]:\n"
             "    allowed &= np.tril(np.ones((T, T), dtype=bool))\n"
             "W_q, W_k, W_v = example.semantic_head()\n"
             "scores = np.where(allowed, (x @ W_q) @ (x @ W_k).T / np.sqrt(6), -np.inf)\n"
             "w = np.exp(scores - scores.max(axis=1, keepdims=True))\n"
             "w = w / w.sum(axis=1, keepdims=True)  # (T, T)\n"
             "qi = np.flatnonzero(real)[short.index(params[\"query\"])]  # 查询词所在的列\n"
             "print(f\"pad 分走 {w[qi, ~real].sum():.3f}\")\n"
             "same(w[qi], view[\"row\"])\n"
             "same(w[qi, ~real].sum(), view[\"pad_share\"])"),
            ("加了 padding 掩码，短句的权重就和把它单独拿出来算（根本没有 pad）时一样。",
             "x4 = example.EMBEDDINGS[[example.TOKENS.index(t) for t in short]]  # (4, 6)\n"
             "s4 = (x4 @ W_q) @ (x4 @ W_k).T / np.sqrt(6)\n"
             "if params[\"causal\"]:\n"
             "    s4 = np.where(np.tril(np.ones((4, 4), dtype=bool)), s4, -np.inf)\n"
             "w4 = np.exp(s4 - s4.max(axis=1, keepdims=True))\n"
             "w4 = w4 / w4.sum(axis=1, keepdims=True)\n"
             "alone = np.zeros(T)\n"
             "alone[real] = w4[short.index(params[\"query\"])]  # 放回批里的列\n"
             "same(alone, view[\"row_alone\"])"),
        ],
    },
    "cross-attention": {
        "title": "交叉注意力：译文看原文",
        "keys": ["step", "scale", "writes", "attended", "attended_weight", "weights"],
        "steps": [
            ("编码器给原文的 9 个词各一个 10 维输出（6 个特征再加 4 个上下文特征），"
             "它们同时是键和值；解码器写第 step 个英文词时的查询说明它要找什么。"
             "打分、缩放、softmax，和自注意力一样，只是 Q 来自译文，K、V 来自原文。",
             "from pycore import cross_attention as CA\n"
             "KV = CA.encoder_output()  # (9, 10)\n"
             "q = CA.need(params[\"step\"] - 1)  # (10,)\n"
             "z = params[\"scale\"] * (KV @ q) / np.sqrt(len(q))  # (9,)\n"
             "w = np.exp(z - z.max()); w = w / w.sum()\n"
             "print(dict(zip(CA.SOURCE, np.round(w, 3).tolist())))\n"
             "same(w, view[\"weights\"])\n"
             "same(w.max(), view[\"attended_weight\"])\n"
             "assert CA.SOURCE[int(np.argmax(w))] == view[\"attended\"]"),
            ("训练时整句译文已知，13 个查询一次算完：13 × 9 的权重矩阵，每行最大的一格就是对齐。",
             "Q = np.array([CA.need(j) for j in range(len(CA.TARGET))])  # (13, 10)\n"
             "Z = params[\"scale\"] * Q @ KV.T / np.sqrt(Q.shape[1])  # (13, 9)\n"
             "W = np.exp(Z - Z.max(axis=1, keepdims=True))\n"
             "W = W / W.sum(axis=1, keepdims=True)\n"
             "same(W, view[\"matrix\"])\n"
             "print([f\"{t}→{CA.SOURCE[j]}\" for t, j in zip(CA.TARGET, W.argmax(axis=1))])\n"
             "same(W.argmax(axis=1), [CA.SOURCE.index(w) for w in view[\"aligned\"]])"),
        ],
    },
    "trained-model": {
        "title": "训练好的模型",
        "keys": ["tokens", "grammar", "answer", "position", "stage", "head"],
        "steps": [
            ("最后一层 LayerNorm 的输出 h 乘以词向量表的转置（输出层与输入层共用 E），"
             "就是每个位置下一个词的分数；去掉 padding 再 softmax，“=”处概率最大的词就是答案。",
             "from pycore.gpt import corpus, run\n"
             "weights, cfg, _ = run.book_model()  # 书里训练好的权重\n"
             "words = view[\"tokens\"]  # 12 个词，最后是“=”\n"
             "t = run.trace(words)  # 一次前向，中间结果都留着\n"
             "h = t[\"final_norm\"][\"output\"]  # (12, 48)\n"
             "z = h @ weights[\"tok_emb\"].T  # (12, 56)\n"
             "z[:, corpus.PAD_ID] = -np.inf\n"
             "p = np.exp(z[-1] - z[-1].max()); p = p / p.sum()\n"
             "best = int(np.argmax(p))\n"
             "print(f\"答案「{corpus.VOCAB[best]}」，概率 {p[best]:.4f}\")\n"
             "same(p[best], view[\"answer\"][\"p\"])\n"
             "assert corpus.VOCAB[best] == view[\"answer\"][\"word\"]"),
            ("所选那一层的注意力：进注意力之前的 LayerNorm 输出乘 $W_Q$、$W_K$，按头切成 4 份"
             "（每头 12 维），因果地打分再 softmax；这里是所选词那一行，4 个头各一行。",
             "L = view[\"attn\"][\"layer\"]\n"
             "x = t[\"layers\"][L][\"ln1\"][\"output\"]  # (T, 48)\n"
             "T, H = len(words), cfg[\"n_heads\"]\n"
             "Dh = x.shape[1] // H\n"
             "q = (x @ weights[f\"layers.{L}.attn.w_q\"]).reshape(T, H, Dh).transpose(1, 0, 2)\n"
             "k = (x @ weights[f\"layers.{L}.attn.w_k\"]).reshape(T, H, Dh).transpose(1, 0, 2)\n"
             "s = q @ k.transpose(0, 2, 1) / np.sqrt(Dh)  # (H, T, T)\n"
             "s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)\n"
             "a = np.exp(s - s.max(axis=-1, keepdims=True))\n"
             "a = a / a.sum(axis=-1, keepdims=True)\n"
             "i = params[\"position\"]\n"
             "print(f\"L{L} 各头在「{words[i]}」处最看重：\", [words[j] for j in a[:, i].argmax(1)])\n"
             "same(a[:, i], view[\"attn\"][\"rows\"])"),
        ],
    },
    "kernel-regression": {
        "title": "注意力汇聚：Nadaraya–Watson 核回归",
        "keys": ["query", "width", "prediction", "truth", "top_weight", "nearest"],
        "steps": [
            ("查询 $x$ 给每个训练点打分 $-(x-x_i)^2/2\\ell^2$，softmax 成权重，"
             "再把训练点的 $y_i$ 按权重加起来，就是这一点的预测。",
             "from pycore import kernel_regression as kr\n"
             "x, y = kr.training_points()  # 30 个训练点\n"
             "q, width = params[\"query\"], params[\"width\"]\n"
             "s = -(q - x) ** 2 / (2 * width ** 2)  # 距离越近，分数越高\n"
             "a = np.exp(s - s.max()); a = a / a.sum()  # softmax\n"
             "print(f\"最大的权重 {a.max():.3f}，落在 x = {x[a.argmax()]:.2f}\")\n"
             "same(a, view[\"weights\"])\n"
             "same(a @ y, view[\"prediction\"])"),
        ],
    },
    "head-ablation": {
        "title": "关掉注意力头：消融",
        "keys": ["accuracy", "correct", "n", "off"],
        "steps": [
            ("一个头的输出只经过 $W_O$ 里属于它的 12 行进入残差流，所以把这 12 行清零，"
             "就等于关掉这个头。用这样改过的权重，在同一批留出句子上数一数答对几句。",
             "from pycore.gpt import corpus, evaluate, model, run\n"
             "weights, cfg, _ = run.book_model()\n"
             "off = [(l, h) for l in range(2) for h in range(4) if not params[f\"l{l}h{h}\"]]\n"
             "w = dict(weights)\n"
             "for l, h in off:\n"
             "    name = f\"layers.{l}.attn.w_o\"\n"
             "    w[name] = w[name].copy()\n"
             "    w[name][12 * h:12 * (h + 1)] = 0.0  # 第 h 个头的 12 行\n"
             "b = corpus.batch(evaluate.heldout(view[\"n\"]))\n"
             "hidden, _ = model.forward(w, cfg, b[\"inputs\"])  # (句数, 长度, 48)\n"
             "rows = np.arange(len(b[\"query\"]))\n"
             "answer = model.logits(w, hidden[rows, b[\"query\"]]).argmax(axis=-1)  # “=”处\n"
             "right = int((answer == b[\"answer\"]).sum())\n"
             "print(f\"关掉 {off}：{view['n']} 句里答对 {right} 句\")\n"
             "same(right, view[\"correct\"])"),
        ],
    },
    "learned-vs-handmade": {
        "title": "手写的头与学出来的头",
        "keys": ["adjective", "head", "grammar"],
        "steps": [
            ("手写的语义头只看 6 维手写特征；“宽”和“累”在特征里是同一行，"
             "所以换形容词时，“它”那一行纹丝不动。",
             "from pycore import example\n"
             "X = example.EMBEDDINGS  # (9, 6)\n"
             "W_q, W_k, W_v = example.semantic_head()\n"
             "i = example.TOKENS.index(\"它\")\n"
             "s = (X[i] @ W_q) @ (X @ W_k).T / np.sqrt(6)  # (9,)\n"
             "hand = np.exp(s - s.max()); hand = hand / hand.sum()\n"
             "print(dict(zip(view[\"hand\"][\"tokens\"], np.round(hand, 4).tolist())))\n"
             "same(hand, view[\"hand\"][\"row\"])"),
            ("学出来的头在训练好的模型里：取所选层进注意力之前的 LayerNorm 输出，"
             "用这个头的那 12 列 $W_Q$、$W_K$ 打分，看“=”那一行。",
             "from pycore.gpt import run\n"
             "weights, cfg, _ = run.book_model()\n"
             "words = view[\"learned\"][\"tokens\"]  # 例句加上“， 它 =”\n"
             "layer, h = (int(c) for c in params[\"head\"].split(\"-\"))\n"
             "x = run.trace(words)[\"layers\"][layer][\"ln1\"][\"output\"]  # (12, 48)\n"
             "cols = slice(12 * h, 12 * (h + 1))  # 第 h 个头的列\n"
             "q = x[-1] @ weights[f\"layers.{layer}.attn.w_q\"][:, cols]  # (12,)：“=”的查询\n"
             "k = x @ weights[f\"layers.{layer}.attn.w_k\"][:, cols]  # (12, 12)\n"
             "s = k @ q / np.sqrt(12)  # “=”是最后一个词，因果掩码什么也不遮\n"
             "learned = np.exp(s - s.max()); learned = learned / learned.sum()\n"
             "print(f\"指向「{words[int(np.argmax(learned))]}」：{learned.max():.4f}\")\n"
             "same(learned, view[\"learned\"][\"row\"])"),
        ],
    },
    "train-live": {
        "title": "在页面里训练一个小模型",
        "keys": ["seed", "steps", "lr", "accuracy", "evaluated_at", "head"],
        "steps": [
            ("学习率先在 100 步里线性升到峰值，再按余弦降到最小值。",
             "from pycore.gpt import live\n"
             "S = live.LIVE  # 这个小模型的训练设置\n"
             "t, peak, lo = params[\"steps\"], S[\"peak_lr\"], S[\"min_lr\"]\n"
             "if t < S[\"warmup\"]:\n"
             "    lr = peak * t / S[\"warmup\"]\n"
             "else:\n"
             "    progress = (t - S[\"warmup\"]) / (S[\"steps\"] - S[\"warmup\"])\n"
             "    lr = lo + (peak - lo) * 0.5 * (1 + np.cos(np.pi * progress))\n"
             "print(f\"第 {t} 步的学习率 {lr:.2e}\")\n"
             "same(lr, view[\"lr\"])"),
            ("用这次训练到第 steps 步的权重，把例句送过所选层之前的各层，"
             "再用所选的头算“=”那一行的注意力：它给答案名词的权重就是图里的那个数。",
             "from pycore.gpt import corpus, layers, live_runs, model\n"
             "from pycore.norms import layer_norm\n"
             "run = live_runs.advance(params[\"seed\"], params[\"steps\"])  # 小部件刚训练到的这一次\n"
             "w, cfg = run[\"state\"][\"params\"], run[\"state\"][\"settings\"][\"model\"]\n"
             "words = live.EXAMPLES[0 if params[\"adjective\"] == \"累\" else 1]\n"
             "ids = np.array([corpus.encode(words)])  # (1, 12)\n"
             "x = w[\"tok_emb\"][ids] + w[\"pos_emb\"][:ids.shape[1]]  # (1, 12, 32)\n"
             "layer, h = (int(c) for c in params[\"head\"].split(\"-\"))\n"
             "for j in range(layer):  # 所选层之前的那些层，整层照搬\n"
             "    x, _ = layers.block(x, model.layer(w, j), cfg[\"n_heads\"],\n"
             "                        cfg[\"activation\"])\n"
             "p = model.layer(w, layer)\n"
             "x = layer_norm(x[0], p[\"ln1.gamma\"], p[\"ln1.beta\"])  # (12, 32)\n"
             "Dh = x.shape[1] // cfg[\"n_heads\"]\n"
             "cols = slice(Dh * h, Dh * (h + 1))\n"
             "q = x[-1] @ p[\"attn.w_q\"][:, cols]  # “=”的查询\n"
             "s = (x @ p[\"attn.w_k\"][:, cols]) @ q / np.sqrt(Dh)  # (12,)\n"
             "a = np.exp(s - s.max()); a = a / a.sum()  # (12,)：“=”那一行\n"
             "noun = words.index(corpus.answer_of(words))\n"
             "print(f\"给「{words[noun]}」{a[noun]:.4f}\")\n"
             "same(a[noun], view[\"on_answer\"][\"weight\"])"),
        ],
    },
}
