"""Train, evaluate or run the book's small Transformer from the command line.

    python3 -m pycore.gpt train                 train the book's model from its seed and write
                                                pycore/gpt_weights.npz and gpt_weights.json
    python3 -m pycore.gpt train --steps 200 --out /tmp/try
                                                a shorter run, written elsewhere
    python3 -m pycore.gpt evaluate              the committed weights on every held-out sentence,
                                                then on those where only the nouns decide
    python3 -m pycore.gpt run 小猫 没有 过 马路 因为 它 太 累 了 ， 它 =
                                                the next-token distribution and the heads at the
                                                last word

train prints a progress bar with the loss, and every 250 steps the held-out accuracy and the
share of held-out sentences in which the best head puts >= 0.5 on the answer noun. It takes
1.5 to 3 minutes on this 2-CPU machine, depending on its load (benchmarks/gpt.py).
"""
import argparse
import copy
import sys
import time
from pathlib import Path

import numpy as np

from . import corpus, evaluate, model, run, train

PYCORE = Path(__file__).resolve().parent.parent
FIRST_LOSSES = 20  # how many of the first losses the record keeps (a test re-runs them)


def command_train(args):
    settings = copy.deepcopy(train.BOOK)
    if args.seed is not None:
        settings["seed"] = args.seed
    if args.steps is not None:
        settings["steps"] = args.steps
    out = Path(args.out) if args.out else PYCORE
    out.mkdir(parents=True, exist_ok=True)
    n = sum(int(np.prod(shape)) for shape in model.shapes(settings["model"]).values())
    print(f"training the book's model: {n} parameters, {settings['steps']} steps of "
          f"{settings['batch']} sentences, seed {settings['seed']}")
    params, record = train.train(settings)
    print(f"trained in {record['seconds']:.1f} s; evaluating on all "
          f"{len(corpus.every_sentence('heldout'))} held-out sentences ...")
    final = evaluate.evaluate(params, settings["model"], corpus.every_sentence("heldout"))
    summary = {
        "settings": settings,
        "parameters": n,
        "train_seconds": round(record["seconds"], 1),
        "first_losses": record["losses"][:FIRST_LOSSES],
        "first_answer_losses": record["answer_losses"][:FIRST_LOSSES],
        "losses_every_50": record["losses"][49::50],
        "evaluations": record["evaluations"],
        "final": _metrics(final),
    }
    npz, meta = out / run.WEIGHTS, out / run.RECORD
    train.save(params, summary, npz, meta)
    _print_metrics(final)
    print(f"wrote {npz} ({npz.stat().st_size} bytes) and {meta}")


def _metrics(e):
    return {"heldout_sentences": e["sentences"], "accuracy": e["accuracy"],
            "answer_loss": e["loss"], "best_head": e["best_head"],
            "best_head_attention": e["best_attention"],
            "attention_share": e["attention"].tolist(),
            "mean_attention_on_answer": e["mean_attention"].tolist()}


def _print_metrics(e):
    layer, head = e["best_head"]
    print(f"held-out accuracy {100 * e['accuracy']:.2f} % of {e['sentences']} sentences; "
          f"layer {layer} head {head} puts >= 0.5 on the answer noun in "
          f"{100 * e['best_attention']:.2f} % of them")


def command_evaluate(args):
    params, cfg, record = run.book_model()
    started = time.perf_counter()
    heldout = corpus.every_sentence("heldout")
    e = evaluate.evaluate(params, cfg, heldout)
    _print_metrics(e)
    # The sentences a model can only answer by reading the nouns (corpus.nouns_decide): in the
    # others the verb or the adjective alone names the obstacle.
    decided = [s for s in heldout if corpus.nouns_decide(s)]
    obstacles = sum(s["answer"] in corpus.INANIMATE for s in decided)
    print(f"where only the nouns decide ({len(decided)} sentences, {obstacles} of them with an "
          f"obstacle for answer):")
    _print_metrics(evaluate.evaluate(params, cfg, decided))
    print(f"({time.perf_counter() - started:.1f} s)")


def command_run(args):
    t = run.trace(args.words)
    print(" ".join(args.words), "->")
    for item in t["next"]["top"][:5]:
        print(f"  {item['word']}\t{item['p']:.4f}")
    for i, layer in enumerate(t["layers"]):
        w = layer["attention"]["weights"][:, -1]  # (H, T): every head's row at the last word
        for h, row in enumerate(w):
            j = int(np.argmax(row))
            print(f"  layer {i} head {h}: most weight {row[j]:.2f} on {args.words[j]}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m pycore.gpt", description=__doc__.split(
        "\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("train", help="train the book's model and write its weights")
    p.add_argument("--steps", type=int, help="stop after this many steps (default: the "
                   "book's setting; the schedule then spans the shorter run)")
    p.add_argument("--seed", type=int, help="another seed than the book's")
    p.add_argument("--out", help="folder for the two files (default: pycore/)")
    p.set_defaults(func=command_train)
    p = commands.add_parser("evaluate", help="the committed weights on every held-out sentence")
    p.set_defaults(func=command_evaluate)
    p = commands.add_parser("run", help="the next-token distribution after some words")
    p.add_argument("words", nargs="+",
                   help=f"words of the vocabulary: {' '.join(corpus.VOCAB[1:])}")
    p.set_defaults(func=command_run)
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except ValueError as e:
        sys.exit(f"error: {e}")


if __name__ == "__main__":
    main()
