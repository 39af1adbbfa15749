"""Quantisation against its definition entry by entry (each entry's own scale found by the
test), small cases by hand, bytes counted by hand, and int4 packing bit by bit."""
import math

import numpy as np
import pytest

from pycore import example, quantize as Q

SCHEMES = [(bits, sym) for bits in (8, 4) for sym in (True, False)]


def entry_scales(r, shape, granularity, channel_axis, group):
    """(shape) array: the scale and zero point that the definition assigns to each entry."""
    rows, cols = shape
    s, z = np.empty(shape), np.empty(shape, dtype=int)
    for i in range(rows):
        for j in range(cols):
            if granularity == "tensor":
                k = 0
            else:
                c, pos = (i, j) if channel_axis == 0 else (j, i)  # channel, place in it
                length = cols if channel_axis == 0 else rows
                k = c if granularity == "channel" else c * (length // group) + pos // group
            s[i, j], z[i, j] = r["scale"][k], r["zero_point"][k]
    return s, z


@pytest.mark.parametrize("bits,symmetric", SCHEMES)
@pytest.mark.parametrize("granularity,channel_axis,group", [
    ("tensor", 1, None), ("channel", 1, None), ("channel", 0, None),
    ("group", 1, 4), ("group", 0, 3)])
def test_round_trip_by_the_definition(bits, symmetric, granularity, channel_axis, group):
    rng = np.random.default_rng(bits + 10 * symmetric)
    for x in (rng.normal(size=(12, 6)), rng.uniform(0.2, 3.0, size=(12, 6)),  # all positive
              rng.normal(size=(12, 6)) * np.logspace(-3, 1, 6)):  # columns of unequal size
        r = Q.quantize(x, bits, symmetric, granularity, channel_axis, group)
        s, z = entry_scales(r, x.shape, granularity, channel_axis, group)
        q = r["q"]
        assert q.dtype.kind == "i" and q.min() >= r["qmin"] and q.max() <= r["qmax"]
        assert (r["qmin"], r["qmax"]) == ((-(2 ** (bits - 1) - 1), 2 ** (bits - 1) - 1)
                                          if symmetric else (0, 2 ** bits - 1))
        assert np.allclose(r["x_hat"], (q - z) * s, rtol=0, atol=1e-15)
        assert np.all(np.abs(r["x_hat"] - x) <= s / 2 * (1 + 1e-9))  # at most half a step
        if symmetric:
            assert np.all(z == 0)
        assert np.all(np.abs(Q.quantize(np.zeros((12, 6)), bits, symmetric)["x_hat"]) == 0)


def test_small_cases_by_hand():
    r = Q.quantize([-1.0, 0.5, 0.25, 1.0], bits=8)
    assert r["scale"][0] == pytest.approx(1 / 127)
    assert r["q"].tolist() == [-127, 64, 32, 127]  # 63.5 rounds to the even 64, 31.75 to 32
    r = Q.quantize([0.0, 1.0, 2.0, 3.0], bits=4, symmetric=False)
    assert r["scale"][0] == pytest.approx(0.2) and r["zero_point"][0] == 0
    assert r["q"].tolist() == [0, 5, 10, 15]
    r = Q.quantize([-1.0, 2.0, 0.0], bits=4, symmetric=False)
    assert r["scale"][0] == pytest.approx(0.2) and r["zero_point"][0] == 5
    assert r["q"].tolist() == [0, 15, 5] and r["x_hat"][2] == 0  # 0 is exact
    # symmetric int4 on lopsided numbers uses only half of its 15 levels
    assert set(Q.quantize(np.linspace(0, 1, 50), bits=4)["q"].tolist()) <= set(range(0, 8))
    # one large entry coarsens a per-tensor grid, not a per-channel one
    w = np.array([[0.01, 10.0], [0.02, -5.0]])
    assert Q.quantize(w, 8)["x_hat"][0, 0] == 0.0
    assert Q.quantize(w, 8, granularity="channel")["x_hat"][0, 0] == pytest.approx(0.01, abs=1e-4)


def test_bytes_by_hand():
    n = 128 * 128
    assert Q.nbytes(n, 128, 8)["after"] == 16384 + 128 * 2 == 16640
    assert Q.nbytes(n, 512, 4)["after"] == 8192 + 512 * 2 == 9216
    assert Q.nbytes(n, 512, 4, symmetric=False)["after"] == 9216 + 256  # 512 zero points, 4 bits
    assert Q.nbytes(n, 1, 8, from_dtype="fp32")["before"] == 4 * n
    assert Q.nbytes(7, 1, 4)["payload"] == 4  # 7 values in 4 bits: 3.5 bytes -> 4
    r = Q.weight_report("W_Q", 8, True, "channel")
    assert r["bytes"]["before"] == 32768 and r["bytes"]["after"] == 16640
    assert Q.weight_report("W_Q", 4, True, "group", 32)["bytes"]["after"] == 9216
    mib = 2 ** 20
    kv8, kv4 = Q.kv_preset_bytes("LLaMA-7B", 8), Q.kv_preset_bytes("LLaMA-7B", 4)
    assert kv8["before"] == 2 * 32 * 32 * 128 * 2048 * 2 == 1024 * mib
    assert kv8["scales"] == 2 * 32 * 32 * 2048 * 2 == 8 * mib
    assert (kv8["after"], kv4["after"]) == (520 * mib, 264 * mib)


def test_int4_packing():
    assert Q.pack_int4([1, 2]).tolist() == [0x21]  # the first value in the low nibble
    assert Q.pack_int4([-1, 7]).tolist() == [0x7F]  # -1 is the nibble 1111
    assert Q.pack_int4([-8, 0, 3]).tolist() == [0x08, 0x03]  # odd count: padded with 0
    assert Q.pack_int4([15, 0], ).tolist() == [0x0F]
    assert Q.unpack_int4([0x7F], 2).tolist() == [-1, 7]
    assert Q.unpack_int4([0x7F], 2, signed=False).tolist() == [15, 7]
    rng = np.random.default_rng(0)
    for n in (1, 2, 9, 100):
        q = rng.integers(-8, 8, size=n)
        packed = Q.pack_int4(q)
        assert packed.dtype == np.uint8 and len(packed) == math.ceil(n / 2)
        assert Q.unpack_int4(packed, n).tolist() == q.tolist()
        u = rng.integers(0, 16, size=n)
        assert Q.unpack_int4(Q.pack_int4(u), n, signed=False).tolist() == u.tolist()
    w = Q.quantize(rng.normal(size=(6, 6)), bits=4)  # a whole int4 tensor: 36 values, 18 bytes
    assert len(Q.pack_int4(w["q"])) == 18
    with pytest.raises(ValueError, match="int4 values"):
        Q.pack_int4([16])


def test_the_running_example():
    assert Q.semantic_head_report(4) == {"max_abs_error": 0.0, "row_max_change": 0.0}
    assert Q.kv_cache_report(4, positions=False)["row_max_change"] == 0.0
    row = Q.attention_row_report(bits=4, symmetric=False)
    assert row["scale"][0] == pytest.approx(row["row"].max() / 15)
    assert round(row["scale"][0], 4) == 0.0140 and row["zero_point"][0] == 0
    assert row["q"].tolist() == [15, 7, 7, 10, 7, 7, 7, 7, 7]
    assert row["x_hat"][1] == pytest.approx(7 * row["row"].max() / 15)
    assert round(row["x_hat"][1], 4) == 0.0981 and round(row["max_abs"], 4) == 0.0052
    kv8, kv4 = Q.kv_cache_report(8), Q.kv_cache_report(4)
    assert round(kv8["row_max_change"], 4) == 0.0022 and round(kv4["row_max_change"], 3) == 0.034
    assert kv8["row_after"].sum() == pytest.approx(1)
    assert kv8["bytes"]["before"] == 2 * 54 * 2 and kv8["bytes"]["after"] == 108 + 18 * 2


def test_code_lab_numbers():
    a8 = Q.lab_attention_report(8)
    a4 = Q.lab_attention_report(4)
    assert a8["weights_max_change"] < 0.01 < 0.1 < a4["weights_max_change"] < 0.2
    per_tensor = Q.weight_report("W_Q", 8, True, "tensor")["mean_abs"]
    per_channel = Q.weight_report("W_Q", 8, True, "channel")["mean_abs"]
    per_group = Q.weight_report("W_Q", 4, True, "group", 32)["mean_abs"]
    assert (round(per_tensor, 5), round(per_channel, 5)) == (0.00070, 0.00049)
    assert round(per_group, 4) == 0.0072
    assert per_group < Q.weight_report("W_Q", 4, True, "tensor")["mean_abs"]


def test_bad_inputs():
    with pytest.raises(ValueError, match="bits must be"):
        Q.quantize([1.0], bits=5)
    with pytest.raises(ValueError, match="granularity must be one of"):
        Q.quantize(np.ones((2, 2)), granularity="row")
    with pytest.raises(ValueError, match="group_size must divide"):
        Q.quantize(np.ones((6, 2)), granularity="group", group_size=4)
    with pytest.raises(ValueError, match="takes a 2-D array"):
        Q.quantize(np.ones(4), granularity="channel")
    with pytest.raises(ValueError, match="per must be one of"):
        Q.kv_cache_report(per="head")
    with pytest.raises(ValueError, match="name must be one of"):
        Q.lab_weight("b_1")


# --- the widget's view (pycore/widgets/quantize/__init__.py) -------------------------------------

def test_quantize_view_grid_by_hand():
    """int4 symmetric per column: column 0's levels are k s, k = -7..7, s = max |col 0| / 7,
    each drawn on the fixed axis [-R, R]; a stored square sits on the level nearest its dot."""
    import re

    from pycore.widgets import compute, quantize as W
    v = compute("quantize", {"bits": 4, "symmetric": True, "granularity": "channel"})
    w = Q.lab_weight()
    col = w[:, 0]
    s = max(abs(x) for x in col) / 7
    R = max(abs(x) for x in w.ravel())
    g = v["grid"]
    top, h = g["plot"]["y"], g["plot"]["h"]
    y = lambda x: top + h * (R - x) / (2 * R)  # noqa: E731
    levels = [float(t) for t in re.findall(r"M[\d.]+,([\d.]+)h", g["levels"])]
    assert levels == pytest.approx([y(k * s) for k in range(-7, 8)], abs=0.006)
    assert g["scale"] == pytest.approx(s)
    for k, pt in enumerate(g["points"]):
        stored = round(col[k] / s) * s
        assert pt["sy"] == pytest.approx(y(stored), abs=0.006)
        assert pt["cy"] == pytest.approx(y(col[k]), abs=0.006)
        assert abs(stored - col[k]) <= s / 2 + 1e-12
    assert g["max_error"] <= g["half_step"] + 1e-12
    assert len(g["points"]) == W.SHOWN and g["n_levels"] == 15


def test_quantize_view_bytes_by_hand():
    from pycore.widgets import compute
    v = compute("quantize", {"bits": 4, "symmetric": False, "granularity": "group",
                             "group_size": 32})
    n_scales = 128 * 128 // 32
    after = 128 * 128 // 2 + n_scales * 2 + n_scales * 4 // 8  # nibbles, fp16 scales, zeros
    assert v["weight"]["after"] == after == 9472 and v["n_scales"] == n_scales
    seg = v["weight_bar"]["segments"]
    assert [s["w"] for s in seg] == pytest.approx(
        [8192 / 32768 * 340, 1024 / 32768 * 340, 256 / 32768 * 340,
         (32768 - after) / 32768 * 340], abs=0.006)
    values = 2 * 32 * 32 * 128 * 2048  # LLaMA-7B: K, V x 32 layers x 32 heads x 128 x 2048
    v8 = compute("quantize", {"bits": 8})
    assert v8["llama"]["before_mib"] == values * 2 / 2 ** 20 == 1024
    assert v8["llama"]["after_mib"] == (values + values // 128 * 2) / 2 ** 20 == 520
    assert round(v8["kv"]["row_max_change"], 4) == 0.0022  # chapter 10
    assert round(compute("quantize", {"bits": 4})["kv"]["row_max_change"], 3) == 0.034
