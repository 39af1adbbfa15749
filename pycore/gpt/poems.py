"""Real Chinese for a character-level model: classical poems and sayings from Debian's
fortunes-zh package, its vocabulary, and the held-out split.

The package (version 2.98 in Debian bookworm) holds three fortune files: tang300 (唐诗三百首),
song100 (宋词) and chinese, which mixes the Analects, the Daodejing, 菜根谭, 增广贤文,
proverbs and many classical poets with modern quotations and Debian's own documentation. We
keep tang300 and song100 whole and, from chinese, only the entries whose closing attribution
("-- 辛弃疾《鹧鸪天》", "-- 《论语》为政") names one of CLASSICAL: the old texts, whose words are
in the public domain. The package itself (its compilation) is GPL-3.0+.

Nothing here downloads anything: `read_package(folder)` reads the three files from a folder
(where `dpkg-deb -x` put them, or /usr/share/games/fortunes after `apt-get install
fortunes-zh`); `python3 -m pycore.gpt.train_poems` fetches the package with apt.

A unit is one poem or one saying: its lines, without title, author or attribution, joined
by newlines. Units are separated by a blank line in the training text, so the model learns
where one ends. Every tenth unit (index % 10 == HELDOUT_EVERY - 1, in the package's order)
is held out whole: the model never sees any line of it.
"""
import collections
import re
from pathlib import Path

FILES = ("tang300", "song100", "chinese")
UNKNOWN = "\ufffd"  # id 0: every character outside the vocabulary
HELDOUT_EVERY = 10
MIN_COUNT = 3  # a character joins the vocabulary if it occurs this often in training text

# Attributions in the file "chinese" that name a classical work or a poet who died before
# 1900: their entries are kept. Modern writers, software quotations and Debian's texts are not.
CLASSICAL = (
    "论语", "道德经", "菜根谭", "增广贤文", "谚语", "荀子", "屈原", "佚名", "敦煌", "无名氏",
    "辛弃疾", "苏轼", "李白", "李煜", "杜甫", "陆游", "白居易", "晏几道", "欧阳修", "晏殊",
    "柳永", "王维", "李商隐", "吴文英", "纳兰性德", "韦庄", "李清照", "姜夔", "温庭筠", "张炎",
    "秦观", "张先", "杜牧", "冯延巳", "蒋捷", "王昌龄", "岑参", "刘禹锡", "王安石", "刘过",
    "王沂孙", "刘克庄", "张孝祥", "张籍", "杨万里", "史达祖", "范成大", "陈亮", "范仲淹",
    "刘长卿", "黄庭坚", "周密", "张九龄", "陶渊明", "韩愈", "朱淑真", "刘辰翁", "元稹", "李贺",
    "韦应物", "文天祥", "戴叔伦", "元好问", "高适", "唐寅", "朱熹", "张若虚", "柳宗元",
    "叶梦得", "王之涣", "吕本中", "孟浩然", "岳飞", "戴复古", "袁去华", "孙光宪", "陈人杰",
    "许浑", "黄景仁", "王勃", "王翰", "袁枚", "曹植", "张泌", "贺知章", "周邦彦", "郑谷",
    "陈与义", "卢祖皋", "牛希济", "韩元吉", "吴潜", "汪元量", "李之仪", "孟郊", "马致远",
    "林逋", "贾岛", "杜荀鹤", "曹操", "宋祁", "李璟", "苏舜钦", "李颀", "贺铸", "龚自珍",
)

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")  # the terminal colours around titles and authors
ATTRIBUTION = re.compile(r"^\s*--\s*(.*)$")
HEADER = re.compile(r"^(题目|作者)[:：]|^《.*》$")  # tang300 / song100 title and author lines


def entries(text):
    """A fortune file's entries (separated by lines holding only %), colours removed."""
    text = ESCAPE.sub("", text)
    return [e for e in re.split(r"^%\s*$", text, flags=re.M) if e.strip()]


def body(entry):
    """An entry's text lines, stripped, without blank lines, headers and the attribution."""
    out = []
    for line in entry.splitlines():
        line = line.strip()
        if line and not HEADER.search(line) and not ATTRIBUTION.match(line):
            out.append(line)
    return "\n".join(out)


def attribution(entry):
    """The text after the last "--" line of an entry, or "" if it has none."""
    for line in reversed(entry.strip().splitlines()):
        m = ATTRIBUTION.match(line)
        if m:
            return m.group(1)
    return ""


def is_classical(entry):
    who = attribution(entry)
    return any(name in who for name in CLASSICAL)


def units_of(name, text):
    """The units (poems or sayings) of one package file."""
    kept = entries(text)
    if name == "chinese":
        kept = [e for e in kept if is_classical(e)]
    return [u for u in map(body, kept) if u]


def read_package(folder):
    """Every unit of the three files in `folder`, in file order then package order."""
    folder = Path(folder)
    missing = [n for n in FILES if not (folder / n).is_file()]
    if missing:
        raise FileNotFoundError(f"{folder}: no {', '.join(missing)}; extract fortunes-zh "
                                f"there (apt-get download fortunes-zh; dpkg-deb -x ...)")
    units = []
    for name in FILES:
        units += units_of(name, (folder / name).read_text(encoding="utf-8"))
    return units


def split(units):
    """(training units, held-out units): every HELDOUT_EVERY-th unit is held out whole."""
    train = [u for i, u in enumerate(units) if i % HELDOUT_EVERY != HELDOUT_EVERY - 1]
    heldout = [u for i, u in enumerate(units) if i % HELDOUT_EVERY == HELDOUT_EVERY - 1]
    return train, heldout


def join(units):
    """One text: the units separated by a blank line (the model learns where a poem ends)."""
    return "\n\n".join(units) + "\n\n"


def vocabulary(text, min_count=MIN_COUNT):
    """The id -> character list: UNKNOWN first, then every character of `text` that occurs
    at least min_count times, most frequent first (ties in code-point order)."""
    counts = collections.Counter(text)
    kept = sorted((c for c, n in counts.items() if n >= min_count),
                  key=lambda c: (-counts[c], c))
    return [UNKNOWN] + kept


def encoder(vocab):
    """A dict character -> id; look characters up with .get(c, 0)."""
    return {c: i for i, c in enumerate(vocab)}


def encode(text, vocab_ids):
    """The ids of a text's characters; a character outside the vocabulary gets 0 (UNKNOWN)."""
    return [vocab_ids.get(c, 0) for c in text]


def decode(ids, vocab):
    return "".join(vocab[i] for i in ids)
