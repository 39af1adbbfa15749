"""The notebook lesson of the widget bpe (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import step

TITLE = "字节对编码 BPE"
KEYS = ["k", "corpus", "k_used", "vocab_size", "ratio"]
MOVED = {"k": 120, "corpus": "balanced"}


def lesson(params, view, same):
    step("BPE 从 UTF-8 字节出发：一个汉字是三个字节，一个字母是一个。学到的每条合并规则把相邻的一对 "
         "token 换成一个新 token；按顺序用前 k 条，且合并从不跨过预切分的块（词和标点各自成块）。")
    from pycore import bpe, bpe_corpus
    merges = bpe.book_merges(params["corpus"], bpe.MAX_MERGES)  # 按学到的顺序

    def apply(seq, pair, new):
        """从左到右，把每一处相邻的 pair 换成 new（不重叠）。"""
        out, i = [], 0
        while i < len(seq):
            if tuple(seq[i:i + 2]) == tuple(pair):
                out.append(new); i += 2
            else:
                out.append(seq[i]); i += 1
        return out

    def tokens(text, k):
        ids = []
        for chunk in bpe.pretokenize(text):
            seq = list(chunk.encode("utf-8"))  # 先是一个字节一个 token
            for m in merges[:k]:
                seq = apply(seq, m["pair"], m["token"])
            ids += seq
        return ids

    zh, en = bpe_corpus.HELD_OUT
    ids_zh, ids_en = tokens(zh, params["k"]), tokens(en, params["k"])
    print(f"中文 {len(zh.encode())} 个字节 → {len(ids_zh)} 个 token；"
          f"英文 {len(en.encode())} 个字节 → {len(ids_en)} 个 token")
    same(len(ids_zh), view["zh"]["n_tokens"])
    same(len(ids_en), view["en"]["n_tokens"])
    same(len(ids_zh) / len(ids_en), view["ratio"])

    step("词表是 256 个字节加上用到的合并，每个新 token 的字节是它那一对拼起来；把 token 的字节接回去，就是原来的句子。")
    vocab = [bytes([b]) for b in range(256)]
    for m in merges:
        vocab.append(vocab[m["pair"][0]] + vocab[m["pair"][1]])
    same(256 + min(params["k"], len(merges)), view["vocab_size"])
    assert b"".join(vocab[t] for t in ids_zh).decode("utf-8") == zh
    print([bpe.token_label(vocab[t]) for t in ids_zh])  # <e5> 这样的 token 只是一个汉字的一部分字节
