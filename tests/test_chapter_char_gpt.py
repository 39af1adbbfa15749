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
