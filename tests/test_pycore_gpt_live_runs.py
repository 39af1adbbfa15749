"""The runs the train-live widget keeps between calls (pycore/gpt/live_runs.py): the same seed
and step count give the same numbers however the calls are split, evaluations fall on fixed
steps, a run asked to go back starts again from its seed, and each page's runs are its own."""
import numpy as np
import pytest

from pycore.gpt import corpus, evaluate, live, live_runs, model


@pytest.fixture(autouse=True)
def fresh():
    live_runs.forget()
    yield
    live_runs.forget()


def test_chunks_give_the_losses_of_one_uninterrupted_run():
    # the reference: pycore.gpt.live trained 30 steps in one go, with no store in between
    state = live.init(3)
    whole = live.step(state, 30, report=False)
    for steps in (1, 2, 7, 19, 30):  # the page asks for a few more steps per call
        run = live_runs.advance(3, steps)
    assert run["state"]["step"] == 30 and len(run["losses"]) == 30
    assert run["losses"] == whole["losses"]  # bit for bit: the same operations in the same order
    assert run["answer_losses"] == whole["answer_losses"]
    for name, value in state["params"].items():
        assert np.array_equal(run["state"]["params"][name], value), name


def test_evaluations_fall_on_fixed_steps_whatever_the_calls():
    live_runs.advance(0, 12)
    run = live_runs.advance(0, 51)
    assert [e["step"] for e in run["evaluations"]] == [0, 25, 50]
    # each evaluation is evaluate.evaluate of the weights at that step: redo the one at 25
    again = live_runs.advance(5, 25)
    assert again["evaluations"][-1]["step"] == 25
    live_runs.forget()
    state = live.init(0)
    live.step(state, 25, report=False)
    e = evaluate.evaluate(state["params"], state["settings"]["model"], live_runs.heldout(200))
    assert run["evaluations"][1]["accuracy"] == e["accuracy"]
    assert np.array_equal(run["evaluations"][1]["attention"], e["attention"])


def test_going_back_starts_again_from_the_seed():
    ahead = live_runs.advance(1, 8)
    losses = list(ahead["losses"])
    back = live_runs.advance(1, 3)
    assert back is not ahead and back["state"]["step"] == 3
    assert back["losses"] == losses[:3]
    assert live_runs.advance(1, 3) is back  # asked again: nothing to do


def test_another_page_neither_restarts_nor_takes_a_page_s_run():
    a = live_runs.advance(0, 8, page=1)
    b = live_runs.advance(0, 2, page=2)  # another tab, the same seed, behind page 1's run
    assert b is not a and b["state"]["step"] == 2
    assert a["state"]["step"] == 8 and len(a["losses"]) == 8  # not moved back to step 2
    assert live_runs.advance(0, 9, page=1) is a  # page 1 goes on with its run: one more step
    assert live_runs.advance(0, 3, page=2) is b
    assert sorted(live_runs.table()) == [(1, 0, 9), (2, 0, 3)]
    assert a["losses"][:3] == b["losses"]  # the same seed: the same numbers


def test_every_open_page_keeps_its_run():
    # more pages than seeds a page keeps, asking in turn: none of them starts again
    runs = {page: live_runs.advance(0, 1, page=page) for page in range(1, live_runs.KEEP + 3)}
    for page, run in runs.items():
        assert live_runs.advance(0, 2, page=page) is run


def test_a_page_that_went_away_takes_its_runs_with_it():
    live_runs.advance(0, 1, page=1)
    live_runs.advance(4, 1, page=1)
    kept = live_runs.advance(0, 1, page=2)
    live_runs.forget_page(1)
    assert live_runs.table() == [(2, 0, 1)]
    assert live_runs.advance(0, 1, page=2) is kept


def test_runs_kept_in_all_are_bounded():
    for page in range(live_runs.MAX_RUNS + 2):  # pages the worker never heard go away
        live_runs.advance(0, 0, page=page)
    assert [p for p, _, _ in live_runs.table()] == list(range(2, live_runs.MAX_RUNS + 2))


def test_only_the_last_seeds_are_kept():
    first = live_runs.advance(10, 0)
    other = live_runs.advance(10, 0, page=1)  # another page's seeds count apart
    for seed in range(11, 11 + live_runs.KEEP):
        live_runs.advance(seed, 0)
    assert live_runs.advance(10, 0) is not first  # evicted, made again
    assert live_runs.advance(10, 0, page=1) is other


def test_maps_are_the_heads_attention_on_the_two_examples():
    run = live_runs.advance(2, 4)
    m = live_runs.maps(run)
    cfg = run["state"]["settings"]["model"]
    for b, words in enumerate(live.EXAMPLES):
        _, cache = model.forward(run["state"]["params"], cfg, np.array([corpus.encode(words)]))
        for layer in range(cfg["n_layers"]):
            assert np.array_equal(m["weights"][b, layer], cache["blocks"][layer]["attn"]["weights"][0])
        noun = words.index("小猫" if "累" in words else "马路")
        assert m["answer_position"][b] == noun
        assert np.array_equal(m["on_answer"][b], m["weights"][b, :, :, -1, noun])
    assert live_runs.maps(run) is m  # once per step
    live_runs.advance(2, 5)
    assert live_runs.maps(run)["step"] == 5


def test_a_negative_step_count_is_refused():
    with pytest.raises(ValueError, match="at least 0"):
        live_runs.advance(0, -1)
