"""A small decoder-only Transformer that pycore trains, and that the page runs and trains again.

The task is the book's running example made real (corpus.py): name the noun that 它 refers to
in 「小猫 没有 过 马路 因为 它 太 累 了 ， 它 =」, on noun pairs never seen together in
training. The model (model.py, layers.py) is built from the book's parts; train.py trains
it with AdamW (adamw.py) and warmup + cosine; evaluate.py measures it; run.py and live.py
are what the page calls. `python3 -m pycore.gpt --help` lists the commands; docs/model.md
describes the design and the API.
"""
