"""Every number chapter 13b states about the character-level poem model is its record's
(pycore/poem_gpt.json, written by python3 -m pycore.gpt.train_poems)."""
from pathlib import Path

from pycore.gpt import poem_run

CHAPTER = (Path(__file__).resolve().parent.parent / "book" / "13b-trained-model.md").read_text(
    encoding="utf-8")


def test_the_section_quotes_the_record():
    _, cfg, record = poem_run.poem_model()
    c, h = record["corpus"], record["final"]["heldout"]
    for text in (f"{record['parameters']:,} 个参数", f"{len(record['vocab']) - 1:,} 个字，外加一个“未知字”",
                 f"{c['units']:,} 首（段）", f"{c['heldout_units']} 首",
                 f"留出的 {h['characters']:,} 个字上，它的困惑度是 {h['perplexity']:.0f}",
                 f"只看前一个字的二元模型是 {h['bigram_perplexity']:.0f}",
                 f"只数字频的一元模型是 {h['unigram_perplexity']:.0f}",
                 f"最后 {cfg['n_positions']} 个字"):
        assert text in CHAPTER, f"chapter 13b no longer says {text!r}"
    assert record["settings"]["min_count"] == 3 and "出现至少三次" in CHAPTER


def test_the_head_ablations_and_attention_the_section_quotes():
    """Every number of the paragraphs on the heads, recomputed on the committed held-out
    subset (pycore.gpt.poem_inside: one forward pass per head switched off)."""
    import numpy as np

    from pycore.gpt import poem_inside
    r, a = poem_inside.head_losses(), poem_inside.attention_profile()
    ppl = lambda split, part="all": f"{np.exp(split[part]):.2f}"  # noqa: E731
    none, head, layer = r["none"], r["heads"], r["layers"]
    w = lambda i, j: f"{a['line_ends'][i, j]:.3f}"  # noqa: E731
    entropy0 = a["entropy"][0]
    says_all = [
        f"这 512 个字里有 {r['line_ends']} 个是“句读”", f"那段 {r['targets']} 个字的留出文本上",
        f"困惑度只有 {ppl(none, 'line_end')}", f"困惑度是 {ppl(none, 'other')}",
        f"总的困惑度是 {ppl(none)}",
        f"关掉头 0，困惑度升到 {ppl(head[2, 0])}；头 3 是 {ppl(head[2, 3])}，"
        f"头 1 是 {ppl(head[2, 1])}，头 2 是 {ppl(head[2, 2])}",
        f"困惑度都不超过 {max(np.exp(head[i, j]['all']) for i in (0, 1) for j in range(4)):.2f}",
        f"第 0 层的四个头一起关是 {ppl(layer[0])}，第 1 层是 {ppl(layer[1])}，"
        f"第 2 层是 {ppl(layer[2])}",
        f"句读平均只占 {a['line_end_share']:.3f}，它却把 {w(2, 3)} 的注意力放在句读上",
        f"句读的困惑度从 {ppl(none, 'line_end')} 升到 {ppl(head[2, 3], 'line_end')}",
        f"其余字的困惑度几乎不动（{ppl(head[2, 3], 'other')}）",
        f"（分别是 {w(1, 0)} 和 {w(1, 3)} 的注意力）",
        f"困惑度升到 {ppl(head[1, 0], 'line_end')} 和 {ppl(head[1, 3], 'line_end')}",
        f"好猜了一点（{ppl(head[1, 0], 'other')} 和 {ppl(head[1, 3], 'other')}）",
        f"句读的困惑度升到 {ppl(layer[1], 'line_end')}",
        f"几乎不看句读**（{w(2, 2)}）",
        f"其余字的困惑度从 {ppl(none, 'other')} 升到 {ppl(head[2, 2], 'other')}，"
        f"句读却更准了（{ppl(head[2, 2], 'line_end')}）",
        f"其余的字升到 {ppl(head[2, 0], 'other')}，句读降到 {ppl(head[2, 0], 'line_end')}",
        f"最多也只有 {a['previous'].max():.3f}",
        f"注意力熵在 {entropy0.min():.2f} 到 {entropy0.max():.2f} 纳特之间",
        f"每一个能看到的字是 {a['uniform_entropy']:.2f} 纳特",
    ]
    for text in says_all:
        assert text in CHAPTER, f"chapter 13b no longer says {text!r}"
    # the claims in words: the heads singled out are the ones the numbers single out
    worst = sorted(head, key=lambda k: -head[k]["all"])
    assert {k[0] for k in worst[:4]} == {2}  # the four worst single ablations: layer 2
    assert max(head, key=lambda k: head[k]["line_end"]) == (2, 3)
    assert max(head, key=lambda k: head[k]["other"]) == (2, 0)
    assert int(np.argmax(a["line_ends"][2])) == 3 and int(np.argmin(a["line_ends"][2])) == 2
    for k in ((1, 0), (1, 3)):
        assert head[k]["line_end"] > none["line_end"] and head[k]["other"] < none["other"]
    for k in ((2, 0), (2, 2)):
        assert head[k]["line_end"] < none["line_end"] and head[k]["other"] > none["other"]


def test_the_logit_lens_numbers_the_section_quotes():
    from pycore.gpt import poem_inside
    _, _, record = poem_run.poem_model()
    lens = poem_inside.lens_profile()
    pct = lambda share: f"{100 * share:.1f} %"  # noqa: E731
    ppl, right = lens["perplexity"], lens["right"]
    for text in (f"有 {pct(lens['echo'][0])} 的位置最看好的“下一个字”正是刚读到的那个字",
                 f"困惑度约有 {ppl[0] / 1e4:.0f} 万，比在 {len(record['vocab']):,} 个字里瞎猜还差",
                 f"第 0 层之后，困惑度降到 {ppl[1]:.2f}，第 1 层之后是 {ppl[2]:.2f}，"
                 f"第 2 层之后就是模型自己的 {ppl[3]:.2f}",
                 f"从 {pct(right[0])} 依次升到 {pct(right[1])}、{pct(right[2])} 和 {pct(right[3])}"):
        assert text in CHAPTER, f"chapter 13b no longer says {text!r}"
    assert ppl[0] > len(record["vocab"])  # worse than a uniform guess, as the prose says
    assert ppl == sorted(ppl, reverse=True) and right == sorted(right)


def test_the_embedding_map_numbers_the_section_quotes():
    import numpy as np

    from pycore.gpt import poem_inside
    params, _, record = poem_run.poem_model()
    vocab = record["vocab"]
    pca = poem_inside.embedding_pca(params)
    xy, share = pca["xy"], pca["share"]
    rank_corr = np.corrcoef(np.arange(len(vocab)), xy[:, 0])[0, 1]  # vocab: most frequent first
    pc2 = [vocab[i] for i in np.argsort(xy[:, 1])]

    def cos(a, b):
        ids, sims = poem_inside.neighbours(params, vocab.index(a), 1)
        assert vocab[ids[0]] == b
        return f"{sims[0]:.2f}"

    i = vocab.index("春")
    d = np.linalg.norm(xy - xy[i], axis=1)
    d[i] = np.inf
    qiu_rank = int(np.where(np.argsort(d) == vocab.index("秋"))[0][0]) + 1
    for text in (f"第一主成分独占了 {100 * share[0]:.1f} % 的方差，第二主成分只有 {100 * share[1]:.1f} %",
                 f"相关系数是 {rank_corr:.2f}，常见的字在左", f"2,658 个字就是 {len(vocab):,} 个点",
                 f"最低的一头是“{'、'.join(pc2[:6])}”",
                 f"离“春”最近的是“秋”（{cos('春', '秋')}），离“江”最近的是“南”（{cos('江', '南')}）",
                 f"“秋”只是离“春”第 {qiu_rank} 近的点",
                 f"只留下了 {100 * share.sum():.1f} % 的方差"):
        assert text in CHAPTER, f"chapter 13b no longer says {text!r}"
    assert rank_corr > 0  # frequent (small ids) at small x: on the left
    assert set(pc2[-4:]) == set("桥江烟帘")


def test_the_widget_shows_the_line_end_head_by_default():
    from pycore.gpt import poem_inside
    from pycore.widgets import char_gpt, char_gpt_inside
    defaults = {k: spec["default"] for k, spec in char_gpt_inside.PARAMS.items()}
    assert defaults == {"layer": 2, "head": 3, "at": 15}  # at: the last character read
    assert "上面的小部件默认画的就是它：框里那句诗从逗号起，每一行放在标点上的注意力都在 0.95 以上" in CHAPTER
    text = char_gpt.default_text()
    w = poem_inside.inside(text)["weights"][2, 3]
    ends = [j for j, c in enumerate(text) if c in poem_inside.LINE_ENDS]
    assert text[ends[0]] == "，"
    assert min(w[i, [j for j in ends if j <= i]].sum() for i in range(ends[0], len(text))) > 0.95
