"""A small parallel corpus (Chinese / English) for the tokenisation chapter.

Every sentence was written for this book, about the book's own topics (the kitten and the
road, attention, tokens, training); it is part of the book's sources and ships under the same
terms as the rest of the repository. Nothing is downloaded.

PAIRS holds (Chinese, English) sentences with the same meaning. The chapter trains byte-pair
encodings on two mixtures of them (pycore.bpe):
- english_centric(): every English sentence and one Chinese sentence in ZH_EVERY -- the
  situation of a vocabulary learned mostly from English text;
- balanced(): both halves of every pair.
The running example's sentence (HELD_OUT) is in neither, so the comparison of token counts
is made on text the merges never saw.
"""

PAIRS = [
    ("小猫在路边停了下来。", "The kitten stopped at the side of the road."),
    ("马路上的车很多。", "There were many cars on the road."),
    ("小猫看着马路对面。", "The kitten looked at the other side of the road."),
    ("它想回家，可是它太累了。", "It wanted to go home, but it was too tired."),
    ("小狗跑过了马路。", "The puppy ran across the road."),
    ("老人慢慢地走过马路。", "The old man walked slowly across the road."),
    ("孩子们在路边等红灯。", "The children waited at the side of the road for the red light."),
    ("小猫睡在门口的台阶上。", "The kitten slept on the step by the door."),
    ("它没有吃晚饭，因为它不饿。", "It did not eat dinner because it was not hungry."),
    ("马路太宽了，小猫走不过去。", "The road was too wide for the kitten to cross."),
    ("这句话有九个词。", "This sentence has nine words."),
    ("每个词先变成一个编号。", "Every word first becomes a number."),
    ("编号再变成一个向量。", "The number then becomes a vector."),
    ("向量的每一维是一个特征。", "Each dimension of the vector is a feature."),
    ("两个向量的点积衡量它们有多相似。", "The dot product of two vectors measures how similar they are."),
    ("注意力让每个词去看其他的词。", "Attention lets every word look at the other words."),
    ("查询问的是：我在找什么？", "The query asks: what am I looking for?"),
    ("键回答的是：我这里有什么？", "The key answers: what do I have here?"),
    ("值是真正被传递的内容。", "The value is what is actually passed along."),
    ("分数要除以维度的平方根。", "The scores are divided by the square root of the dimension."),
    ("软最大值把分数变成概率。", "The softmax turns the scores into probabilities."),
    ("温度越高，分布越平。", "The higher the temperature, the flatter the distribution."),
    ("温度越低，分布越尖。", "The lower the temperature, the sharper the distribution."),
    ("代词要找到它指的那个名词。", "A pronoun has to find the noun it refers to."),
    ("这里的它指的是小猫。", "Here the word it refers to the kitten."),
    ("如果换成太宽了，它指的就是马路。", "If we say too wide instead, it refers to the road."),
    ("多头注意力同时看几个方面。", "Multi-head attention looks at several things at once."),
    ("一个头看意思，另一个头看位置。", "One head looks at meaning and another looks at position."),
    ("没有位置信息，打乱词序也不会改变结果。",
     "Without position information, shuffling the words does not change the result."),
    ("位置编码告诉模型每个词在哪里。", "The position encoding tells the model where each word is."),
    ("旋转位置编码把查询和键转一个角度。", "Rotary position encoding turns the query and the key by an angle."),
    ("残差连接让信息可以直接穿过一层。", "The residual connection lets information pass straight through a layer."),
    ("层归一化让每一行的均值为零。", "Layer normalisation makes the mean of every row zero."),
    ("前馈网络对每个词分别计算。", "The feed-forward network works on every word separately."),
    ("解码器不能看到未来的词。", "The decoder cannot see the words of the future."),
    ("因果掩码把未来的分数变成负无穷。", "The causal mask turns the scores of the future into minus infinity."),
    ("模型一次只生成一个词。", "The model generates one word at a time."),
    ("采样时可以调节温度。", "When sampling we can change the temperature."),
    ("缓存保存了前面所有词的键和值。", "The cache keeps the keys and values of all the earlier words."),
    ("模型的大部分参数在前馈网络里。", "Most of the parameters of the model are in the feed-forward network."),
    ("训练的目标是预测下一个词。", "The goal of training is to predict the next word."),
    ("学习率先升高，再慢慢降低。", "The learning rate first goes up and then slowly comes down."),
    ("图片也可以切成一块一块的小方块。", "An image can also be cut into small square patches."),
    ("每一个小方块就像一个词。", "Every patch is like a word."),
    ("小猫在阳光下睡着了。", "The kitten fell asleep in the sun."),
    ("它醒来的时候，天已经黑了。", "When it woke up, it was already dark."),
    ("马路上的灯都亮了。", "All the lights on the road were on."),
    ("小猫终于走过了马路。", "At last the kitten walked across the road."),
    ("它回到了家，吃了晚饭。", "It got home and ate its dinner."),
    ("然后它又睡着了，因为它还是很累。", "Then it fell asleep again because it was still very tired."),
    ("小猫喜欢在窗台上看外面的马路。", "The kitten likes to watch the road from the window."),
    ("下雨的时候，马路上没有人。", "When it rains, there is nobody on the road."),
    ("小狗比小猫跑得快。", "The puppy runs faster than the kitten."),
    ("小猫太小了，跳不上桌子。", "The kitten is too small to jump onto the table."),
    ("它累了就睡，饿了就吃。", "When it is tired it sleeps, and when it is hungry it eats."),
    ("一个词的意思要看它周围的词。", "The meaning of a word depends on the words around it."),
    ("同一个词在不同的句子里意思可能不同。",
     "The same word can mean different things in different sentences."),
    ("模型读的不是字，而是一串编号。", "The model does not read letters but a list of numbers."),
    ("分词器把文本切成一个个词元。", "The tokenizer cuts the text into tokens."),
    ("常见的词只占一个词元。", "A common word takes only one token."),
    ("少见的词会被切成好几块。", "A rare word is cut into several pieces."),
    ("词表越大，句子越短。", "The larger the vocabulary, the shorter the sentence."),
    ("注意力的计算量随长度的平方增长。",
     "The cost of attention grows with the square of the length."),
    ("长度加倍，分数的个数变成四倍。",
     "When the length doubles, the number of scores becomes four times larger."),
    ("每一层都有注意力和前馈网络。", "Every layer has attention and a feed-forward network."),
    ("模型越深，能学到的东西越多。", "The deeper the model, the more it can learn."),
    ("训练需要很多数据和很多时间。", "Training needs a lot of data and a lot of time."),
    ("损失越小，预测越准。", "The smaller the loss, the better the prediction."),
    ("梯度告诉我们参数该往哪里走。", "The gradient tells us which way the parameters should move."),
    ("我们每一步只走一小步。", "At every step we only take a small step."),
    ("翻译的时候，解码器会看编码器的输出。",
     "When translating, the decoder looks at the output of the encoder."),
    ("英文的每个词都能在中文里找到对应的词。",
     "Every English word can find its matching word in the Chinese sentence."),
    ("一句话里的词可以一起计算。", "The words of a sentence can be computed together."),
    ("短的句子要补齐到一样长。", "Short sentences are padded to the same length."),
    ("补齐的位置不能被注意到。", "The padded positions must not be attended to."),
    ("小猫在马路边上等了很久。", "The kitten waited at the side of the road for a long time."),
    ("车都走了，马路安静了下来。", "All the cars were gone and the road became quiet."),
    ("小猫慢慢地走到马路中间。", "The kitten slowly walked to the middle of the road."),
    ("它停下来，回头看了一眼。", "It stopped and looked back once."),
    ("最后它还是没有过马路。", "In the end it still did not cross the road."),
]

# The running example as ordinary text (no spaces between Chinese words), and its translation.
HELD_OUT = ("小猫没有过马路，因为它太累了。",
            "The cat did not cross the road because it was too tired.")

ZH_EVERY = 10  # the English-centric corpus keeps one Chinese sentence in ZH_EVERY


def english_centric():
    """Every English sentence, then every ZH_EVERY-th Chinese one (pairs 0, 10, 20, ...)."""
    zh = [z for z, _ in PAIRS[::ZH_EVERY]]
    return "\n".join([e for _, e in PAIRS] + zh)


def balanced():
    """Both sentences of every pair, one a line."""
    return "\n".join(s for pair in PAIRS for s in pair)
