"""The training corpus: sentences from a small grammar around the book's running example.

    小猫 没有 过 马路 因为 它 太 累 了 ， 它 = 小猫
    小猫 没有 过 马路 因为 它 太 宽 了 ， 它 = 马路

Every sentence names one animal (the animate noun) and one obstacle (the inanimate noun), then
says why with 它 and an adjective that fits only one of them: 累/饿/困/... fit an animal,
宽/长/滑/... fit an obstacle. The question after the comma, 「它 =」, is answered by the noun the
adjective fits. That is the rule the model has to learn; nothing else in the sentence tells:
- the animal comes first in half the templates and second in the other half, and an optional
  time word shifts everything by one, so neither order nor position gives the answer;
- the held-out noun pairs (a quarter of all pairs) never occur together in training, so a
  model that only remembered pairs scores at chance on them. The running example's own pair,
  小猫 + 马路, is held out: the book's sentence is never seen in training.

The grammar emits its words as tokens (no segmenter). 它 is the right pronoun for an animal,
which is why the animate nouns are animals (for 孩子 or 老人 Chinese says 他/她).

Sentences come from a seeded generator (numpy.random.default_rng): the same seed gives the
same sentences in CPython and in Pyodide.
"""
import numpy as np

ANIMATE = ["小猫", "小狗", "小鸟", "兔子", "小马", "小羊", "鸭子", "松鼠"]

# Each obstacle with the verb that crosses it and the adjectives that fit it.
INANIMATE = {
    "马路": ("过", ["宽", "长", "滑"]),
    "桥": ("过", ["长", "滑", "窄"]),
    "河": ("过", ["宽", "深", "急"]),
    "墙": ("翻过", ["高", "滑"]),
    "山坡": ("爬上", ["陡", "滑", "高"]),
    "楼梯": ("爬上", ["陡", "长", "窄"]),
    "小溪": ("跳过", ["深", "急", "宽"]),
    "冰面": ("走过", ["滑", "薄"]),
}
OBSTACLES = list(INANIMATE)

# They fit every animal and no obstacle.
ANIMATE_ADJECTIVES = ["累", "饿", "困", "渴", "懒", "害怕"]

# A = the animal, I = the obstacle, V = the obstacle's verb. The first four put the animal
# first, the last four the obstacle.
TEMPLATES = [
    "A 没有 V I",
    "A 不敢 V I",
    "A 没能 V I",
    "A 被 I 挡住 了",
    "I 挡住 了 A",
    "I 难倒 了 A",
    "I ， A 没有 V",
    "I ， A 不敢 V",
]
ANIMATE_FIRST = [t.split()[0] == "A" for t in TEMPLATES]
TIME_WORDS = ["", "昨天", "今天", "早上", "晚上"]  # "" = no time word
DEGREES = [("太", "了"), ("实在 太", "了"), ("非常", ""), ("特别", "")]  # around the adjective

QUESTION = ["，", "它", "="]
PAD = "<pad>"
MAX_LEN = 16  # the longest sentence, answer included

# The vocabulary in a fixed order (the model's token ids): padding, then the grammar's words.
_FUNCTION = ["没有", "不敢", "没能", "被", "挡住", "了", "难倒", "，", "因为", "它", "太", "实在",
             "非常", "特别", "="]
VERBS = ["过", "翻过", "爬上", "跳过", "走过"]
INANIMATE_ADJECTIVES = ["宽", "长", "滑", "窄", "深", "急", "高", "陡", "薄"]
VOCAB = ([PAD] + ANIMATE + OBSTACLES + VERBS + ANIMATE_ADJECTIVES + INANIMATE_ADJECTIVES
         + _FUNCTION + [w for w in TIME_WORDS if w])
INDEX = {word: i for i, word in enumerate(VOCAB)}
PAD_ID = INDEX[PAD]


def all_pairs():
    """Every (animal, obstacle) pair: 8 x 8 = 64."""
    return [(a, i) for a in ANIMATE for i in OBSTACLES]


def is_heldout(animal, obstacle):
    """A quarter of the pairs, two per animal and two per obstacle (a Latin-square pattern):
    every noun is seen in training, with other partners."""
    return (ANIMATE.index(animal) + OBSTACLES.index(obstacle)) % 4 == 0


def pairs(split):
    """The noun pairs of a split: "train" (48 pairs) or "heldout" (16 pairs)."""
    if split not in ("train", "heldout"):
        raise ValueError(f"split must be 'train' or 'heldout', not {split!r}")
    return [p for p in all_pairs() if is_heldout(*p) == (split == "heldout")]


def answer_of(tokens):
    """The grammar's rule, read off a sentence without knowing how it was made: the noun that
    the adjective after 它 fits. tokens: the words up to (and possibly including) the answer."""
    words = list(tokens)
    adjective = next(w for w in words[words.index("因为"):] if w in ANIMATE_ADJECTIVES
                     or w in INANIMATE_ADJECTIVES)
    kind = ANIMATE if adjective in ANIMATE_ADJECTIVES else OBSTACLES
    return next(w for w in words if w in kind)


def answer_candidates(tokens):
    """The nouns the grammar allows as the answer when every word but the two nouns is known.

    The adjective says which kind of noun answers. An animal answer could be any of the 8
    animals (the animal adjectives fit them all); an obstacle answer only the obstacles whose
    adjectives include this one and, when the template names a verb, whose verb it is: 翻过,
    跳过, 走过 and 薄 each leave one obstacle, and then the answer needs no noun read.
    tokens: the words up to (and possibly including) the answer.
    """
    words = list(tokens)
    adjective = next(w for w in words[words.index("因为"):] if w in ANIMATE_ADJECTIVES
                     or w in INANIMATE_ADJECTIVES)
    if adjective in ANIMATE_ADJECTIVES:
        return list(ANIMATE)
    verb = next((w for w in words if w in VERBS), None)
    return [o for o, (v, fitting) in INANIMATE.items()
            if adjective in fitting and verb in (None, v)]


def nouns_decide(sentence):
    """Whether only the nouns tell the answer: the other words leave more than one candidate."""
    return len(answer_candidates(sentence["tokens"])) > 1


def make_sentence(animal, obstacle, template, time_word, degree, adjective):
    """One sentence as a dict: tokens (the answer is the last one), answer, and the positions
    of the answer noun and of the question mark "=" (where the model must name it)."""
    verb, fitting = INANIMATE[obstacle]
    if adjective not in ANIMATE_ADJECTIVES and adjective not in fitting:
        raise ValueError(f"adjective {adjective!r} fits neither {animal} nor {obstacle}; "
                         f"use one of {ANIMATE_ADJECTIVES + fitting}")
    fill = {"A": animal, "I": obstacle, "V": verb}
    before, after = DEGREES[degree]
    words = ([time_word] if time_word else []) + [fill.get(w, w) for w in template.split()]
    words += ["因为", "它"] + before.split() + [adjective] + after.split() + QUESTION
    answer = animal if adjective in ANIMATE_ADJECTIVES else obstacle
    return {"tokens": words + [answer], "answer": answer, "answer_position": words.index(answer),
            "query_position": len(words) - 1}


def sample(rng, split, n):
    """n random sentences of a split, drawn from rng (a numpy Generator).

    Draws per sentence, in this order: pair, template, time word, degree, which noun the
    adjective fits (even odds), the adjective among those that fit it.
    """
    chosen = pairs(split)
    out = []
    for _ in range(n):
        animal, obstacle = chosen[rng.integers(len(chosen))]
        template = TEMPLATES[rng.integers(len(TEMPLATES))]
        time_word = TIME_WORDS[rng.integers(len(TIME_WORDS))]
        degree = int(rng.integers(len(DEGREES)))
        fits = ANIMATE_ADJECTIVES if rng.random() < 0.5 else INANIMATE[obstacle][1]
        adjective = fits[rng.integers(len(fits))]
        out.append(make_sentence(animal, obstacle, template, time_word, degree, adjective))
    return out


def every_sentence(split):
    """All sentences of a split, in a fixed order: 67,200 for "train", 22,400 for "heldout"."""
    return [make_sentence(animal, obstacle, template, time_word, degree, adjective)
            for animal, obstacle in pairs(split) for template in TEMPLATES
            for time_word in TIME_WORDS for degree in range(len(DEGREES))
            for adjective in ANIMATE_ADJECTIVES + INANIMATE[obstacle][1]]


def encode(words):
    """Words -> token ids; an unknown word is an error that lists the vocabulary."""
    unknown = [w for w in words if w not in INDEX]
    if unknown:
        raise ValueError(f"unknown word(s) {unknown}: the vocabulary is {' '.join(VOCAB[1:])}")
    return [INDEX[w] for w in words]


def decode(ids):
    return [VOCAB[int(i)] for i in ids]


def batch(sentences):
    """Sentences -> the arrays training needs, right-padded to the longest one.

    inputs (B, T) ids of every token but the last; targets (B, T) the next token at each
    position (PAD_ID after the end); query (B,) the position of "=" whose target is the answer;
    answer_position (B,) where the answer noun stands; answer (B,) its id.
    Padding sits after the sentence, so causal attention never lets a real token see it.
    """
    T = max(len(s["tokens"]) for s in sentences) - 1
    ids = np.full((len(sentences), T + 1), PAD_ID, dtype=np.int64)  # (B, T + 1)
    for b, s in enumerate(sentences):
        ids[b, :len(s["tokens"])] = encode(s["tokens"])
    return {
        "inputs": ids[:, :-1], "targets": ids[:, 1:],
        "query": np.array([s["query_position"] for s in sentences]),
        "answer_position": np.array([s["answer_position"] for s in sentences]),
        "answer": np.array([INDEX[s["answer"]] for s in sentences]),
    }
