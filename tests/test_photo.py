"""The build-time photo: shape, determinism, and pixels close to a plain box downsample."""
import numpy as np
import pytest

from bookbuild.tools import photo

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402


def original_pixels():
    with Image.open(photo.sample_path()) as im:
        return np.asarray(im.convert("RGB"), dtype=float)  # (600, 512, 3)


def test_sample_ships_with_matplotlib():
    path = photo.sample_path()
    assert path.is_file()
    assert "matplotlib" in str(path).lower()


def test_centre_square_by_hand():
    # the sample is 512 wide and 600 tall: (600 - 512) / 2 = 44 rows cut at the top
    assert photo.centre_square(512, 600) == (0, 44, 512, 556)
    assert photo.centre_square(300, 200) == (50, 0, 250, 200)
    assert photo.centre_square(5, 5) == (0, 0, 5, 5)


def test_shape_dtype_and_determinism():
    a = photo.prepare_photo()
    b = photo.prepare_photo()
    assert a.shape == (224, 224, 3)
    assert a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert photo.prepare_photo(size=32).shape == (32, 32, 3)


def test_pixels_match_a_box_downsample_of_the_centre_square():
    # Independent route: crop by slicing, then average 16x16 blocks (512 = 32 * 16).
    square = original_pixels()[44:556, :, :]  # (512, 512, 3)
    coarse = square.reshape(32, 16, 32, 16, 3).mean(axis=(1, 3))  # (32, 32, 3)
    small = photo.prepare_photo(size=32).astype(float)
    # Lanczos keeps more detail than a box average, so allow a few grey levels
    assert np.abs(small - coarse).mean() < 8.0
    # a flip or a crop from the top instead of the centre would be far off (about 45-70)
    assert np.abs(small[::-1] - coarse).mean() > 25.0
    assert np.abs(small[:, ::-1] - coarse).mean() > 25.0
    top = original_pixels()[:512].reshape(32, 16, 32, 16, 3).mean(axis=(1, 3))  # (32, 32, 3)
    assert np.abs(small - top).mean() > 25.0
    # the overall colour survives resizing to 224
    full = photo.prepare_photo().astype(float)
    assert np.allclose(full.mean(axis=(0, 1)), square.mean(axis=(0, 1)), atol=1.5)


def test_save_photo_round_trip(tmp_path):
    out = photo.save_photo(tmp_path / "sub" / "photo.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(out) as im:
        assert im.size == (224, 224)
        assert np.array_equal(np.asarray(im.convert("RGB")), photo.prepare_photo())


def test_credit_names_source_and_licence():
    for text in (photo.PHOTO_CREDIT, photo.PHOTO_CREDIT_ZH):
        assert "Hopper" in text
        assert "Matplotlib" in text
    assert "public domain" in photo.PHOTO_CREDIT
    assert "公有领域" in photo.PHOTO_CREDIT_ZH
