"""Swin: attention inside M x M windows of the patch grid, and shifted windows in the next layer.

The patch grid is (h, w) patches. Layer one cuts it into M x M windows; patches attend only
to patches of their own window. Layer two shifts the window borders by s = M // 2 so that
information crosses the old borders. Swin implements the shift as a cyclic roll of the grid
by (-s, -s) followed by the same regular windows plus a mask; the border windows then hold
pieces from opposite edges, which the mask keeps apart. The effect is the same as windows
whose borders sit at s, s + M, s + 2M, ... with smaller pieces at the edges.

A grid that M does not divide is padded at the bottom and right with empty patches up to the
next multiple of M, as Swin does; the padding takes part in the windows (and in the cost)
but has no window id below, because it is not part of the picture.
"""
import numpy as np

from .vit import grid_shape


def padded(n, M):
    """n rounded up to a multiple of M."""
    return -(-n // M) * M


def n_windows(h, w, M):
    """Number of M x M windows that cover the (padded) grid."""
    return (padded(h, M) // M) * (padded(w, M) // M)


def swin_settings(h, w, M):
    """(M, shift) actually used for an (h, w) grid.

    Swin's rule: when the grid is not larger than a window, the window shrinks to the grid
    and there is no shift (one window already sees everything).
    """
    if min(h, w) <= M:
        return min(h, w), 0
    return M, M // 2


def _axis_groups(n, M, shift):
    """Group number of each position 0..n-1 along one axis, and the group count."""
    pos = np.arange(n)
    if shift == 0:
        return pos // M, padded(n, M) // M
    # borders at shift, shift + M, ...: positions < shift form group 0
    return (pos + M - shift) // M, padded(n, M) // M + 1


def _compact(ids):
    """Renumber ids 0, 1, 2, ... in row-major order of the groups (empty groups dropped)."""
    _, inverse = np.unique(ids, return_inverse=True)
    return inverse.reshape(ids.shape)


def window_ids(h, w, M, shift=0):
    """(h, w) int array: patches with the same id attend to each other in this layer.

    shift = 0 is the regular layer (ids are the window numbers, row-major); shift = s > 0
    is the shifted layer, where the edge pieces get their own ids.
    """
    rows, _ = _axis_groups(h, M, shift)  # (h,)
    cols, n_cols = _axis_groups(w, M, shift)  # (w,)
    return _compact(rows[:, None] * n_cols + cols[None, :])  # (h, w)


def cyclic_window_ids(h, w, M, shift):
    """(h, w) int array: which of the regular windows holds each patch after the roll.

    This is how Swin computes the shifted layer with the same number of windows as the
    regular one; the mask then splits each border window into the groups of window_ids.
    """
    Hp, Wp = padded(h, M), padded(w, M)
    r = ((np.arange(h) - shift) % Hp) // M  # (h,) window row after rolling by -shift
    c = ((np.arange(w) - shift) % Wp) // M  # (w,) window column after rolling
    return r[:, None] * (Wp // M) + c[None, :]  # (h, w)


def two_layers(h, w, M):
    """Window ids of a regular layer and the following shifted layer, for a widget."""
    M_used, shift = swin_settings(h, w, M)
    return {
        "M": M_used,
        "shift": shift,
        "regular": window_ids(h, w, M_used, 0),
        "shifted": window_ids(h, w, M_used, shift),
        "cyclic": cyclic_window_ids(h, w, M_used, shift),
    }


def allowed_pairs(ids):
    """Number of (query, key) pairs inside the same group: the sum of the group sizes squared."""
    counts = np.bincount(np.asarray(ids).ravel())
    return int(np.sum(counts * counts))


def score_counts(h, w, M):
    """Attention scores per head and layer: global (h*w)^2 vs windowed n_windows * (M^2)^2."""
    n_win = n_windows(h, w, M)
    glob = (h * w) ** 2
    windowed = n_win * (M * M) ** 2
    return {
        "grid": (h, w),
        "padded_grid": (padded(h, M), padded(w, M)),
        "n_patches": h * w,
        "n_windows": n_win,
        "global": glob,
        "windowed": windowed,
        "ratio": glob / windowed,
    }


def attention_counts(image_size, P, M):
    """score_counts for an image: image_size is an int (square) or (H, W), P the patch size."""
    H, W = (image_size, image_size) if np.isscalar(image_size) else image_size
    h, w = grid_shape(H, W, P)
    return score_counts(h, w, M)
