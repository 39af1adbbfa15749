"""ViT patches: counts, patch order, conv == linear embedding, the similarity head."""

import numpy as np
import pytest

from pycore import vit


def test_counts_for_224():
    # 224 / 16 = 14 patches per side
    assert vit.grid_shape(224, 224, 16) == (14, 14)
    assert vit.n_patches(224, 224, 16) == 196
    assert vit.n_tokens(224, 224, 16) == 197
    assert vit.n_tokens(224, 224, 16, cls=False) == 196
    assert vit.patch_dim(16) == 768
    assert vit.n_patches(224, 224, 8) == 784  # 28 * 28
    assert vit.n_patches(224, 224, 32) == 49  # 7 * 7
    assert vit.patch_dim(8) == 192 and vit.patch_dim(32) == 3072


def test_grid_must_tile():
    with pytest.raises(ValueError):
        vit.grid_shape(224, 224, 15)


def test_patchify_tiny_image_by_hand():
    # 4 x 6 image, 2 channels; pixel (r, c) holds [10r + c, -(10r + c)]
    base = np.array([[10 * r + c for c in range(6)] for r in range(4)])
    img = np.stack([base, -base], axis=-1)  # (4, 6, 2)
    got = vit.patchify(img, 2)
    assert got.shape == (6, 8)  # grid 2 x 3, vectors 2 * 2 * 2

    def by_hand(r0, c0):
        v = []
        for r in (r0, r0 + 1):
            for c in (c0, c0 + 1):
                v += [10 * r + c, -(10 * r + c)]
        return v

    expected = [by_hand(0, 0), by_hand(0, 2), by_hand(0, 4),
                by_hand(2, 0), by_hand(2, 2), by_hand(2, 4)]
    assert got.tolist() == expected
    # patch 4 is grid row 1, grid column 1: top-left pixel (2, 2) -> 22
    assert got[4, 0] == 22
    assert np.array_equal(vit.unpatchify(got, 2, 2, 3), img)


def conv_with_loops(img, kernel, P):
    """Stride-P convolution written with explicit loops, no reshapes."""
    H, W, C = img.shape
    D = kernel.shape[-1]
    out = np.zeros((H // P, W // P, D))
    for a in range(H // P):
        for b in range(W // P):
            for i in range(P):
                for j in range(P):
                    for c in range(C):
                        for d in range(D):
                            out[a, b, d] += img[a * P + i, b * P + j, c] * kernel[i, j, c, d]
    return out


def test_strided_conv_equals_patchify_matmul():
    rng = np.random.default_rng(3)
    P, D = 2, 3
    img = rng.normal(size=(4, 6, 3))
    kernel = rng.normal(size=(P, P, 3, D))
    loops = conv_with_loops(img, kernel, P).reshape(-1, D)  # row-major over the grid
    W_E = vit.kernel_to_matrix(kernel)
    assert W_E.shape == (12, 3)
    assert np.allclose(vit.patch_embed_linear(img, P, W_E), loops)
    assert np.allclose(vit.patch_embed_conv(img, P, kernel), loops)
    b = np.array([1.0, -2.0, 0.5])
    assert np.allclose(vit.patch_embed_conv(img, P, kernel, b), loops + b)


def test_raw_features_by_hand():
    # 2 x 4 image, P = 2: left patch flat red, right patch a black/white checkerboard
    img = np.zeros((2, 4, 3))
    img[:, :2] = [1.0, 0.0, 0.0]
    img[0, 2] = img[1, 3] = [1.0, 1.0, 1.0]
    f = vit.raw_patch_features(img, 2)
    assert np.allclose(f[0], [1, 0, 0, 0])  # flat: no texture
    # grey levels 1, 0, 0, 1: mean 0.5, std 0.5
    assert np.allclose(f[1], [0.5, 0.5, 0.5, 0.5])


def test_standardised_features_have_mean_0_std_1():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=(64, 64, 3)).astype(np.uint8)
    img[:32] //= 3  # make the halves differ
    f = vit.patch_features(img, 8)
    assert f.shape == (64, 4)
    assert np.allclose(f.mean(axis=0), 0.0, atol=1e-12)
    assert np.allclose(f.std(axis=0), 1.0)
    # a constant column stays finite (zeros)
    flat = vit.standardise(np.array([[1.0, 2.0], [3.0, 2.0]]))
    assert np.array_equal(flat, [[-1.0, 0.0], [1.0, 0.0]])


def test_attention_row_by_hand():
    # three patches with 1-D features 0, 1, 3; click patch 0: distances 0, 1, 3
    f = np.array([[0.0], [1.0], [3.0]])
    e = np.exp([0.0, -1.0, -3.0])
    assert np.allclose(vit.attention_row(f, 0), e / e.sum())
    e2 = np.exp([0.0, -0.5, -1.5])  # temperature 2 halves the scores
    assert np.allclose(vit.attention_row(f, 0, temperature=2.0), e2 / e2.sum())
    # the full matrix agrees row by row
    m = vit.attention_matrix(f)
    for i in range(3):
        d = np.abs(f[:, 0] - f[i, 0])
        assert np.allclose(m[i], np.exp(-d) / np.exp(-d).sum())


@pytest.fixture(scope="module")
def photo_like():
    """A 224 x 224 image with structure: sky gradient, a dark block, noisy texture."""
    rng = np.random.default_rng(1)
    img = np.zeros((224, 224, 3))
    img[:, :, 2] = np.linspace(120, 255, 224)[:, None]
    img[100:180, 40:140] = [30, 20, 20]
    img[150:, 150:] = rng.integers(0, 256, size=(74, 74, 3))
    return img.astype(np.uint8)


@pytest.mark.parametrize("P", [8, 16, 32])
def test_patch_attention_row_sums_to_1_and_peaks_on_click(photo_like, P):
    n = (224 // P) ** 2
    for index in (0, n // 2 + 3, n - 1):
        wts = vit.patch_attention(photo_like, P, index)
        assert wts.shape == (n,)
        assert np.isclose(wts.sum(), 1.0)
        assert np.all(wts > 0)
        assert wts[index] == wts.max()


def test_similar_patches_attract_more(photo_like):
    # P = 16, grid 14 x 14; patch (7, 4) lies in the dark block, (7, 5) too, (0, 4) in the sky
    f = vit.patch_features(photo_like, 16)
    wts = vit.attention_row(f, vit.patch_index(7, 4, 14))
    assert wts[vit.patch_index(7, 5, 14)] > 5 * wts[vit.patch_index(0, 4, 14)]


def test_every_row_for_p8_is_a_distribution(photo_like):
    # how fast a click is, is benchmarks/interaction.py's to measure
    f = vit.patch_features(photo_like, 8)
    assert f.shape == (784, 4)
    for index in range(0, 784, 7):
        row = vit.attention_row(f, index)
        assert row.shape == (784,) and np.all(row >= 0) and abs(row.sum() - 1) < 1e-12


def test_mean_attention_distance_by_hand():
    # grid 2 x 2, P = 10, query patch 0: distances 0, 10, 10, 10*sqrt(2)
    wts = np.array([0.1, 0.2, 0.3, 0.4])
    expected = 0.2 * 10 + 0.3 * 10 + 0.4 * 10 * np.sqrt(2)
    assert np.isclose(vit.mean_attention_distance(wts, 0, (2, 2), 10), expected)
