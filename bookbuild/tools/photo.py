"""The photograph of the vit-patches widget, prepared at build time.

The picture ships inside Matplotlib (``mpl-data/sample_data/grace_hopper.jpg``), so the build
never downloads anything. It is centre-cropped to a square and resized with Pillow's Lanczos
filter; the same inputs always give the same pixels.
"""
from pathlib import Path

import numpy as np

SAMPLE_NAME = "grace_hopper.jpg"

PHOTO_CREDIT = (
    "Photo: Commodore Grace M. Hopper, USNR, official U.S. Navy portrait (1984), "
    "U.S. Naval History and Heritage Command. A work of the U.S. federal government, "
    "in the public domain. Taken from Matplotlib's sample data (grace_hopper.jpg), "
    "centre-cropped and resized to 224x224."
)

PHOTO_CREDIT_ZH = (
    "照片：格蕾丝·霍珀（Grace M. Hopper）准将的美国海军官方肖像（1984 年），"
    "美国海军历史与遗产司令部藏。美国联邦政府作品，属于公有领域。"
    "取自 Matplotlib 自带的示例数据 grace_hopper.jpg，居中裁成正方形并缩放到 224×224。"
)


def sample_path():
    """Path of the photo inside the installed Matplotlib (no network access)."""
    from matplotlib import cbook

    return Path(cbook.get_sample_data(SAMPLE_NAME, asfileobj=False))


def centre_square(width, height):
    """Pillow crop box (left, top, right, bottom) of the largest centred square."""
    side = min(width, height)
    left = (width - side) // 2
    top = (height - side) // 2
    return left, top, left + side, top + side


def prepare_photo(size=224):
    """The sample photo as a (size, size, 3) uint8 RGB array."""
    from PIL import Image

    with Image.open(sample_path()) as im:
        rgb = im.convert("RGB")
        square = rgb.crop(centre_square(*rgb.size))
        small = square.resize((size, size), resample=Image.Resampling.LANCZOS)
        return np.asarray(small, dtype=np.uint8).copy()  # (size, size, 3)


def save_photo(path, size=224):
    """Write the prepared photo as a PNG file and return its path."""
    from PIL import Image

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(prepare_photo(size)).save(path, format="PNG", optimize=False)
    return path


def save_raw(path, size=224):
    """Write the prepared photo as raw row-major RGB bytes (size * size * 3) for pycore."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(prepare_photo(size).tobytes())
    return path


if __name__ == "__main__":
    # python3 -m bookbuild.tools.photo: regenerate the two committed copies of the photo, the
    # PNG the
    # page shows and the raw bytes pycore reads (tests/browser/test_vit_patches.py checks both).
    import sys

    root = Path(__file__).resolve().parents[2]
    png = sys.argv[1] if len(sys.argv) > 1 else root / "assets" / "images" / "photo-224.png"
    raw = sys.argv[2] if len(sys.argv) > 2 else root / "pycore" / "photo224.rgb"
    print(save_photo(png), save_raw(raw))
