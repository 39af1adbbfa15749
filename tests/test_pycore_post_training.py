"""pycore.post_training against hand computations, and chapter 13's worked numbers
(SFT on the response only, the reward model's Bradley-Terry loss, DPO) looked up in the prose."""
import math
import pytest

from pycore import post_training as pt
from tests.prose import sayer

says = sayer("13-training.md")
P_NEXT = [0.5, 0.25, 0.8, 0.9]
RESPONSE = [False, False, True, True]
BETA, REF_W, REF_L = 0.1, -13.0, -14.0


def test_sft_averages_over_the_response_only():
    assert pt.sft_loss(P_NEXT, RESPONSE) == pytest.approx((-math.log(0.8) - math.log(0.9)) / 2)
    everything = pt.sft_loss(P_NEXT, [True] * 4)
    assert everything == pytest.approx(sum(-math.log(p) for p in P_NEXT) / 4)
    with pytest.raises(ValueError, match="no response token"):
        pt.sft_loss(P_NEXT, [False] * 4)
    says("模型给正确 token 的概率依次是 " + "、".join(str(p) for p in P_NEXT),
         f"四个一起平均，损失是 {everything:.3f}",
         f"$(-\\ln 0.8-\\ln 0.9)/2={pt.sft_loss(P_NEXT, RESPONSE):.3f}$")


def test_the_reward_model():
    p = pt.preference_probability(1.5, 0.5)
    assert p == pytest.approx(1 / (1 + math.exp(-1.0)))
    assert pt.reward_model_loss(1.5, 0.5) == pytest.approx(math.log(1 + math.exp(-1.0)))
    says(f"$\\operatorname{{sigmoid}}(1)={p:.3f}$，损失 {pt.reward_model_loss(1.5, 0.5):.3f}")


def test_dpo_worked_on_numbers():
    start = pt.dpo_loss(REF_W, REF_W, REF_L, REF_L, BETA)
    assert start == pytest.approx(math.log(2))
    right = pt.dpo_loss(-12.0, REF_W, -15.0, REF_L, BETA)
    wrong = pt.dpo_loss(-14.0, REF_W, -13.0, REF_L, BETA)
    margin = pt.dpo_margin(-12.0, REF_W, -15.0, REF_L, BETA)
    assert margin == pytest.approx(0.2)
    # -log sigmoid(z) = log(1 + e^-z), by hand
    assert right == pytest.approx(math.log(1 + math.exp(-0.2)))
    assert wrong == pytest.approx(math.log(1 + math.exp(0.2)))
    # d/dz of -log sigmoid(z) is -sigmoid(-z): the factor in front of the gradient
    h = 1e-6
    slope = (pt.dpo_loss(-12.0 + h / BETA, REF_W, -15.0, REF_L, BETA) - right) / h
    assert slope == pytest.approx(-pt.sigmoid(-margin), rel=1e-4)
    says(f"参考模型给好回答的对数概率是 ${REF_W:.0f}$、给差回答的是 ${REF_L:.0f}$",
         f"损失是 $\\ln 2={start:.3f}$", "把好回答抬到 $-12$、把差回答压到 $-15$",
         f"好回答抬高了 {-12.0 - REF_W:.0f}、差回答压低了 {REF_L - -15.0:.0f}，两个 $\\hat r$ 之差就是 "
         f"$1-(-1)=2$ 乘上 $\\beta_{{\\text{{DPO}}}}$ 得 {margin:.1f}，损失降到 {right:.3f}",
         "两个 $\\hat r$ 都是 0",
         f"好回答压到 $-14$、差回答抬到 $-13$），损失升到 {wrong:.3f}",
         f"$\\operatorname{{sigmoid}}(-0.2)={pt.sigmoid(-margin):.3f}$",
         f"$\\beta_{{\\text{{DPO}}}}={BETA}$")
