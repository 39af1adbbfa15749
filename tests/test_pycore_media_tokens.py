"""pycore.media_tokens against the shapes worked by hand (and the models' published sizes:
Whisper's encoder reads 1,500 positions; VideoMAE's 16-frame clip is 8 x 14 x 14 = 1,568)."""
import pytest

from pycore import media_tokens as mt


def test_whisper_by_hand():
    a = mt.audio_tokens()
    assert a["samples"] == 16_000 * 30 == 480_000
    assert (a["hop"], a["window"]) == (160, 400)  # 10 ms and 25 ms at 16 kHz
    assert a["frames"] == 480_000 // 160 == 3000  # 100 frames a second for 30 s
    # width 3, padding 1: stride 1 keeps 3000; stride 2 gives (3000 + 2 - 3) // 2 + 1 = 1500
    assert a["after_convs"] == [3000, 1500] and a["tokens"] == 1500
    assert a["mels"] * a["frames"] == 240_000


def test_conv_length():
    assert mt.conv_length(10, 3, 1, 1) == 10
    assert mt.conv_length(10, 3, 2, 1) == 5
    assert mt.conv_length(224, 16, 16, 0) == 14  # ViT's patch embedding as a convolution


def test_tubelets_by_hand():
    v = mt.video_tokens(16, 224, 224, t=2, p=16)
    assert v["grid"] == (8, 14, 14) and v["tokens"] == 8 * 196 == 1568
    assert v["length"] == 2 * 16 * 16 * 3 == 1536
    one_frame = mt.video_tokens(1, 224, 224, t=1, p=16)
    assert one_frame["tokens"] == 196 and one_frame["length"] == 768  # ViT's image
    with pytest.raises(ValueError, match="frames 15"):
        mt.video_tokens(15, 224, 224, t=2, p=16)
