"""Swin windows: score counts by hand, window ids, and the cyclic-shift-plus-mask equivalence."""
import numpy as np

from pycore import swin


def test_counts_56x56_m7_by_hand():
    c = swin.score_counts(56, 56, 7)
    assert c["n_patches"] == 3136
    assert c["global"] == 9_834_496  # 3136 ** 2
    assert c["n_windows"] == 64  # 8 * 8
    assert c["windowed"] == 153_664  # 64 * 49 ** 2
    assert c["ratio"] == 64.0  # 3136 / 49
    # the same grid from a 224 x 224 image with 4 x 4 patches (Swin's first stage)
    assert swin.attention_counts(224, 4, 7) == c


def test_counts_with_padding():
    # 224 / 16 = 14, M = 8 does not divide 14: pad to 16, 2 x 2 windows
    c = swin.attention_counts((224, 224), 16, 8)
    assert c["grid"] == (14, 14) and c["padded_grid"] == (16, 16)
    assert c["n_windows"] == 4
    assert c["windowed"] == 4 * 64 ** 2  # 16384
    assert c["global"] == 196 ** 2  # 38416
    # rectangular grid 10 x 21, M = 7: pad to 14 x 21, 2 * 3 windows
    assert swin.score_counts(10, 21, 7)["n_windows"] == 6


def test_regular_and_shifted_ids_by_hand():
    regular = swin.window_ids(4, 4, 2)
    assert regular.tolist() == [[0, 0, 1, 1],
                                [0, 0, 1, 1],
                                [2, 2, 3, 3],
                                [2, 2, 3, 3]]
    # shift 1: borders after row/column 0 and 2 -> pieces of 1, 2, 1 along each axis
    shifted = swin.window_ids(4, 4, 2, shift=1)
    assert shifted.tolist() == [[0, 1, 1, 2],
                                [3, 4, 4, 5],
                                [3, 4, 4, 5],
                                [6, 7, 7, 8]]
    assert swin.allowed_pairs(regular) == 4 * 16
    assert swin.allowed_pairs(shifted) == 4 * 1 + 4 * 4 + 16


def test_every_patch_has_one_id_and_layers_differ():
    layers = swin.two_layers(56, 56, 7)
    assert layers["M"] == 7 and layers["shift"] == 3
    for key in ("regular", "shifted", "cyclic"):
        ids = layers[key]
        assert ids.shape == (56, 56)
        assert ids.dtype.kind == "i" and ids.min() == 0
    assert len(np.unique(layers["regular"])) == 64
    assert len(np.unique(layers["shifted"])) == 81  # 9 x 9 pieces
    assert len(np.unique(layers["cyclic"])) == 64  # the roll keeps 64 windows
    reg, sh = layers["regular"].ravel(), layers["shifted"].ravel()
    # some patches share a regular window but not a shifted group, and the other way round
    same_reg = reg[:, None] == reg[None, :]
    same_sh = sh[:, None] == sh[None, :]
    assert np.any(same_reg & ~same_sh) and np.any(same_sh & ~same_reg)
    # each shifted group is at most M x M patches
    assert np.bincount(sh).max() == 49


def swin_mask_groups(h, w, M, s):
    """Second route, the way Swin builds its mask: label regions, roll, cut windows.

    Returns a (h*w, h*w) boolean matrix: may patch a attend to patch b in the shifted layer.
    """
    label = np.zeros((h, w), dtype=int)
    n = 0
    for rs in (slice(0, -M), slice(-M, -s), slice(-s, None)):
        for cs in (slice(0, -M), slice(-M, -s), slice(-s, None)):
            label[rs, cs] = n
            n += 1
    patch = np.arange(h * w).reshape(h, w)
    # regions are defined on the rolled grid; roll the patch numbers into that grid
    rolled = np.roll(patch, shift=(-s, -s), axis=(0, 1))
    allowed = np.zeros((h * w, h * w), dtype=bool)
    for wr in range(0, h, M):
        for wc in range(0, w, M):
            members = rolled[wr:wr + M, wc:wc + M].ravel()
            labels = label[wr:wr + M, wc:wc + M].ravel()
            for a, la in zip(members, labels):
                for b, lb in zip(members, labels):
                    allowed[a, b] = la == lb
    return allowed


def test_shifted_groups_match_swin_roll_and_mask():
    h = w = 12
    M, s = 4, 2
    ids = swin.window_ids(h, w, M, shift=s).ravel()
    same = ids[:, None] == ids[None, :]
    assert np.array_equal(same, swin_mask_groups(h, w, M, s))
    # and the rolled windows hold exactly the patches the roll puts together
    cyc = swin.cyclic_window_ids(h, w, M, s).ravel()
    rolled = np.roll(np.arange(h * w).reshape(h, w), shift=(-s, -s), axis=(0, 1))
    for k, (wr, wc) in enumerate((r, c) for r in range(0, h, M) for c in range(0, w, M)):
        members = set(rolled[wr:wr + M, wc:wc + M].ravel().tolist())
        assert members == set(np.flatnonzero(cyc == k).tolist())


def test_padding_ids_cover_only_real_patches():
    ids = swin.window_ids(14, 14, 8)
    assert ids.shape == (14, 14)
    assert np.bincount(ids.ravel()).tolist() == [64, 48, 48, 36]  # 8x8, 8x6, 6x8, 6x6
    sh = swin.window_ids(14, 14, 8, shift=4)
    assert np.bincount(sh.ravel()).sum() == 196


def test_small_grid_uses_one_window_without_shift():
    assert swin.swin_settings(7, 7, 7) == (7, 0)
    assert swin.swin_settings(4, 9, 7) == (4, 0)
    assert swin.swin_settings(14, 14, 7) == (7, 3)
    layers = swin.two_layers(7, 7, 7)
    assert np.array_equal(layers["regular"], layers["shifted"])
