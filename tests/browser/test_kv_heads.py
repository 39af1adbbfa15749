"""Browser tests of the kv-heads widget (pycore/widgets/kv_heads/:
view, template.html): the K/V-heads slider, the MLA switch, the latent's slider and
the context slider recompute the cache, and the page's numbers and picture are pycore's: each
query head's line ends over the K/V head of its group, g K/V heads are shown (none under MLA,
the latent bar instead), and the picked scheme's row of the bytes chart is highlighted."""
from pycore.widgets.kv_heads import HEADS, KV_CHOICES
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

PAGE = "10b-llms-2026.html"


def picture(root):
    return root.evaluate("""root => {
        const svg = root.querySelector('svg.kvh');
        const shown = e => !e.hasAttribute('data-hidden');
        const centre = e => Number(e.getAttribute('x')) + Number(e.getAttribute('width')) / 2;
        return {
            kv: [...svg.querySelectorAll('.kvhead')].filter(shown).map(centre),
            ends: [...svg.querySelectorAll('.share')].map(l => Number(l.getAttribute('x2'))),
            latent: shown(svg.querySelector('.latent')),
            picked: [...root.querySelectorAll('.hbar-chart .pick')].map(shown),
        };
    }""")


def check_picture(root, view):
    shown = picture(root)
    if view["mla"]:
        assert shown["kv"] == [] and shown["latent"]
        assert len(set(shown["ends"])) == 1            # every head reads the one latent
    else:
        g = view["kv_heads"]
        assert len(shown["kv"]) == g and not shown["latent"]
        # query head h reads K/V head h // (32 / g): its line ends at that head's centre
        assert shown["ends"] == [shown["kv"][h // (HEADS // g)] for h in range(HEADS)]
    assert shown["picked"] == [i == view["picked"] for i in range(4)]


def test_kv_heads_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="kv-heads"]').first
    view = pycore_view("kv-heads", **params_of(root))
    assert_shows(root, view, min_count=8)
    assert_drawn(root, view, min_count=32 + 32 * 4)
    check_picture(root, view)
    assert root.locator('[data-bind="per_token_text"]').text_content() == "128.00 KiB"
    page.close()


def test_kv_heads_mla_and_context(book_pages):
    root = book_pages("kv-heads").widget("kv-heads")
    before = updates(root)
    root.locator("[data-control=kv_heads]").fill(str(KV_CHOICES.index(1)))   # MQA
    assert updates(root) > before
    view = pycore_view("kv-heads", kv_heads=1)
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    assert root.locator('[data-bind="total_text"]').text_content() == "512.00 MiB"
    root.locator("[data-control=kv_heads]").fill(str(KV_CHOICES.index(32)))  # MHA
    view = pycore_view("kv-heads", kv_heads=32)
    assert_shows(root, view)
    check_picture(root, view)
    assert root.locator('[data-bind="total_text"]').text_content() == "16.00 GiB"
    # MLA: the latent replaces the K/V heads; then a smaller latent by keyboard
    root.locator("[data-control=mla]").click()
    view = pycore_view("kv-heads", kv_heads=32, mla=True)
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    root.locator("[data-control=latent]").focus()
    root.page.keyboard.press("ArrowLeft")
    view = pycore_view("kv-heads", kv_heads=32, mla=True, latent=256)
    assert_shows(root, view)
    assert view["per_token"] == 32 * (256 + 64) * 2
    # the context slider (log-scaled)
    root.locator("[data-control=context]").fill("3.0103")
    context = round(10 ** float(root.locator("[data-control=context]").input_value()))
    view = pycore_view("kv-heads", kv_heads=32, mla=True, latent=256, context=context)
    assert abs(view["context"] - context) <= 1 and params_of(root)
    assert_shows(root, pycore_view("kv-heads", kv_heads=32, mla=True, latent=256,
                                   context=view["context"]))
    root.locator("[data-action=reset]").click()
    view = pycore_view("kv-heads")
    assert_shows(root, view)
    check_picture(root, view)
