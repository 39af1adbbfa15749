"""Chapter 11's section on speech and video tokens: every number is what pycore.media_tokens
works out from the recipes (Whisper's front end, VideoMAE's tubelets), looked up in the prose."""
from pycore import media_tokens as mt
from tests.prose import sayer

says = sayer("11-vit.md")


def test_speech():
    w, a = mt.WHISPER, mt.audio_tokens()
    first, second = a["after_convs"]
    says(f"每秒 {w['sample_rate']:,} 个采样点，每次处理 {w['seconds']} 秒，也就是 {a['samples']:,} 个数",
         f"每隔 {w['hop_ms']} 毫秒（{a['hop']} 个采样点）取一帧，每帧看 {w['window_ms']} 毫秒"
         f"（{a['window']} 个采样点）",
         f"用 {w['mels']} 个梅尔频带", f"成了 {a['frames']:,} 帧、每帧 {w['mels']} 个数",
         f"{w['mels']} × {a['frames']} 的单通道",
         f"两层宽度为 {w['convs'][0]['kernel']} 的一维卷积：第一层步长为 {w['convs'][0]['stride']}，"
         f"长度仍是 {first:,}；第二层步长为 {w['convs'][1]['stride']}，长度减半成 {second:,}",
         f"每个大约代表 {1000 * w['seconds'] // a['tokens']} 毫秒",
         f"{a['frames']:,} 帧对数梅尔频谱，再经卷积得到 {a['tokens']:,} 个 token")
    assert first == a["frames"] and second == a["frames"] // 2


def test_video():
    v = mt.video_tokens(16, 224, 224, t=2, p=16)
    per_frame = mt.video_tokens(16, 224, 224, t=1, p=16)
    image = mt.video_tokens(1, 224, 224, t=1, p=16)
    nt, nh, nw = v["grid"]
    says(f"每一帧各切 {image['tokens']} 个图块，可一段 16 帧的片段就有 {per_frame['tokens']:,} 个 token",
         "每个 tubelet 跨 2 帧，每帧取 16 × 16 像素",
         f"16 帧、每帧 224 × 224 的片段，时间方向分成 {nt} 段，每段 {nh} × {nw} 块，"
         f"一共 {nt} × {nh} × {nw} = {v['tokens']:,} 个 token",
         f"2 × 16 × 16 × 3 = {v['length']:,} 个数，是一个图块的两倍",
         f"16 帧的片段是 {v['tokens']:,} 个 token")
    assert v["length"] == 2 * image["length"] and per_frame["tokens"] == 2 * v["tokens"]
    says("token 数减半，分数的个数就只剩四分之一")
