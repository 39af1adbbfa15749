"""How sound and video become token sequences: the shapes, worked from the recipes.

Speech (Whisper): 16 kHz audio cut into 30 s windows; a log-mel spectrogram with a 25 ms
window every 10 ms (80 mel bins) gives 3,000 frames of 80 numbers; two 1-D convolutions of
width 3 (padding 1; the first with stride 1, the second with stride 2) turn them into 1,500
vectors of width d: the encoder's tokens.

Video (ViViT's tubelets, VideoMAE's cubes): a clip of f frames of H x W pixels is cut into
boxes of t frames by p x p pixels; each box flattened (t p p 3 numbers) is one token.
"""

WHISPER = {"sample_rate": 16_000, "seconds": 30, "window_ms": 25, "hop_ms": 10, "mels": 80,
           "convs": ({"kernel": 3, "stride": 1, "padding": 1},
                     {"kernel": 3, "stride": 2, "padding": 1})}


def conv_length(length, kernel, stride, padding):
    """The output length of a 1-D convolution: floor((L + 2 padding - kernel) / stride) + 1."""
    return (length + 2 * padding - kernel) // stride + 1


def audio_tokens(recipe=WHISPER):
    """Whisper's shapes, step by step: samples, window and hop in samples, mel frames, and the
    length after each convolution (the last is the number of tokens)."""
    samples = recipe["sample_rate"] * recipe["seconds"]
    hop = recipe["sample_rate"] * recipe["hop_ms"] // 1000
    window = recipe["sample_rate"] * recipe["window_ms"] // 1000
    frames = samples // hop  # one frame every hop samples (the window's overhang is padded)
    lengths = [frames]
    for conv in recipe["convs"]:
        lengths.append(conv_length(lengths[-1], **conv))
    return {"samples": samples, "hop": hop, "window": window, "frames": frames,
            "mels": recipe["mels"], "after_convs": lengths[1:], "tokens": lengths[-1]}


def video_tokens(frames, height, width, t, p, channels=3):
    """A clip cut into t x p x p tubelets: the grid (along time, height, width), the number of
    tokens, and the length of one flattened tubelet."""
    for size, step, name in ((frames, t, "frames"), (height, p, "height"), (width, p, "width")):
        if size % step:
            raise ValueError(f"{name} {size} is not a multiple of the tubelet's {step}")
    grid = (frames // t, height // p, width // p)
    return {"grid": grid, "tokens": grid[0] * grid[1] * grid[2], "length": t * p * p * channels}
