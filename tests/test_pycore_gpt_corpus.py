"""The corpus: the answers follow the grammar's rule, held-out pairs never reach training,
order and position do not give the answer away, and a seed fixes every sentence."""
import collections

import numpy as np
import pytest

from pycore.gpt import corpus

# The rule, written out again from the book's description rather than taken from corpus:
# these adjectives describe a living thing, every other adjective after 它 an obstacle.
LIVING = {"累", "饿", "困", "渴", "懒", "害怕"}
ANIMALS = {"小猫", "小狗", "小鸟", "兔子", "小马", "小羊", "鸭子", "松鼠"}


def rule(words):
    """The answer by the rule: the word right after the degree word(s) after 它 is the
    adjective; it names the animal when it is a living state, the obstacle otherwise."""
    after = words[words.index("它") + 1:]
    adjective = next(w for w in after if w not in ("太", "实在", "非常", "特别"))
    nouns = [w for w in words[:words.index("因为")] if w in corpus.INDEX and
             (w in ANIMALS or w in corpus.INANIMATE)]
    assert len(nouns) == 2
    animal = next(n for n in nouns if n in ANIMALS)
    obstacle = next(n for n in nouns if n not in ANIMALS)
    return animal if adjective in LIVING else obstacle


@pytest.fixture(scope="module")
def heldout():
    return corpus.every_sentence("heldout")


@pytest.fixture(scope="module")
def training():
    return corpus.every_sentence("train")


def test_the_running_example_is_a_heldout_sentence(heldout):
    example = "小猫 没有 过 马路 因为 它 太 累 了 ， 它 = 小猫".split()
    assert example in [s["tokens"] for s in heldout]
    assert corpus.is_heldout("小猫", "马路")


def test_pairs_split_a_quarter_off_and_every_noun_is_trained():
    train, held = corpus.pairs("train"), corpus.pairs("heldout")
    assert len(train) == 48 and len(held) == 16 and not set(train) & set(held)
    for noun in corpus.ANIMATE + corpus.OBSTACLES:
        assert sum(noun in p for p in train) == 6 and sum(noun in p for p in held) == 2


def nouns_of(words):
    return (next(w for w in words if w in ANIMALS), next(w for w in words if w in corpus.INANIMATE))


def test_heldout_pairs_never_occur_in_training(training, heldout):
    held = {nouns_of(s["tokens"]) for s in heldout}
    assert len(held) == 16
    assert not held & {nouns_of(s["tokens"]) for s in training}
    sampled = corpus.sample(np.random.default_rng(0), "train", 5000)
    assert not held & {nouns_of(s["tokens"]) for s in sampled}


def test_answers_follow_the_rule(training, heldout):
    for s in training[::7] + heldout[::3]:
        assert s["tokens"][-1] == s["answer"] == rule(s["tokens"]) == corpus.answer_of(s["tokens"])
        assert s["tokens"][s["answer_position"]] == s["answer"]
        assert s["tokens"][s["query_position"]] == "="
        assert s["query_position"] == len(s["tokens"]) - 2


def test_order_and_position_do_not_give_the_answer():
    # What training sees (sampled: each kind of answer with even odds). Knowing where the two nouns stand (and so which template) leaves the answer a coin toss:
    # in every such group the answer is the first noun in about half the sentences.
    training = corpus.sample(np.random.default_rng(5), "train", 20000)
    groups = collections.defaultdict(list)
    for s in training:
        where = tuple(sorted(s["tokens"].index(n) for n in nouns_of(s["tokens"])))
        groups[where].append(s["answer_position"] == where[0])
    assert len(groups) == 4  # (0, 2), (0, 3) and the same after a time word
    for where, first in groups.items():
        assert 0.4 < np.mean(first) < 0.6, where
    animal_first = sum(s["tokens"].index(nouns_of(s["tokens"])[0]) <
                       s["tokens"].index(nouns_of(s["tokens"])[1]) for s in training)
    assert 0.45 < animal_first / len(training) < 0.55  # half the templates: the animal first


def test_sentences_fit_the_model():
    lengths = {len(s["tokens"]) for s in corpus.every_sentence("heldout")}
    assert max(lengths) == corpus.MAX_LEN and min(lengths) >= 10
    words = {w for s in corpus.every_sentence("train") for w in s["tokens"]}
    assert words == set(corpus.VOCAB) - {corpus.PAD}  # the vocabulary is exactly the grammar's
    assert len(set(corpus.VOCAB)) == len(corpus.VOCAB)


def test_sampling_is_determined_by_the_seed():
    a = corpus.sample(np.random.default_rng(42), "train", 50)
    b = corpus.sample(np.random.default_rng(42), "train", 50)
    c = corpus.sample(np.random.default_rng(43), "train", 50)
    assert a == b and a != c
    # The documented draw order: pair, template, time word, degree, kind, adjective.
    rng = np.random.default_rng(42)
    animal, obstacle = corpus.pairs("heldout")[rng.integers(16)]
    template = corpus.TEMPLATES[rng.integers(8)]
    time_word = corpus.TIME_WORDS[rng.integers(5)]
    degree = rng.integers(4)
    fits = corpus.ANIMATE_ADJECTIVES if rng.random() < 0.5 else corpus.INANIMATE[obstacle][1]
    expected = corpus.make_sentence(animal, obstacle, template, time_word, degree,
                                    fits[rng.integers(len(fits))])
    assert corpus.sample(np.random.default_rng(42), "heldout", 1) == [expected]


def test_batch_pads_after_the_sentence():
    sents = corpus.sample(np.random.default_rng(1), "train", 4)
    b = corpus.batch(sents)
    T = max(len(s["tokens"]) for s in sents) - 1
    assert b["inputs"].shape == b["targets"].shape == (4, T)
    for i, s in enumerate(sents):
        n = len(s["tokens"]) - 1
        assert corpus.decode(b["inputs"][i, :n]) == s["tokens"][:-1]
        assert corpus.decode(b["targets"][i, :n]) == s["tokens"][1:]
        assert (b["targets"][i, n:] == corpus.PAD_ID).all()
        assert b["targets"][i, b["query"][i]] == b["answer"][i]


def test_bad_words_and_adjectives_are_refused():
    with pytest.raises(ValueError, match="unknown word.*'老虎'.*vocabulary is 小猫"):
        corpus.encode(["老虎"])
    with pytest.raises(ValueError, match="fits neither"):
        corpus.make_sentence("小猫", "墙", "A 没有 V I", "", 0, "宽")
