"""ViT: an image cut into P x P patches that become tokens, and a hand-made similarity head.

Shapes: an image is (H, W, C) with H and W multiples of P. The patch grid is (h, w) =
(H // P, W // P), and patches are numbered in row-major order: patch n sits in grid row
n // w and grid column n % w. Each patch flattens to a vector of P * P * C numbers in the
order (row inside the patch, column inside the patch, channel).
"""
import numpy as np

from .softmax import softmax

# ITU-R BT.601 luma weights: grey = 0.299 R + 0.587 G + 0.114 B
GREY_WEIGHTS = np.array([0.299, 0.587, 0.114])

FEATURE_NAMES = ("mean R", "mean G", "mean B", "grey std")


def grid_shape(height, width, P):
    """(h, w): how many patches fit down and across; the image must tile exactly."""
    if P <= 0 or height % P or width % P:
        raise ValueError(f"a {height}x{width} image cannot be cut into {P}x{P} patches")
    return height // P, width // P


def n_patches(height, width, P):
    """Number of patch tokens, h * w (224 / 16 = 14, so 196)."""
    h, w = grid_shape(height, width, P)
    return h * w


def n_tokens(height, width, P, cls=True):
    """Length of the sequence the Transformer sees: the patches plus one [CLS] token."""
    return n_patches(height, width, P) + (1 if cls else 0)


def patch_dim(P, channels=3):
    """Length of one flattened patch vector: P * P * C (16 * 16 * 3 = 768)."""
    return P * P * channels


def patchify(img, P):
    """(H, W, C) image -> (N, P*P*C) matrix, one flattened patch per row, row-major order."""
    img = np.asarray(img)
    H, W, C = img.shape
    h, w = grid_shape(H, W, P)
    x = img.reshape(h, P, w, P, C)  # (h, P, w, P, C): split both axes into (grid, inside)
    x = x.transpose(0, 2, 1, 3, 4)  # (h, w, P, P, C): the two grid axes first
    return x.reshape(h * w, P * P * C)  # (N, P*P*C)


def unpatchify(patches, P, h, w):
    """Inverse of patchify: (N, P*P*C) -> (h*P, w*P, C)."""
    patches = np.asarray(patches)
    C = patches.shape[1] // (P * P)
    x = patches.reshape(h, w, P, P, C)  # (h, w, P, P, C)
    x = x.transpose(0, 2, 1, 3, 4)  # (h, P, w, P, C)
    return x.reshape(h * P, w * P, C)  # (H, W, C)


def patch_embed_linear(img, P, W_E, b=None):
    """Patch embedding as a matrix product: patchify(img) @ W_E (+ b) -> (N, D).

    W_E: (P*P*C, D), rows in patchify's order (row in patch, column in patch, channel).
    """
    z = patchify(np.asarray(img, dtype=float), P) @ W_E  # (N, D)
    return z if b is None else z + b


def patch_embed_conv(img, P, kernel, b=None):
    """The same embedding as a convolution with a P x P kernel and stride P -> (N, D).

    kernel: (P, P, C, D) (kernel row, kernel column, input channel, output channel).
    Computed as a sum over the P*P kernel offsets: offset (i, j) meets the pixels
    img[i::P, j::P], one per patch, and multiplies them by kernel[i, j] (C, D).
    """
    img = np.asarray(img, dtype=float)
    H, W, C = img.shape
    h, w = grid_shape(H, W, P)
    out = np.zeros((h, w, kernel.shape[-1]))  # (h, w, D)
    for i in range(P):
        for j in range(P):
            out += img[i::P, j::P, :] @ kernel[i, j]  # (h, w, C) @ (C, D) -> (h, w, D)
    out = out.reshape(h * w, -1)  # (N, D), row-major like patchify
    return out if b is None else out + b


def kernel_to_matrix(kernel):
    """(P, P, C, D) convolution kernel -> (P*P*C, D) matrix W_E for patch_embed_linear."""
    P, _, C, D = kernel.shape
    return kernel.reshape(P * P * C, D)  # (P*P*C, D), same (row, column, channel) order


def raw_patch_features(img, P):
    """(N, 4) features of each patch: mean R, G, B and the std of its grey levels.

    The texture measure is the standard deviation of the grey level inside the patch:
    0 for a flat patch (sky, a wall), large for edges and fine detail (hair, text).
    """
    img = np.asarray(img, dtype=float)
    H, W, C = img.shape
    h, w = grid_shape(H, W, P)
    x = img.reshape(h, P, w, P, C)  # (h, P, w, P, C)
    mean_colour = x.mean(axis=(1, 3)).reshape(h * w, C)  # (h, w, C) -> (N, C)
    grey = img @ GREY_WEIGHTS if C == 3 else img.mean(axis=-1)  # (H, W)
    g = grey.reshape(h, P, w, P)  # (h, P, w, P)
    texture = g.std(axis=(1, 3)).reshape(h * w, 1)  # (h, w) -> (N, 1)
    return np.concatenate([mean_colour, texture], axis=1)  # (N, C + 1)


def standardise(features):
    """Each column shifted to mean 0 and scaled to std 1 over the patches.

    A column that is constant (e.g. no texture anywhere) becomes all zeros.
    """
    f = np.asarray(features, dtype=float)
    mean = f.mean(axis=0)
    std = f.std(axis=0)
    std = np.where(std > 0, std, 1.0)
    return (f - mean) / std


def patch_features(img, P):
    """Standardised (N, 4) features; compute once per P, then call attention_row per click."""
    return standardise(raw_patch_features(img, P))


def attention_row(features, index, temperature=1.0):
    """Weights of patch `index` over all patches: softmax(-||f_index - f_j|| / temperature).

    The hand-made head uses Q = K = features and the score minus the Euclidean distance,
    so a patch is most similar to itself (distance 0) and then to patches that look alike.
    """
    f = np.asarray(features, dtype=float)
    diff = f - f[index]  # (N, F)
    dist = np.sqrt(np.sum(diff * diff, axis=1))  # (N,)
    return softmax(-dist, temperature=temperature)


def attention_matrix(features, temperature=1.0):
    """All rows at once: (N, N), row i is attention_row(features, i)."""
    f = np.asarray(features, dtype=float)
    sq = np.sum(f * f, axis=1)  # (N,)
    d2 = sq[:, None] + sq[None, :] - 2.0 * (f @ f.T)  # (N, N) squared distances
    return softmax(-np.sqrt(np.maximum(d2, 0.0)), temperature=temperature, axis=-1)


def patch_attention(img, P, index, temperature=1.0):
    """(N,) weights of the clicked patch `index` over the whole image."""
    return attention_row(patch_features(img, P), index, temperature)


def patch_index(row, col, w):
    """Row-major number of the patch in grid row `row`, grid column `col`."""
    return row * w + col


def mean_attention_distance(weights, index, grid, P):
    """Average distance in pixels, weighted by attention, from patch `index` to every patch.

    Measured between patch centres; small values mean the head looks locally.
    """
    h, w = grid
    rows, cols = np.divmod(np.arange(h * w), w)  # (N,), (N,)
    r0, c0 = divmod(index, w)
    dist = P * np.hypot(rows - r0, cols - c0)  # (N,) in pixels
    return float(np.sum(np.asarray(weights) * dist))
