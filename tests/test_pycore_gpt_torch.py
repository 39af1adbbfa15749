"""pycore.gpt against PyTorch (optional: skipped without torch; `pip install torch==2.13.0`).

The same weights are loaded into a model written here with torch.nn layers (float64), and
PyTorch's autograd is the reference for the hand-written backward: logits, loss and every
gradient must agree to 1e-8. Two training steps (clipping + AdamW with the same parameter
groups) is compared with torch.optim.AdamW.
"""
import numpy as np
import pytest

pytestmark = pytest.mark.torch  # the optional group: python3 -m pytest -m torch
torch = pytest.importorskip("torch")
F = torch.nn.functional

from pycore.gpt import adamw, corpus, model, run, train  # noqa: E402

TOL = 1e-8


class Block(torch.nn.Module):
    def __init__(self, d, n_heads, d_ff):
        super().__init__()
        self.n_heads = n_heads
        self.ln1, self.ln2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (torch.nn.Linear(d, d, bias=False) for _ in range(4))
        self.up, self.down = torch.nn.Linear(d, d_ff), torch.nn.Linear(d_ff, d)
        self.activation = lambda h: F.gelu(h, approximate="tanh")

    def forward(self, x):
        B, T, D = x.shape
        h = self.ln1(x)
        split = lambda t: t.view(B, T, self.n_heads, D // self.n_heads).transpose(1, 2)
        a = F.scaled_dot_product_attention(split(self.q(h)), split(self.k(h)), split(self.v(h)),
                                           is_causal=True)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        return x + self.down(self.activation(self.up(self.ln2(x))))


class GPT(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = torch.nn.Embedding(cfg["vocab"], cfg["d_model"])
        self.pos = torch.nn.Parameter(torch.zeros(cfg["n_positions"], cfg["d_model"]))
        self.blocks = torch.nn.ModuleList(Block(cfg["d_model"], cfg["n_heads"], cfg["d_ff"])
                                          for _ in range(cfg["n_layers"]))
        self.ln_f = torch.nn.LayerNorm(cfg["d_model"])

    def forward(self, ids):
        x = self.tok(ids) + self.pos[:ids.shape[1]]
        for b in self.blocks:
            x = b(x)
        return self.ln_f(x) @ self.tok.weight.T  # tied output

    def named(self):
        """pycore's parameter names -> (torch tensor, transposed?)."""
        out = {"tok_emb": (self.tok.weight, False), "pos_emb": (self.pos, False),
               "ln_f.gamma": (self.ln_f.weight, False), "ln_f.beta": (self.ln_f.bias, False)}
        for i, b in enumerate(self.blocks):
            for name, (t, tr) in {
                    "ln1.gamma": (b.ln1.weight, False), "ln1.beta": (b.ln1.bias, False),
                    "attn.w_q": (b.q.weight, True), "attn.w_k": (b.k.weight, True),
                    "attn.w_v": (b.v.weight, True), "attn.w_o": (b.o.weight, True),
                    "ln2.gamma": (b.ln2.weight, False), "ln2.beta": (b.ln2.bias, False),
                    "ffn.w1": (b.up.weight, True), "ffn.b1": (b.up.bias, False),
                    "ffn.w2": (b.down.weight, True), "ffn.b2": (b.down.bias, False)}.items():
                out[f"layers.{i}.{name}"] = (t, tr)
        return out


def torch_model(params, cfg):
    m = GPT(cfg).double()
    with torch.no_grad():
        for name, (t, transposed) in m.named().items():
            a = params[name].T if transposed else params[name]
            t.copy_(torch.from_numpy(np.ascontiguousarray(a)))
    return m


def as_numpy(t, transposed):
    a = t.detach().numpy()
    return a.T if transposed else a


@pytest.fixture(scope="module")
def book():
    params, cfg, _ = run.book_model()
    return {k: v.copy() for k, v in params.items()}, cfg


@pytest.fixture(scope="module")
def data():
    b = corpus.batch(corpus.sample(np.random.default_rng(11), "train", 32))
    return b, train.loss_weights(b, 1.0)


def torch_loss(m, b, w):
    z = m(torch.from_numpy(b["inputs"]))  # (B, T, V)
    nll = F.cross_entropy(z.reshape(-1, z.shape[-1]), torch.from_numpy(b["targets"]).reshape(-1),
                          reduction="none")
    return (nll * torch.from_numpy(w).reshape(-1)).sum(), z


def test_logits_match_torch(book, data):
    params, cfg = book
    b, _ = data
    h, _ = model.forward(params, cfg, b["inputs"])
    ours = model.logits(params, h)
    with torch.no_grad():
        theirs = torch_model(params, cfg)(torch.from_numpy(b["inputs"])).numpy()
    assert np.abs(ours - theirs).max() <= TOL * max(1.0, np.abs(theirs).max())


@pytest.mark.parametrize("weights", ["book", "perturbed"])
def test_every_gradient_matches_autograd(book, data, weights):
    params, cfg = book
    if weights == "perturbed":  # away from a trained optimum, where gradients are tiny
        rng = np.random.default_rng(0)
        params = {k: v + rng.normal(0, 0.05, v.shape) for k, v in params.items()}
    b, w = data
    loss, grads, _ = model.loss_and_grads(params, cfg, b["inputs"], b["targets"], w)
    m = torch_model(params, cfg)
    t_loss, _ = torch_loss(m, b, w)
    t_loss.backward()
    assert loss == pytest.approx(t_loss.item(), rel=TOL)
    for name, (t, transposed) in m.named().items():
        ref = as_numpy(t.grad, transposed)
        err = np.abs(grads[name] - ref).max() / max(np.abs(ref).max(), 1e-300)
        assert err <= TOL, (name, err)


def test_one_training_step_matches_torch_adamw(book, data):
    params, cfg = book
    rng = np.random.default_rng(1)
    params = {k: v + rng.normal(0, 0.05, v.shape) for k, v in params.items()}
    b, w = data
    m = torch_model(params, cfg)
    named = m.named()
    decay = [named[n][0] for n in params if adamw.decays(n)]
    rest = [named[n][0] for n in params if not adamw.decays(n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": rest, "weight_decay": 0.0}],
                            lr=2e-3, betas=(0.9, 0.95), eps=1e-8)
    state = adamw.init_state(params)
    # Two steps: Adam divides by sqrt(v) + eps, so where a gradient is near 0 a rounding
    # difference of 1e-16 moves the step by up to lr / eps * 1e-16 = 2e-11; over more steps
    # such differences grow, they are not errors of either side.
    for _ in range(2):
        _, grads, _ = model.loss_and_grads(params, cfg, b["inputs"], b["targets"], w)
        grads, norm = adamw.clip(grads, 0.5)
        adamw.step(params, grads, state, 2e-3, weight_decay=0.1, betas=(0.9, 0.95))
        opt.zero_grad()
        torch_loss(m, b, w)[0].backward()
        t_norm = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5)
        opt.step()
        assert norm == pytest.approx(t_norm.item(), rel=1e-9)
    for name, (t, transposed) in named.items():  # each step moves a weight by about lr = 2e-3
        assert np.abs(params[name] - as_numpy(t, transposed)).max() <= 1e-10, name
