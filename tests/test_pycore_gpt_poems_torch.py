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


class ReluBlock(reference.Block):
    def forward(self, x):
        B, T, D = x.shape
        h = self.ln1(x)
        split = lambda t: t.view(B, T, self.n_heads, D // self.n_heads).transpose(1, 2)
        a = F.scaled_dot_product_attention(split(self.q(h)), split(self.k(h)), split(self.v(h)),
                                           is_causal=True)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        return x + self.down(F.relu(self.up(self.ln2(x))))


@pytest.fixture(scope="module")
def committed():
    params, cfg, record = poem_run.poem_model()
    assert cfg["activation"] == "relu"
    m = reference.GPT(cfg)
    m.blocks = torch.nn.ModuleList(ReluBlock(cfg["d_model"], cfg["n_heads"], cfg["d_ff"])
                                   for _ in range(cfg["n_layers"]))
    m = m.double()
    with torch.no_grad():
        for name, (t, transposed) in m.named().items():
            a = params[name].T if transposed else params[name]
            t.copy_(torch.from_numpy(np.ascontiguousarray(a)))
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
