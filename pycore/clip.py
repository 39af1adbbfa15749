"""Image-text matching as CLIP trains it: a batch of n images and their n captions, both
embedded into one space, compared by cosine similarity, and pulled together by a symmetric
contrastive loss.

Row i of the images and row i of the captions are a pair; every other caption in the batch is
a wrong answer for image i (and every other image a wrong answer for caption i). With the
embeddings normalised to unit length, S = I T^T holds the cosines; the logits are S / tau.
Softmax along a row asks "which caption is this image's?", along a column "which image is this
caption's?"; the loss is the mean of the two cross-entropies with the diagonal as the answers.
"""
import numpy as np

from .softmax import softmax


def normalised(x):
    """Each row of x scaled to unit length (a zero row stays zero)."""
    x = np.asarray(x, dtype=float)
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.where(norms == 0, 1.0, norms)


def log_softmax(z, axis):
    """log softmax(z) along axis, without exp overflowing or log(0)."""
    z = np.asarray(z, dtype=float)
    z = z - np.max(z, axis=axis, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=axis, keepdims=True))


def contrastive(images, captions, tau):
    """The matching of a batch (images (n, d), captions (n, d), row i a pair) at temperature
    tau > 0. Returns a dict: cos (n, n) cosines, logits = cos / tau, image_to_text (each row a
    softmax: p(caption j | image i)), text_to_image (each column a softmax: p(image i |
    caption j)), loss_i2t and loss_t2i (the two cross-entropies, means over the batch, with
    the diagonal as the answers) and loss (their mean)."""
    if tau <= 0:
        raise ValueError("tau must be > 0")
    cos = normalised(images) @ normalised(captions).T  # (n, n)
    logits = cos / tau
    diag = np.arange(len(cos))
    loss_i2t = -log_softmax(logits, axis=1)[diag, diag].mean()
    loss_t2i = -log_softmax(logits, axis=0)[diag, diag].mean()
    return {"cos": cos, "logits": logits,
            "image_to_text": softmax(logits, axis=1), "text_to_image": softmax(logits, axis=0),
            "loss_i2t": float(loss_i2t), "loss_t2i": float(loss_t2i),
            "loss": float((loss_i2t + loss_t2i) / 2)}
