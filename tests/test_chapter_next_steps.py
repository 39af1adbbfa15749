"""Chapter 16, the learning path: what it says of torch.nn.Transformer is what PyTorch's
signature says (optional: needs PyTorch), and the page loads nothing from elsewhere: plain
links only, no picture, widget or embed."""
import inspect
import re
from pathlib import Path

import pytest

CHAPTER = (Path(__file__).resolve().parent.parent / "book" / "16-next-steps.md").read_text(
    encoding="utf-8")


def test_only_plain_links_leave_the_book():
    assert "```widget" not in CHAPTER and "![" not in CHAPTER and "<" not in CHAPTER
    outside = re.findall(r"\]\((https?://[^)]+)\)", CHAPTER)
    assert outside and all(u.startswith("https://") for u in outside)
    for target in re.findall(r"\]\(([^)]+\.md)\)", CHAPTER):
        assert (Path(__file__).resolve().parent.parent / "book" / target).exists(), target


@pytest.mark.torch
def test_the_defaults_it_quotes_are_pytorch_s():
    torch = pytest.importorskip("torch")
    p = inspect.signature(torch.nn.Transformer.__init__).parameters
    d = {name: p[name].default for name in ("d_model", "nhead", "num_encoder_layers",
                                            "num_decoder_layers", "dim_feedforward",
                                            "norm_first", "batch_first")}
    assert not d["norm_first"] and not d["batch_first"]
    assert f"模型维度 {d['d_model']}、{d['nhead']} 个头、编码器和解码器各 " \
           f"{d['num_encoder_layers']} 层、前馈网络中间层 {d['dim_feedforward']}" in CHAPTER
    assert d["num_encoder_layers"] == d["num_decoder_layers"]
    mask = torch.nn.Transformer.generate_square_subsequent_mask(3)
    assert torch.isinf(mask[0, 1]) and mask[1, 0] == 0 and mask[1, 1] == 0
