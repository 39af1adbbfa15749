"""Learning-rate schedules (linear warmup, then a decay) and the Chinchilla rule of thumb.

Every schedule rises linearly from 0 at step 0 to `peak` at step `warmup`, then decays:
- "cosine": half a cosine wave from peak down to min_lr at step `total`;
- "linear": a straight line from peak down to 0 at step `total`;
- "inverse_sqrt": peak * sqrt(warmup / t), the shape of the original Transformer paper
  (lr = d_model^-0.5 * min(t^-0.5, t * warmup^-1.5)), scaled so that it equals peak at the
  end of warmup. It never reaches 0 and ignores `total`.
After `total` the cosine and linear schedules stay at their final value.
"""
import numpy as np

DECAYS = ("cosine", "inverse_sqrt", "linear")
TOKENS_PER_PARAM = 20


def learning_rate(step, warmup, peak, total, decay="cosine", min_lr=0.0):
    """Learning rate at `step` (a number or an array of steps)."""
    if decay not in DECAYS:
        raise ValueError(f"decay must be one of {DECAYS}, not {decay!r}")
    if warmup < 0 or total <= 0 or warmup > total:
        raise ValueError("need 0 <= warmup <= total and total > 0")
    t = np.asarray(step, dtype=float)
    rising = peak * t / warmup if warmup > 0 else np.full_like(t, peak)
    if decay == "inverse_sqrt":
        w = max(warmup, 1)  # with no warmup the decay starts from peak at step 1
        falling = peak * np.sqrt(w / np.maximum(t, w))
    else:
        span = max(total - warmup, 1)
        progress = np.clip((t - warmup) / span, 0.0, 1.0)  # 0 at end of warmup, 1 at total
        if decay == "cosine":
            falling = min_lr + (peak - min_lr) * 0.5 * (1.0 + np.cos(np.pi * progress))
        else:
            falling = peak * (1.0 - progress)
    lr = np.where(t < warmup, rising, falling)
    return float(lr) if lr.ndim == 0 else lr


def lr_curve(warmup, peak, total, decay="cosine", min_lr=0.0, n=None):
    """(steps, rates) for a plot: every step 0..total, or about n evenly spaced steps.

    With n, the step `warmup` (where the peak is) is always among the samples.
    """
    if n is None:
        steps = np.arange(total + 1)
    else:
        steps = np.round(np.linspace(0, total, n)).astype(int)
        steps = np.union1d(steps, [warmup])  # sorted, no duplicates
    return steps, learning_rate(steps, warmup, peak, total, decay, min_lr)


def chinchilla(params=None, tokens=None, flops=None, tokens_per_param=TOKENS_PER_PARAM):
    """The compute-optimal rule of thumb: about 20 training tokens per parameter.

    Give one of params, tokens or flops (training compute C = 6 N D) and get the other two;
    give params and tokens to get the compute and their ratio. Returns a dict with
    params, tokens, flops and tokens_per_param.
    """
    r = tokens_per_param
    if params is not None and tokens is not None:
        r = tokens / params
    elif params is not None:
        tokens = r * params
    elif tokens is not None:
        params = tokens / r
    elif flops is not None:
        params = np.sqrt(flops / (6.0 * r))  # C = 6 N (r N)  =>  N = sqrt(C / (6 r))
        tokens = r * params
    else:
        raise ValueError("give params, tokens or flops")
    return {
        "params": float(params),
        "tokens": float(tokens),
        "flops": 6.0 * float(params) * float(tokens),
        "tokens_per_param": float(r),
    }
