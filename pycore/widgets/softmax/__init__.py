"""Widget softmax: editable logits and a temperature; probabilities and entropy."""
import math

import numpy as np

from ... import figure
from ...softmax import entropy, softmax

PARAMS = {
    "logits": {"type": "vector", "min_length": 2, "max_length": 10, "min": -10.0, "max": 10.0,
               "default": [2.0, 1.0, 0.5, 0.0, -1.0], "help": "the scores z_i"},
    "temperature": {"type": "float", "min": 0.1, "max": 5.0, "default": 1.0, "scale": "log",
                    "help": "T in exp(z_i / T); the slider is log-scaled"},
}


def view(logits, temperature):
    p = softmax(logits, temperature)
    return {
        "logits": list(logits),
        "temperature": temperature,
        "probs": p,
        "entropy": entropy(p),
        "max_entropy": math.log(len(p)),  # the uniform distribution's entropy
        # probabilities on a fixed 0-1 axis, so that a flatter or sharper row is seen as such
        "bars": figure.bars(p, [f"z{i + 1}" for i in range(len(p))], top=1.0, digits=3),
        "top": {"label": f"z{int(np.argmax(p)) + 1}", "p": float(np.max(p))},
    }
