"""Stretching RoPE to a longer context: what position interpolation, NTK-aware scaling and
YaRN do to the rotation frequencies.

RoPE turns pair i of a d-dimensional query or key by the angle p * theta_i at position p, with
theta_i = base**(-2i/d) (pycore/positional.py). Trained on L tokens, the slow pairs never turn
far: a pair whose wavelength 2 pi / theta_i exceeds L has only seen part of a turn. Read at
s L tokens, those pairs meet angles they never saw. Three fixes, for a stretch factor s:

- position interpolation (PI): every theta_i / s, so position s L turns every pair as far as
  position L did; the fast pairs, which told neighbours apart, are slowed down too.
- NTK-aware: a larger base, base * s**(d / (d - 2)): the fastest pair keeps its frequency and
  the slowest is divided by exactly s, the ones between by less.
- YaRN (its "NTK-by-parts" frequencies): r_i = L / wavelength_i counts the turns pair i makes
  over the training context; pairs with r_i > beta (many turns) keep theta_i, pairs with
  r_i < alpha are interpolated (theta_i / s), a linear ramp between; YaRN also multiplies the
  logits by (0.1 ln s + 1)**2 (it scales q and k by 0.1 ln s + 1 each).
"""
import numpy as np

from .positional import frequencies


def interpolated(d, base, s):
    """Position interpolation: every frequency divided by s."""
    return frequencies(d, base) / s


def ntk_base(d, base, s):
    """The NTK-aware base: base * s**(d / (d - 2))."""
    return base * s ** (d / (d - 2))


def ntk(d, base, s):
    """The frequencies of the NTK-aware base."""
    return frequencies(d, ntk_base(d, base, s))


def yarn_ramp(d, base, train_len, alpha=1.0, beta=32.0):
    """gamma_i in [0, 1]: 0 for pairs interpolated fully (r_i < alpha turns over the training
    context), 1 for pairs kept (r_i > beta), linear in r_i between."""
    turns = train_len * frequencies(d, base) / (2 * np.pi)
    return np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)


def yarn(d, base, s, train_len, alpha=1.0, beta=32.0):
    """YaRN's frequencies: (1 - gamma_i) theta_i / s + gamma_i theta_i."""
    theta = frequencies(d, base)
    g = yarn_ramp(d, base, train_len, alpha, beta)
    return (1 - g) * theta / s + g * theta


def yarn_temperature(s):
    """YaRN's factor on q and on k, 0.1 ln s + 1 (the logits get its square)."""
    return 0.1 * np.log(s) + 1.0
