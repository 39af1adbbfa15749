"""pycore/kvcache.py's sharing of K/V heads and MLA's cache, against values worked out by hand:
which query head reads which K/V head, and the bytes per token of MHA, GQA, MQA and MLA for
the configuration chapter 10b states (32 layers, 32 heads of 128, fp16)."""
import pytest

from pycore.kvcache import cache_bytes, kv_head_of, latent_bytes_per_token


def test_groups_are_consecutive_query_heads():
    assert [kv_head_of(h, 8, 2) for h in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert [kv_head_of(h, 8, 8) for h in range(8)] == list(range(8))   # MHA
    assert {kv_head_of(h, 8, 1) for h in range(8)} == {0}               # MQA
    with pytest.raises(ValueError, match="divide"):
        kv_head_of(0, 8, 3)


def test_bytes_per_token_by_hand():
    # 2 (K and V) x 32 layers x g heads x 128 numbers x 2 bytes
    assert cache_bytes(1, 32, 32, 128) == 524_288 == 512 * 1024
    assert cache_bytes(1, 32, 8, 128) == 131_072
    assert cache_bytes(1, 32, 1, 128) == 16_384
    # MLA: 32 layers x (512 + 64) numbers x 2 bytes, no factor 2 for K and V
    assert latent_bytes_per_token(32, 512, 64) == 36_864
    # the same as a GQA with (512 + 64) / (2 x 128) = 2.25 K/V heads
    assert latent_bytes_per_token(32, 512, 64) / cache_bytes(1, 32, 1, 128) == 2.25
    assert cache_bytes(32768, 32, 32, 128) == 16 * 2 ** 30
