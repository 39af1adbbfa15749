"""The committed poem model against PyTorch (optional: skipped without torch).

The committed float16 weights, widened to float64 as the page widens them, go into the
torch.nn model of tests/test_pycore_gpt_torch.py with a ReLU FFN; autograd is the reference
for logits, the training loss and every gradient on held-out windows.
"""
from importlib import resources

import numpy as np
import pytest

pytestmark = pytest.mark.torch  # the optional group: python3 -m pytest -m torch
torch = pytest.importorskip("torch")
F = torch.nn.functional

from pycore.gpt import model, poem_run, poems, train_poems  # noqa: E402
from tests import test_pycore_gpt_torch as reference  # noqa: E402

TOL = 1e-8


@pytest.fixture(scope="module")
def committed():
    params, cfg, record = poem_run.poem_model()
    assert cfg["activation"] == "relu"
    m = reference.torch_model(params, cfg)
    for block in m.blocks:  # the poem model's FFN: ReLU
        block.activation = F.relu
    text = resources.files("pycore").joinpath(train_poems.HELDOUT).read_text(encoding="utf-8")
    x, t = train_poems.windows(np.array(poems.encode(text, poems.encoder(record["vocab"]))),
                               cfg["n_positions"])
    return params, cfg, m, x[:4], t[:4]


def test_logits_match_torch(committed):
    params, cfg, m, x, _ = committed
    h, _ = model.forward(params, cfg, x)
    ours = model.logits(params, h)
    with torch.no_grad():
        theirs = m(torch.from_numpy(x)).numpy()
    assert np.abs(ours - theirs).max() <= TOL * max(1.0, np.abs(theirs).max())


def test_every_gradient_matches_autograd(committed):
    params, cfg, m, x, t = committed
    w = np.full(x.shape, 1.0 / x.size)
    loss, grads, _ = model.loss_and_grads(params, cfg, x, t, w)
    m.zero_grad()
    z = m(torch.from_numpy(x))
    t_loss = F.cross_entropy(z.reshape(-1, z.shape[-1]), torch.from_numpy(t).reshape(-1))
    t_loss.backward()
    assert loss == pytest.approx(t_loss.item(), rel=TOL)
    for name, (p, transposed) in m.named().items():
        ref = reference.as_numpy(p.grad, transposed)
        err = np.abs(grads[name] - ref).max() / max(np.abs(ref).max(), 1e-300)
        assert err <= TOL, (name, err)
