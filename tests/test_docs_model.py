"""docs/model.md states no figure that nothing checks.

`claims()` lists the doc's sentences with the figures written in from what they describe:
the committed weights and their record (pycore/gpt_weights.*), the corpus, the settings, the
live runs the page trains, the tests' own tolerances. `MEASURED` lists, word for word, the
timings of one run of `python3 benchmarks/gpt.py` and the setting it ran in: wall-clock
figures, which no test asserts. Every number in the doc must stand inside one of the two, so a
figure added to the doc without a check fails here.
"""
import inspect
import re
from pathlib import Path

import numpy as np
import pytest

from bookbuild.runtime import vendor
from pycore import example, positional
from pycore.gpt import __main__ as cli
from pycore.gpt import corpus, evaluate, live, live_runs, model, poem_run, poems, run, train_poems
from pycore.widgets import learned_vs_handmade, trained_model
from tests import trained_model_figures as figures

ROOT = Path(__file__).resolve().parent.parent
# Whitespace folded to single spaces: the doc wraps its lines anywhere.
DOC = " ".join((ROOT / "docs" / "model.md").read_text(encoding="utf-8").split())

# A number: not part of a name (ln1, GPT-2, 13b) nor of a version (0.27.7).
NUMBER = re.compile(r"(?<![\w.\-])\d+(?:,\d{3})*(?:\.\d+)?(?:e-?\d+)?(?!\.?\d|\w)")

MEASURED = [
    "one run of `python3 benchmarks/gpt.py` on this 2-CPU machine at load below 1",
    "under Node.js 20", "CPython 3.11 with OpenBLAS",
    "| `run.trace`, 16 words, median / p95 | < 4 / < 16 ms | 0.50 / 0.78 ms | **2.40 / 2.58 ms** |",
    "| `run.next_token`, 16 words | — | 0.30 / 0.39 ms | 1.35 / 1.44 ms |",
    "| live training, steps/s (no reports) | ≥ 20 | 113 | **37** |",
    "| 35 ms | 81 ms |",
    "| live seed 0 / 1 to ≥ 95 % (report / 25 steps) | ≤ 60 s | 1.8 / 3.6 s | **9.2 / 18.9 s** |",
    "| ≤ 10 min |", "| ≤ 1 MB |",
    "trained in 154 s on this 2-CPU machine",  # the record's figure (checked), the machine's
    # the poem model's forward pass in Pyodide (benchmarks/char_gpt.py)
    "against 00d520f (Pyodide under Node.js, 12-06, two runs at load 2.2–2.5, the sides alternated), "
    "median / p95 in ms: the forward pass over 64 characters 58.4 / 66.4 → 33.6 / 44.3 and "
    "61.6 / 66.2 → 40.9 / 44.7 (goal < 50), `next_char` 60.9 / 70.6 → 27.5 / 36.5 and "
    "63.2 / 67.7 → 32.7 / 36.5.",
]


def sci(x, digits=1):
    """3e-3, 8.4e-5: a number as the doc writes it."""
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"


def shape(a, T):
    """(T, 48), (56,): an array's shape with the sentence length written T."""
    dims = ["T" if d == T else str(d) for d in np.shape(a)]
    return "(" + ", ".join(dims) + (",)" if len(dims) == 1 else ")")


def corpus_claims():
    held, train = corpus.every_sentence("heldout"), corpus.every_sentence("train")
    lengths = [len(s["tokens"]) for s in held + train]
    pairs = corpus.pairs("heldout")
    # the held-out rule, computed again from the doc's description
    assert set(pairs) == {(a, o) for i, a in enumerate(corpus.ANIMATE)
                          for j, o in enumerate(corpus.OBSTACLES) if (i + j) % 4 == 0}
    assert all(sum(n in p for p in pairs) == 2 for n in corpus.ANIMATE + corpus.OBSTACLES)
    assert 2 * sum(corpus.ANIMATE_FIRST) == len(corpus.TEMPLATES) and len(corpus.DEGREES) == 4
    every = {tuple(s["tokens"]) for s in held + train}
    for line in re.findall(r"^    (\S.* = \S+)$", (ROOT / "docs" / "model.md").read_text(
            encoding="utf-8"), re.M)[:3]:
        assert tuple(line.split()) in every, line
    decide, _ = figures.where_nouns_decide()
    animal = [s for s in held if s["answer"] in corpus.ANIMATE]
    obstacle = [s for s in held if s["answer"] in corpus.INANIMATE]
    assert all(corpus.nouns_decide(s) for s in animal)
    for word in ("翻过", "跳过", "走过", "薄"):
        assert len({tuple(corpus.answer_candidates(s["tokens"])) for s in held + train
                    if word in s["tokens"] and s["answer"] in corpus.INANIMATE}) == 1
    return [
        f"{len(corpus.ANIMATE)} animals ({' '.join(corpus.ANIMATE)}) and {len(corpus.OBSTACLES)} "
        f"obstacles ({' '.join(corpus.OBSTACLES)})",
        f"({' '.join(corpus.INANIMATE_ADJECTIVES)}); {len(corpus.ANIMATE_ADJECTIVES)} adjectives "
        f"fit every animal ({' '.join(corpus.ANIMATE_ADJECTIVES)})",
        f"{len(corpus.TEMPLATES)} templates, half with the animal first",
        f"{len(corpus.VOCAB)} tokens: padding plus the grammar's words",
        f"Sentences are {min(lengths)} to {max(lengths)} tokens",
        f"the {len(pairs)} pairs with (animal index + obstacle index) divisible by 4, two per noun",
        f"Training has {len(train):,} distinct sentences over {len(corpus.pairs('train'))} pairs, "
        f"the held-out set {len(held):,}.",
        f"is true where more than one is left: {len(decide):,} held-out sentences, every one with "
        f"an animal for answer and {sum(s['answer'] in corpus.INANIMATE for s in decide):,} of the "
        f"{len(obstacle):,} with an obstacle",
    ]


def model_claims():
    params, cfg, record = run.book_model()
    s = record["settings"]
    D, H, L = cfg["d_model"], cfg["n_heads"], cfg["n_layers"]
    init = model.init(cfg, 0)
    assert np.std(init["tok_emb"]) == pytest.approx(0.02, rel=0.05)
    for name in ("layers.0.attn.w_o", "layers.1.ffn.w2"):  # they write into the residual stream
        assert np.std(init[name]) == pytest.approx(0.02 / np.sqrt(2 * L), rel=0.1)
    assert np.std(init["layers.0.attn.w_q"]) == pytest.approx(0.02, rel=0.1)
    assert np.abs(positional.sinusoidal(cfg["n_positions"], D)).max() == pytest.approx(1, abs=1e-3)
    return [
        f"(B, T, {D})", f"{L} x x = x + MHA(LN(x))",
        f"Pre-LN, {H} causal heads of {D // H}, FFN {cfg['d_ff']}, GELU", f"(B, T, {cfg['vocab']})",
        f"{record['parameters']:,} parameters, float64",
        "normal with std 0.02, the two projections into the residual stream 0.02 / sqrt(2 L)",
        "that table's entries reach 1 while the embeddings start at 0.02",
        f"plus, with weight {s['lm_weight']:g}, the mean next-token cross-entropy",
        f"betas ({s['betas'][0]}, {s['betas'][1]}), decoupled weight decay {s['weight_decay']}",
        f"Gradients clipped to global norm {s['clip']:g}.",
        f"{s['warmup']} warmup steps to {sci(s['peak_lr'])}, cosine down to {sci(s['min_lr'])} at "
        f"step {s['steps']}.",
        f"{s['batch']} fresh sentences per step from a generator seeded from the run's seed "
        f"({s['seed']})",
        f"re-runs the first {cli.FIRST_LOSSES} steps against the record's losses",
        f"every {s['eval_every']} steps, the held-out accuracy and the attention figure on a "
        f"fixed sample of {s['eval_sentences']:,} held-out sentences; at the end it evaluates "
        f"all {record['final']['heldout_sentences']:,}",
        f"the first {len(record['first_losses'])} losses, one loss in "
        f"{s['steps'] // len(record['losses_every_50'])}",
        f"trained in {record['train_seconds']:.0f} s",
        f"| {record['train_seconds']:.0f} s (the record's `train_seconds`) |",
    ]


def learned_claims():
    params, cfg, record = run.book_model()
    final = record["final"]
    share = np.array(final["attention_share"])
    # the best head and the next best
    (l1, h1), (l2, h2) = [np.unravel_index(i, share.shape)
                          for i in np.argsort(-share, axis=None)[:2]]
    twin = "小猫 没有 过 马路 因为 它 太 宽 了 ， 它 =".split()
    layer0 = run.trace(twin)["layers"][0]["attention"]["weights"][:, -1, twin.index("宽")]
    top3 = sorted(range(len(layer0)), key=lambda h: -layer0[h])[:3]
    decide, e = figures.where_nouns_decide()
    ev = record["evaluations"]
    missed = [x for x in ev if x["accuracy"] < 1]
    head_missed = [x for x in ev if x["best_attention"] < 1]
    assert len(missed) == len(head_missed) == 1 and ev[0]["accuracy"] == 1
    return [
        f"On all {final['heldout_sentences']:,} held-out sentences: accuracy "
        f"{figures.percent(final['accuracy'])} %, answer loss {sci(final['answer_loss'])}. "
        f"Layer {l1} head {h1} puts at least {evaluate.ATTENTION_THRESHOLD} of its weight on the "
        f"right noun in {figures.percent(share[l1, h1])} % of them (mean weight "
        f"{final['mean_attention_on_answer'][l1][h1]:.2f}); layer {l2} head {h2} in "
        f"{100 * share[l2, h2]:.0f} %.",
        f"In layer 0, the heads at \"=\" look at the adjective (宽 gets "
        + ", ".join(f"{layer0[h]:.2f}" for h in sorted(top3)[:2])
        + f" and {layer0[sorted(top3)[2]]:.2f} of three heads' weight",
        f"On the {len(decide):,} held-out sentences where only the nouns decide, the accuracy is "
        f"{figures.percent(e['accuracy'])} % too, and layer {l1} head {h1} points at the right "
        f"noun in {figures.percent(e['attention'][l1, h1])} % of them.",
        f"On the {record['settings']['eval_sentences']:,}-sentence sample the accuracy is 100 % at "
        f"step {ev[0]['step']} and at every later evaluation but one "
        f"({figures.percent(missed[0]['accuracy'])} % at step {missed[0]['step']}), and so is the "
        f"best head's figure ({figures.percent(head_missed[0]['best_attention'])} % at step "
        f"{head_missed[0]['step']}).",
        f"Those figures are seed {record['settings']['seed']}'s, the committed run's",
        f"prints the same figures every {record['settings']['eval_every']} steps",
    ]


def live_claims():
    s, m = live.LIVE, live.LIVE["model"]
    seed0, seed1 = figures.live_evaluations(0, 400), figures.live_evaluations(1, 700)
    reached0 = next(e for e in seed0 if e["accuracy"] >= 0.95)
    reached1 = next(e for e in seed1 if e["accuracy"] >= 0.95)
    at = {e["step"]: e for e in seed0}
    assert seed1[-1]["step"] == 700
    return [
        f"`live.LIVE`: d_model {m['d_model']}, {m['n_heads']} heads, {m['n_layers']} layers, FFN "
        f"{m['d_ff']}, batch {s['batch']}, warmup {s['warmup']}, peak {sci(s['peak_lr'])}, cosine "
        f"to {sci(s['min_lr'])} at step {s['steps']};",
        f"On the {s['eval_sentences']} held-out sentences the page evaluates every "
        f"{live_runs.EVAL_EVERY} steps, seed 0 first reaches ≥ 95 % at step {reached0['step']} and "
        f"is at {figures.percent(seed0[-1]['accuracy'])} % at step {seed0[-1]['step']}; seed 1 "
        f"first reaches it at step {reached1['step']}.",
        f"Seed 0 forms a head that points at the right noun (layer 1 head 0 puts "
        f"≥ {evaluate.ATTENTION_THRESHOLD} on it in "
        f"{figures.percent(at[reached0['step']]['attention'][1][0])} % of the "
        f"{s['eval_sentences']} sentences at step {reached0['step']})",
        f"Seed 1 reaches the same accuracy without one: at step {seed1[-1]['step']} its best "
        f"head points right in "
        f"{100 * np.max(seed1[-1]['attention']):.0f} % of them",
        f"The live runs to 95 % take {reached0['step']} (seed 0) and {reached1['step']} (seed 1) "
        f"steps.",
        f"| one live report ({s['eval_sentences']} sentences + maps) |",
    ]


def api_claims():
    params, cfg, record = run.book_model()
    words = "昨天 小猫 没有 过 马路 因为 它 太 累 了 ， 它 =".split()
    T = len(words)  # 13: none of the model's sizes, so T is unambiguous
    t = run.trace(words)
    layer = t["layers"][0]
    a = layer["attention"]
    report = live.snapshot(live.init(0))
    m = report["attention"]
    L, H = live.LIVE["model"]["n_layers"], live.LIVE["model"]["n_heads"]
    n_ex, Tl = len(live.EXAMPLES), len(live.EXAMPLES[0])
    sig = lambda f, name: inspect.signature(f).parameters[name].default
    js = (ROOT / "pycore" / "widgets" / "train_live" / "widget.js").read_text(encoding="utf-8")
    browser = (ROOT / "tests" / "browser" / "test_train_live.py").read_text(encoding="utf-8")
    # read, not imported: the timing script runs its benchmark when imported
    benchmark_sentence = re.search(r'^SENTENCE = "(.*)"\.split\(\)', (
        ROOT / "benchmarks" / "gpt_timings.py").read_text(encoding="utf-8"), re.M).group(1).split()
    assert m["weights"].shape == (n_ex, L, H, Tl, Tl) and m["on_answer"].shape == (n_ex, L, H)
    assert len(learned_vs_handmade.sentences("累")[0]) == len(example.TOKENS)
    assert {len(f.split()) for f in trained_model.FRAMES} == {4}
    return [
        f"`trace(words, top={sig(run.trace, 'top')})`",
        f"at most {cfg['n_positions']}): `embedding` {{token, position, sum "
        f"{shape(t['embedding']['sum'], T)}}}; per layer `ln1` / `ln2` {{input_mean "
        f"{shape(layer['ln1']['input_mean'], T)}, input_std {shape(layer['ln1']['input_std'], T)}, "
        f"output {shape(layer['ln1']['output'], T)}}}, `attention` {{q, k, v "
        f"{shape(a['q'], T)}, weights {shape(a['weights'], T)}, heads {shape(a['heads'], T)}, "
        f"output {shape(a['output'], T)}}}, `residual1`, `ffn` {{hidden "
        f"{shape(layer['ffn']['hidden'], T)}, output {shape(layer['ffn']['output'], T)}}}, "
        f"`residual2`; `final_norm`; `logits` {shape(t['logits'], T)}; `next` {{probs "
        f"{shape(t['next']['probs'], T)}, top:",
        f"`next_token(words)`: the {shape(run.next_token(words), T)} distribution",
        f"`init(seed={sig(live.init, 'seed')})`",
        f"`accuracy` (on {live.LIVE['eval_sentences']} fixed held-out sentences)",
        f"`weights` ({n_ex}, L, H, {Tl}, {Tl}), `answer_position` {m['answer_position']}, "
        f"`on_answer` ({n_ex}, L, H)",
        f"`run.trace` on a {trained_model.T}-word sentence (a four-word frame",
        f"on the {len(example.TOKENS)}-word sentence",
        "sized to about " + re.search(r"const TARGET_MS = (\d+);", js).group(1) +
        " ms of the worker's time, its `TARGET_MS`",
        "live losses to " + re.search(r"^LOSS_TOL = (\S+)$", browser, re.M).group(1) +
        " (`LOSS_TOL` in tests/browser/test_train_live.py",
        f"| `run.trace`, {len(benchmark_sentence)} words,",
        f"| {(ROOT / 'pycore' / run.WEIGHTS).stat().st_size:,} bytes |",
        f"Pyodide {vendor.VERSION} under Node.js",
        "NumPy " + vendor.NUMPY_WHEEL.split("-")[1] + " without BLAS",
    ]


def poem_claims():
    """The character-level poem model's section: its record (pycore/poem_gpt.json)."""
    _, cfg, r = poem_run.poem_model()
    c, s, h, sub = r["corpus"], r["settings"], r["final"]["heldout"], r["final"]["subset"]
    npz = (ROOT / "pycore" / train_poems.WEIGHTS).stat().st_size
    extract = (ROOT / "pycore" / train_poems.HELDOUT).read_text(encoding="utf-8")
    assert len(extract) == sub["characters"] + 1
    return [
        f"version {c['version']} (bookworm)", "package GPL-3.0+",
        f"one of the {len(poems.CLASSICAL)} works or poets in `poems.CLASSICAL`",
        f"{c['units']:,} units: {c['train_characters']:,} training characters and "
        f"{c['heldout_characters']:,} held-out ones",
        f"({c['heldout_units']} units)", f"at least {s['min_count']} times",
        f"{len(r['vocab']):,} entries; {c['heldout_unknown']} of the held-out characters",
        f"(the weights, float16, {npz:,} bytes)",
        f"the first {len(extract)} held-out characters",
        f"learned positions ({cfg['n_positions']} of them: the context), {cfg['n_layers']} Pre-LN "
        f"blocks of d_model {cfg['d_model']}, {cfg['n_heads']} causal heads, FFN {cfg['d_ff']}",
        f"{cfg['vocab']:,} x {cfg['d_model']} embedding: {r['parameters']:,} parameters",
        f"{s['batch']} windows of {s['context']} + 1 characters",
        f"(betas {s['betas'][0]}, {s['betas'][1]}, weight decay {s['weight_decay']}, clip "
        f"{s['clip']:g}), {s['warmup']} warmup steps to {sci(s['peak_lr'])}, cosine to "
        f"{sci(s['min_lr'])} at step {s['steps']:,}; seed {s['seed']}",
        f"Every {train_poems.CHECKPOINT_EVERY} steps it writes a checkpoint",
        f"every {s['eval_every']} steps, the perplexity on the held-out subset",
        f"from at most {s['context']} characters before it",
        f"| all held-out text | {h['characters']:,} | **{h['perplexity']:.1f}** | "
        f"{h['unigram_perplexity']:.1f} | {h['bigram_perplexity']:.1f} (k = {h['bigram_k']:g}) |",
        f"| the committed subset | {sub['characters']} | **{sub['perplexity']:.1f}** | "
        f"{sub['unigram_perplexity']:.1f} | {sub['bigram_perplexity']:.1f} "
        f"(k = {sub['bigram_k']:g}) |",
        "the best of " + ", ".join(f"{k:g}" for k in train_poems.BIGRAM_KS),
        f"(the ids of the last {cfg['n_positions']} characters",
        f"(at most {poem_run.MAX_NEW} characters",
        f"times one forward pass over {cfg['n_positions']} characters",
        "at a load average near 30 (two CPUs",  # the one run's setting, as measured
        "(id 0,", "on this 2-CPU machine shared with other work", "in one thread at nice 19",
        "`OMP_NUM_THREADS=1 nice -n 19 python3 -m pycore.gpt.train_poems",
    ] + poem_run_claims(r)


def poem_run_claims(r):
    """The committed run's steps and time: a finished schedule, or one stopped early."""
    s = r["settings"]
    if r["steps"] == s["steps"]:
        return [f"took {r['steps']:,} steps, {r['train_seconds']:.0f} s (the record's",
                f"about {r['train_seconds'] / r['steps']:.1f} s a step"]
    return [f"stopped at step {r['steps']:,} of the {s['steps']:,}-step schedule "
            f"(`--stop {r['steps']}`), after {r['train_seconds']:.0f} s (the record's",
            f"goes on to step {s['steps']:,}", f"--stop {r['steps']}` (writes"]


def poem_inside_claims():
    """The section on the poem model's inside: pycore.gpt.poem_inside on the held-out subset."""
    from pycore.gpt import poem_inside
    r, a = poem_inside.head_losses(), poem_inside.attention_profile()
    lens, params = poem_inside.lens_profile(), poem_run.poem_model()[0]
    pca = poem_inside.embedding_pca(params)
    ppl = lambda split: " | ".join(f"{np.exp(split[k]):.2f}"  # noqa: E731
                                   for k in ("all", "line_end", "other"))
    n, e = r["targets"], r["line_ends"]
    rows = [f"| head off | all {n} | line ends ({e}) | others ({n - e}) | weight on line ends |",
            "|---|---|---|---|---|",
            f"| none | {ppl(r['none'])} | {a['line_end_share']:.3f} for even weights |"]
    rows += [f"| layer {i} head {j} | {ppl(s)} | {a['line_ends'][i, j]:.3f} |"
             for (i, j), s in r["heads"].items()]
    rows += [f"| all of layer {i} | {ppl(s)} | |" for i, s in r["layers"].items()]
    corr = np.corrcoef(np.arange(len(params["tok_emb"])), pca["xy"][:, 0])[0, 1]
    heads, none = r["heads"], r["none"]
    line_ender = max(heads, key=lambda k: heads[k]["line_end"])
    # heads whose loss off rises on the line ends (by 0.3 nats or more) and falls on the
    # rest, and heads whose loss rises on the rest (0.1 nats or more) and falls on line ends
    ends = [k for k in heads if heads[k]["line_end"] > none["line_end"] + 0.3
            and heads[k]["other"] < none["other"]]
    chars = [k for k in heads if heads[k]["other"] > none["other"] + 0.1
             and heads[k]["line_end"] < none["line_end"]]
    assert len({i for i, _ in ends}) == len({i for i, _ in chars}) == 1
    assert a["entropy"][0].min() > a["entropy"][1:].max()  # layer 0 the most even
    said = lambda ks: f"layer {ks[0][0]}'s heads {ks[0][1]} and {ks[1][1]}"  # noqa: E731
    return rows + [
        "embedding (block 0's input)",
        f"Layer {line_ender[0]} head {line_ender[1]} looks at the line ends",
        f"{said(ends)} help with the same; {said(chars)} help with the other characters",
        "and layer 0's heads spread their weight nearly evenly",
        f"at most {a['previous'].max():.3f} of a head's weight",
        f"(entropy {a['entropy'][0].min():.2f} to {a['entropy'][0].max():.2f} nats; "
        f"{a['uniform_entropy']:.2f} for even weights)",
        f"({100 * lens['echo'][0]:.1f} % of the positions)",
        "the perplexity falls block by block: " + ", ".join(f"{p:,.2f}" for p in lens["perplexity"]),
        f"({100 * pca['share'][0]:.1f} % and {100 * pca['share'][1]:.1f} % of the variance",
        f"correlation {corr:.2f} with the vocabulary's rank",
    ]


@pytest.fixture(scope="module")
def claims():
    return (corpus_claims() + model_claims() + learned_claims() + live_claims() + api_claims()
            + poem_claims() + poem_inside_claims())


def test_the_doc_states_every_checked_figure(claims):
    missing = [c for c in claims if c not in DOC]
    assert not missing, f"docs/model.md no longer says {missing}"


def test_every_number_in_the_doc_is_checked_or_a_measured_timing(claims):
    covered = [False] * len(DOC)
    for text in claims + MEASURED:
        for found in re.finditer(re.escape(text), DOC):
            covered[found.start():found.end()] = [True] * len(text)
    loose = [(m.group(), DOC[max(0, m.start() - 40):m.end() + 40])
             for m in NUMBER.finditer(DOC) if not all(covered[m.start():m.end()])]
    assert not loose, ("numbers in docs/model.md that no test checks (add a check to "
                       f"claims(), or remove them): {loose}")
