"""After pre-training: the losses of supervised fine-tuning, a reward model and DPO.

- SFT: the same next-token cross-entropy, averaged over the response's tokens only (the
  prompt's tokens are given, not to be learned).
- Reward model (RLHF): Bradley-Terry, P(chosen beats rejected) = sigmoid(r_w - r_l); its loss
  is -log of that.
- DPO: the same form with the implicit reward beta * (log pi(y|x) - log pi_ref(y|x)):
  loss = -log sigmoid(beta * ((logp_w - ref_w) - (logp_l - ref_l))).
"""
import math

import numpy as np


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def sft_loss(p_next, response):
    """Mean -log p of the right next token over the positions where `response` is true.

    p_next: the model's probability of the right next token at each position; response: bools,
    true where the token to predict belongs to the response."""
    p, mask = np.asarray(p_next, dtype=float), np.asarray(response, dtype=bool)
    if not mask.any():
        raise ValueError("no response token: the SFT loss averages over the response only")
    return float(-np.log(p[mask]).mean())


def preference_probability(r_chosen, r_rejected):
    """Bradley-Terry: the probability that the chosen answer is preferred."""
    return sigmoid(r_chosen - r_rejected)


def reward_model_loss(r_chosen, r_rejected):
    return -math.log(preference_probability(r_chosen, r_rejected))


def dpo_margin(logp_chosen, ref_chosen, logp_rejected, ref_rejected, beta):
    """beta times how much more the policy than the reference raised the chosen answer's
    log-probability than the rejected one's: the difference of the implicit rewards."""
    return beta * ((logp_chosen - ref_chosen) - (logp_rejected - ref_rejected))


def dpo_loss(logp_chosen, ref_chosen, logp_rejected, ref_rejected, beta):
    return -math.log(sigmoid(dpo_margin(logp_chosen, ref_chosen, logp_rejected, ref_rejected,
                                        beta)))
