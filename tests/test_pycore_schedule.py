"""Learning-rate schedules against closed forms, and the Chinchilla numbers."""
import math

import numpy as np
import pytest

from pycore import schedule as S

W, PEAK, TOTAL = 100, 3e-4, 1000


@pytest.mark.parametrize("decay", S.DECAYS)
def test_warmup_is_linear_from_zero_to_peak(decay):
    assert S.learning_rate(0, W, PEAK, TOTAL, decay) == 0.0
    assert math.isclose(S.learning_rate(25, W, PEAK, TOTAL, decay), PEAK / 4)
    assert math.isclose(S.learning_rate(W, W, PEAK, TOTAL, decay), PEAK)
    steps, lr = S.lr_curve(W, PEAK, TOTAL, decay)
    assert len(steps) == TOTAL + 1
    assert steps[np.argmax(lr)] == W
    assert math.isclose(lr.max(), PEAK)


def test_cosine_by_hand():
    # halfway through the decay the cosine is at the midpoint of peak and min_lr
    mid = W + (TOTAL - W) // 2
    assert math.isclose(S.learning_rate(mid, W, PEAK, TOTAL, "cosine"), PEAK / 2)
    assert math.isclose(S.learning_rate(mid, W, PEAK, TOTAL, "cosine", min_lr=1e-4), 2e-4)
    # a quarter of the way: (1 + cos(pi/4)) / 2
    q = W + 225  # 900 / 4 = 225 steps after warmup
    assert math.isclose(S.learning_rate(q, W, PEAK, TOTAL, "cosine"),
                        PEAK * (1 + math.sqrt(0.5)) / 2)
    assert S.learning_rate(TOTAL, W, PEAK, TOTAL, "cosine") == pytest.approx(0.0, abs=1e-18)
    assert math.isclose(S.learning_rate(TOTAL, W, PEAK, TOTAL, "cosine", min_lr=3e-5), 3e-5)
    # stays at min_lr afterwards
    assert math.isclose(S.learning_rate(5000, W, PEAK, TOTAL, "cosine", min_lr=3e-5), 3e-5)


def test_linear_by_hand():
    assert math.isclose(S.learning_rate(550, W, PEAK, TOTAL, "linear"), PEAK / 2)
    assert S.learning_rate(TOTAL, W, PEAK, TOTAL, "linear") == 0.0


def test_inverse_sqrt_is_the_paper_formula_rescaled():
    d_model, warmup = 512, 4000

    def paper(t):  # lr = d_model^-0.5 * min(t^-0.5, t * warmup^-1.5)
        return d_model ** -0.5 * min(t ** -0.5, t * warmup ** -1.5)

    peak = paper(warmup)
    assert math.isclose(peak, 1 / math.sqrt(512 * 4000))  # about 7.0e-4
    for t in (1, 10, 1000, 3999, 4000, 4001, 16000, 100000):
        got = S.learning_rate(t, warmup, peak, 100000, "inverse_sqrt")
        assert math.isclose(got, paper(t), rel_tol=1e-12)
    # four times the warmup: half the peak
    assert math.isclose(S.learning_rate(16000, warmup, 1.0, 100000, "inverse_sqrt"), 0.5)


def test_no_warmup_starts_at_peak():
    assert S.learning_rate(0, 0, PEAK, TOTAL, "cosine") == PEAK
    assert S.learning_rate(0, 0, PEAK, TOTAL, "inverse_sqrt") == PEAK
    assert math.isclose(S.learning_rate(4, 0, PEAK, TOTAL, "inverse_sqrt"), PEAK / 2)


def test_curve_with_samples_keeps_the_peak():
    steps, lr = S.lr_curve(37, PEAK, TOTAL, "cosine", n=50)
    assert steps[0] == 0 and steps[-1] == TOTAL
    assert 37 in steps
    assert np.all(np.diff(steps) > 0)
    assert math.isclose(lr.max(), PEAK)
    assert 50 <= len(steps) <= 51


def test_bad_arguments():
    with pytest.raises(ValueError):
        S.learning_rate(0, W, PEAK, TOTAL, "step")
    with pytest.raises(ValueError):
        S.learning_rate(0, 2000, PEAK, TOTAL)
    with pytest.raises(ValueError):
        S.chinchilla()


def test_chinchilla_by_hand():
    # Chinchilla itself: 70 B parameters, 1.4 T tokens
    c = S.chinchilla(params=70e9)
    assert c["tokens"] == pytest.approx(1.4e12)
    assert c["flops"] == pytest.approx(6 * 70e9 * 1.4e12)  # 5.88e23
    assert S.chinchilla(tokens=1.4e12)["params"] == pytest.approx(70e9)
    # from a compute budget: C = 6 N (20 N) = 120 N^2
    assert S.chinchilla(flops=120 * 1e18)["params"] == pytest.approx(1e9)
    # both given: GPT-3 175 B on 300 B tokens is far below 20 tokens per parameter
    g = S.chinchilla(params=175e9, tokens=300e9)
    assert g["tokens_per_param"] == pytest.approx(300 / 175)
    assert g["flops"] == pytest.approx(3.15e23)
