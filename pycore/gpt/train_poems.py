"""Train a character-level GPT on real Chinese (poems.py: classical poems and sayings from
Debian's fortunes-zh), with the book's model and optimiser (model.py, adamw.py).

    python3 -m pycore.gpt.train_poems                 fetch fortunes-zh with apt, train, write
                                                      pycore/poem_gpt.npz, .json, _heldout.txt
    python3 -m pycore.gpt.train_poems --fortunes /usr/share/games/fortunes
                                                      read an installed package instead
    python3 -m pycore.gpt.train_poems --steps 50 --out /tmp/try    a short run elsewhere
    python3 -m pycore.gpt.train_poems --stop 300      write the weights of step 300 (of the
                                                      full schedule) from the checkpoint

The run is seeded and resumable: every CHECKPOINT_EVERY steps it writes the weights, Adam's
moments, the data generator's state and the losses to <work>/checkpoint.npz; started again
with the same --work folder it goes on from there and ends with the same weights as an
unbroken run. It prints a progress bar and, every eval_every steps, the held-out perplexity
on a fixed subset.

The loss is the mean next-character cross-entropy over every position of B windows of T + 1
characters drawn at random offsets of the training text. The held-out text is cut into
windows that do not overlap (each character predicted once, from at most T before it).
"""
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .. import schedule
from . import adamw, model, poems
from .train import ProgressBar

PYCORE = Path(__file__).resolve().parent.parent
WEIGHTS, RECORD, HELDOUT = "poem_gpt.npz", "poem_gpt.json", "poem_gpt_heldout.txt"
DATA_FILES = (WEIGHTS, RECORD)
CHECKPOINT_EVERY = 25
SUBSET_WINDOWS = 8  # the fixed held-out subset the tests and the progress line use
BIGRAM_KS = (1.0, 0.1, 0.01)  # the bigram baseline's add-k: the best of these on held-out

SETTINGS = {
    "seed": 0, "min_count": poems.MIN_COUNT, "context": 64,
    "model": {"d_model": 128, "n_heads": 4, "n_layers": 3, "d_ff": 512, "activation": "relu"},
    "steps": 1000, "batch": 16,
    "peak_lr": 2e-3, "warmup": 50, "min_lr": 2e-4,
    "weight_decay": 0.1, "betas": [0.9, 0.95], "clip": 1.0,
    "eval_every": 100,
}


# --- the corpus --------------------------------------------------------------------------

def fetch_package(folder):
    """Download fortunes-zh with apt into `folder` and extract it; returns the folder of the
    fortune files."""
    folder = Path(folder)
    subprocess.run(["apt-get", "download", "fortunes-zh"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL)
    deb = next(folder.glob("fortunes-zh_*.deb"))
    subprocess.run(["dpkg-deb", "-x", str(deb), str(folder / "root")], check=True)
    return folder / "root/usr/share/games/fortunes"


def package_version(fortunes):
    """The package version, from the first line of its changelog ("fortune-zh (2.98) ..."),
    which sits at usr/share/doc/fortunes-zh beside usr/share/games/fortunes (installed or
    extracted alike); "unknown" without it."""
    changelog = Path(fortunes).resolve().parent.parent / "doc/fortunes-zh/changelog.gz"
    if not changelog.is_file():
        return "unknown"
    import gzip  # here, not at the top: the page imports this module (its file names)
    with gzip.open(changelog, "rt", encoding="utf-8") as f:
        first = f.readline()
    return first.split("(")[1].split(")")[0] if "(" in first else "unknown"


def prepare(units, settings):
    """Everything the run needs from the units: texts, vocabulary, id arrays."""
    train_units, heldout_units = poems.split(units)
    train_text, heldout_text = poems.join(train_units), poems.join(heldout_units)
    vocab = poems.vocabulary(train_text, settings["min_count"])
    ids = poems.encoder(vocab)
    return {"train_text": train_text, "heldout_text": heldout_text, "vocab": vocab,
            "train": np.array(poems.encode(train_text, ids)),
            "heldout": np.array(poems.encode(heldout_text, ids)),
            "units": (len(train_units), len(heldout_units))}


def model_config(settings, vocab_size):
    m = settings["model"]
    return model.config(vocab=vocab_size, n_positions=settings["context"], **m)


# --- evaluation --------------------------------------------------------------------------

def windows(ids, context):
    """Non-overlapping (inputs, targets), each (N, context): window k reads
    ids[k T : k T + T] and predicts ids[k T + 1 : k T + T + 1]. The tail that does not
    fill a window is left out."""
    n = (len(ids) - 1) // context
    x = np.asarray(ids[:n * context + 1])
    return x[:-1].reshape(n, context), x[1:].reshape(n, context)


def mean_loss(params, cfg, inputs, targets, chunk=16):
    """Mean next-character cross-entropy (nats) over every position of the windows."""
    total = 0.0
    for s in range(0, len(inputs), chunk):
        h, _ = model.forward(params, cfg, inputs[s:s + chunk])  # (b, T, D)
        z = model.logits(params, h).reshape(-1, cfg["vocab"])  # (b T, V)
        t = targets[s:s + chunk].reshape(-1)
        total += model.cross_entropy(z, t, np.ones(len(t)))
    return total / targets.size


def unigram_loss(train_ids, targets, vocab_size, k=1.0):
    """Mean cross-entropy of p(c) = (count(c) + k) / (N + k V), counted on training ids."""
    counts = np.bincount(train_ids, minlength=vocab_size) + k
    p = counts / counts.sum()
    return float(-np.log(p[np.asarray(targets).reshape(-1)]).mean())


def bigram_loss(train_ids, inputs, targets, vocab_size, k):
    """Mean cross-entropy of p(c | b) = (count(b c) + k) / (count(b .) + k V), the pair
    counts taken on training ids; b is the character before c (inputs at the same place)."""
    pairs = np.asarray(train_ids[:-1]) * vocab_size + np.asarray(train_ids[1:])
    pair_counts = np.bincount(pairs, minlength=vocab_size * vocab_size)
    row_counts = np.bincount(train_ids[:-1], minlength=vocab_size)
    b, c = np.asarray(inputs).reshape(-1), np.asarray(targets).reshape(-1)
    p = (pair_counts[b * vocab_size + c] + k) / (row_counts[b] + k * vocab_size)
    return float(-np.log(p).mean())


def baselines(train_ids, inputs, targets, vocab_size):
    """Perplexities of the unigram (add-1) and the best add-k bigram of BIGRAM_KS."""
    bigram = {k: bigram_loss(train_ids, inputs, targets, vocab_size, k) for k in BIGRAM_KS}
    best = min(bigram, key=bigram.get)
    return {"unigram_perplexity": math.exp(unigram_loss(train_ids, targets, vocab_size)),
            "bigram_perplexity": math.exp(bigram[best]), "bigram_k": best}


# --- training ----------------------------------------------------------------------------

def learning_rate(settings, step):
    warmup = min(settings["warmup"], settings["steps"])  # a short trial run warms up less
    return float(schedule.learning_rate(step, warmup, settings["peak_lr"],
                                        settings["steps"], "cosine", settings["min_lr"]))


def batch(rng, train_ids, settings):
    """B windows of T + 1 characters at random offsets: (inputs (B, T), targets (B, T))."""
    T = settings["context"]
    starts = rng.integers(0, len(train_ids) - T - 1, size=settings["batch"])
    w = train_ids[starts[:, None] + np.arange(T + 1)]  # (B, T + 1)
    return w[:, :-1], w[:, 1:]


def train_step(params, opt, settings, cfg, rng, train_ids):
    inputs, targets = batch(rng, train_ids, settings)
    weights = np.full(inputs.shape, 1.0 / inputs.size)  # the mean over every position
    loss, grads, _ = model.loss_and_grads(params, cfg, inputs, targets, weights)
    grads, _ = adamw.clip(grads, settings["clip"])
    adamw.step(params, grads, opt, learning_rate(settings, opt["t"]),
               settings["weight_decay"], tuple(settings["betas"]))
    return loss


def save_checkpoint(path, state):
    arrays = {f"p.{k}": a for k, a in state["params"].items()}
    arrays.update({f"m.{k}": a for k, a in state["opt"]["m"].items()})
    arrays.update({f"v.{k}": a for k, a in state["opt"]["v"].items()})
    meta = {"t": state["opt"]["t"], "step": state["step"], "losses": state["losses"],
            "evaluations": state["evaluations"], "seconds": state["seconds"],
            "rng": state["rng"].bit_generator.state, "settings": state["settings"]}
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, meta=np.array(json.dumps(meta)), **arrays)
    tmp.replace(path)  # a run killed while writing keeps the previous checkpoint


def load_checkpoint(path, settings):
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        if meta["settings"] != settings:
            raise ValueError(f"{path}: written with other settings; use another --work "
                             f"folder or delete it")
        pick = lambda prefix: {k[2:]: data[k] for k in data.files if k.startswith(prefix)}
        params, m, v = pick("p."), pick("m."), pick("v.")
    rng = np.random.default_rng()
    rng.bit_generator.state = meta["rng"]
    return {"params": params, "opt": {"t": meta["t"], "m": m, "v": v}, "rng": rng,
            "step": meta["step"], "losses": meta["losses"],
            "evaluations": meta["evaluations"], "seconds": meta["seconds"],
            "settings": settings}


def fresh_state(settings, cfg):
    params = model.init(cfg, settings["seed"])
    return {"params": params, "opt": adamw.init_state(params),
            "rng": np.random.default_rng([settings["seed"], 1]), "step": 0, "losses": [],
            "evaluations": [], "seconds": 0.0, "settings": settings}


def train(data, settings, work, steps=None, out=sys.stdout):
    """Train (or go on training) to `steps` (default: settings["steps"]); returns the state."""
    steps = settings["steps"] if steps is None else steps
    cfg = model_config(settings, len(data["vocab"]))
    Path(work).mkdir(parents=True, exist_ok=True)
    checkpoint = Path(work) / "checkpoint.npz"
    state = load_checkpoint(checkpoint, settings) if checkpoint.exists() else \
        fresh_state(settings, cfg)
    if state["step"]:
        out.write(f"resuming from step {state['step']} ({checkpoint})\n")
    sub_in, sub_t = windows(data["heldout"], settings["context"])
    sub_in, sub_t = sub_in[:SUBSET_WINDOWS], sub_t[:SUBSET_WINDOWS]
    bar = ProgressBar(steps, out)
    started = time.perf_counter() - state["seconds"]
    while state["step"] < steps:
        loss = train_step(state["params"], state["opt"], settings, cfg, state["rng"],
                          data["train"])
        state["step"] += 1
        state["losses"].append(loss)
        i = state["step"]
        if i % settings["eval_every"] == 0 or i == steps:
            ppl = math.exp(mean_loss(state["params"], cfg, sub_in, sub_t))
            state["evaluations"].append({"step": i, "train_loss": loss,
                                         "subset_perplexity": ppl})
            bar.note(f"step {i}: loss {loss:.3f} (perplexity {math.exp(loss):.1f}), held-out "
                     f"subset perplexity {ppl:.1f}")
        bar.update(i, f"loss {loss:.3f}")
        state["seconds"] = time.perf_counter() - started
        if i % CHECKPOINT_EVERY == 0 or i == steps:
            save_checkpoint(checkpoint, state)
    bar.close()
    return state


def half(params):
    """The weights as shipped: float16 (half the bytes of float32, a quarter of float64)."""
    return {k: a.astype(np.float16) for k, a in params.items()}


def widen(params):
    """Shipped float16 weights back to the float64 the model computes in."""
    return {k: np.asarray(a, dtype=np.float64) for k, a in params.items()}


def evaluate_all(params, cfg, data, settings):
    """Perplexities of the model and both baselines, on the subset and on all held-out text."""
    out = {}
    for name, n in (("subset", SUBSET_WINDOWS), ("heldout", None)):
        x, t = windows(data["heldout"], settings["context"])
        x, t = x[:n], t[:n]
        out[name] = {"characters": int(t.size),
                     "perplexity": math.exp(mean_loss(params, cfg, x, t)),
                     **baselines(data["train"], x, t, cfg["vocab"])}
    return out


def main(argv=None):
    import argparse  # here, not at the top: the page imports this module (its file names)
    parser = argparse.ArgumentParser(prog="python3 -m pycore.gpt.train_poems",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--fortunes", help="a folder holding tang300, song100 and chinese "
                        "(default: apt-get download fortunes-zh into a temporary folder)")
    parser.add_argument("--steps", type=int, help="stop after this many steps (the schedule "
                        "then spans the shorter run)")
    parser.add_argument("--stop", type=int, help="stop after this many steps of the full "
                        "schedule (a checkpoint already past it is used as it is): the weights "
                        "are those an unbroken run has at that step, and --work can go on later")
    parser.add_argument("--out", default=str(PYCORE), help="folder for the three files")
    parser.add_argument("--work", help="folder for the checkpoint (default: <out>/poem_work)")
    args = parser.parse_args(argv)
    settings = json.loads(json.dumps(SETTINGS))
    if args.steps is not None:
        settings["steps"] = args.steps
    out = Path(args.out)
    work = Path(args.work) if args.work else out / "poem_work"
    work.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.fortunes) if args.fortunes else fetch_package(tmp)
        units, version = poems.read_package(folder), package_version(folder)
    data = prepare(units, settings)
    cfg = model_config(settings, len(data["vocab"]))
    n = sum(int(np.prod(s)) for s in model.shapes(cfg).values())
    print(f"fortunes-zh {version}: {len(units)} units, {len(data['train_text'])} training "
          f"and {len(data['heldout_text'])} held-out characters; vocabulary {len(data['vocab'])}"
          f"; {n} parameters; {settings['steps']} steps of {settings['batch']} x "
          f"{settings['context']} characters, seed {settings['seed']}")
    state = train(data, settings, work, steps=args.stop)
    shipped = half(state["params"])
    final = evaluate_all(widen(shipped), cfg, data, settings)
    record = {
        "settings": settings, "config": cfg, "parameters": n,
        "corpus": {"package": "fortunes-zh", "version": version, "licence": "GPL-3.0+ "
                   "(the package); the classical texts themselves are in the public domain",
                   "units": len(units), "train_units": data["units"][0],
                   "heldout_units": data["units"][1],
                   "train_characters": len(data["train_text"]),
                   "heldout_characters": len(data["heldout_text"]),
                   "heldout_unknown": int((data["heldout"] == 0).sum())},
        "vocab": data["vocab"],
        "steps": state["step"], "schedule_steps": settings["steps"],
        "train_seconds": round(state["seconds"], 1),
        "first_losses": state["losses"][:10],
        "losses_every_10": state["losses"][9::10],
        "evaluations": state["evaluations"], "final": final,
    }
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / WEIGHTS, **shipped)
    with open(out / RECORD, "w", encoding="utf-8") as f:
        json.dump(record, f, ensure_ascii=False, indent=1)
        f.write("\n")
    # The subset's characters (public-domain poems): the tests evaluate on them.
    subset = data["heldout_text"][:SUBSET_WINDOWS * settings["context"] + 1]
    (out / HELDOUT).write_text(subset, encoding="utf-8")
    for name, e in final.items():
        print(f"{name} ({e['characters']} characters): perplexity {e['perplexity']:.1f}; "
              f"unigram {e['unigram_perplexity']:.1f}, bigram (k = {e['bigram_k']}) "
              f"{e['bigram_perplexity']:.1f}")
    print(f"wrote {out / WEIGHTS} ({(out / WEIGHTS).stat().st_size} bytes), {out / RECORD}, "
          f"{out / HELDOUT}")


if __name__ == "__main__":
    main()
