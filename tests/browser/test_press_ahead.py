"""A press asks ahead (assets/widgets/common.js liveWidget `ahead`, controls.js askAtPress):
the pointer going down on a control asks the worker for the view its click will ask for; the
click takes that answer; a press with no click changes nothing the page shows or asks next."""
import contextlib
import json

from tests.browser.harness import (PRESS, RECORD, STOP, assert_drawn, assert_heat, assert_shows,
                                   params_of, pycore_view, updates)
from tests.page_state import held_after


def requests(page, name):
    """The requests of widget `name` recorded: their parameters and the parts' keys held."""
    return [a for a in page.evaluate("() => window.__asked") if a["name"] == name]


def asked(page, name):
    return [a["params"] for a in requests(page, name)]


@contextlib.contextmanager
def recording(page, reset=None):
    """Record the page's requests meanwhile; afterwards click `reset` (a widget's 重置)."""
    page.evaluate(RECORD)
    try:
        yield page
    finally:
        page.evaluate(STOP)
        if reset is not None:
            reset.click()


def assert_padding_mask_shows(root, **changes):
    view = pycore_view("padding-mask", **changes)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])


def test_a_click_takes_the_view_asked_at_its_press(book_pages):
    root = book_pages("padding-mask").widget("padding-mask")
    with recording(root.page, reset=root.locator("[data-action=reset]")) as page:
        left = root.locator("[data-control=side] [data-value='\"left\"']")
        before = updates(root)
        left.dispatch_event("pointerdown", PRESS)  # the press alone: asked, not drawn
        [sent] = asked(page, "padding-mask")
        assert sent["side"] == "left"
        assert updates(root) == before
        assert left.get_attribute("aria-checked") == "false"
        left.click()  # its press again and the click: the answer of the first press is taken
        assert len(asked(page, "padding-mask")) == 1
        assert updates(root) == before + 1
        assert left.get_attribute("aria-checked") == "true"
        assert_padding_mask_shows(root, side="left")


def test_a_press_without_its_click_changes_nothing_shown_or_asked_next(book_pages):
    root = book_pages("padding-mask").widget("padding-mask")
    with recording(root.page, reset=root.locator("[data-action=reset]")) as page:
        before = updates(root)
        root.locator("[data-control=side] [data-value='\"left\"']").dispatch_event(
            "pointerdown", PRESS)  # and the pointer leaves: no click
        assert updates(root) == before
        assert root.locator("[data-control=side] [aria-checked=true]").get_attribute(
            "data-value") == '"right"'
        root.locator("[data-control=mask][role=switch]").click()
        mask_off = requests(page, "padding-mask")[-1]
        # the request holds the parts of the view on screen (right), not of the one computed
        # at the press
        assert mask_off["held"] == held_after("padding-mask", {})
        assert (mask_off["params"]["side"], mask_off["params"]["mask"]) == ("right", False)
        assert_padding_mask_shows(root, mask=False)


def test_a_stepper_and_a_widgets_own_button_ask_ahead_a_training_widget_does_not(book_pages):
    with recording(book_pages("kv-cache").page) as page:
        root = page.locator('[data-widget="kv-cache"]').first
        step = int(root.locator("[data-control=step]").get_attribute("aria-valuenow"))
        root.locator("[data-control=step] [data-step='1']").dispatch_event("pointerdown", PRESS)
        assert [p["step"] for p in asked(page, "kv-cache")] == [step + 1]
    root = book_pages("sampling").widget("sampling")
    with recording(root.page, reset=root.locator("[data-action=reset]")) as page:
        seed = params_of(root)["seed"]
        sample = root.locator("[data-action=sample]")
        sample.dispatch_event("pointerdown", PRESS)  # sampling.js: its own button (wireButton)
        assert [p["seed"] for p in asked(page, "sampling")] == [seed + 1]
        sample.click()
        assert [p["seed"] for p in asked(page, "sampling")] == [seed + 1]  # taken, not asked again
    root = book_pages("train-live").widget("train-live")
    with recording(root.page, reset=root.locator("[data-action=reset]")) as page:
        root.locator("[data-control=seed] [data-step='1']").dispatch_event("pointerdown", PRESS)
        assert asked(page, "train-live") == []  # another seed would start a run in the worker
        value = root.locator("[data-control=head] [aria-checked=false]").first.get_attribute(
            "data-value")
        root.locator(f"[data-control=head] [data-value='{value}']").dispatch_event(
            "pointerdown", PRESS)  # another head at the same step: asked
        [sent] = asked(page, "train-live")
        assert sent["head"] == json.loads(value)


def test_a_control_mapped_by_its_widget_asks_ahead_for_what_its_click_asks(book_pages):
    """chinchilla.js maps a preset to the N and D it gives: its press asks the same."""
    root = book_pages("chinchilla").widget("chinchilla")
    with recording(root.page, reset=root.locator("[data-action=reset]")) as page:
        value = root.locator("[data-control=preset] [aria-checked=false]").first.get_attribute(
            "data-value")
        preset = root.locator(f"[data-control=preset] [data-value='{value}']")
        preset.dispatch_event("pointerdown", PRESS)
        preset.click()
        [sent] = asked(page, "chinchilla")
        assert sent["given"] == "ND"
        assert preset.get_attribute("aria-checked") == "true"


def test_space_asks_ahead_when_it_goes_down_and_clicks_when_it_comes_up(book_pages):
    """A keyboard reader's press: Space down on a focused button asks ahead (controls.js
    onPress); its click, at Space up, takes that answer."""
    root = book_pages("padding-mask").widget("padding-mask")
    with recording(root.page, reset=root.locator("[data-action=reset]")) as page:
        left = root.locator("[data-control=side] [data-value='\"left\"']")
        left.focus()
        before = updates(root)
        page.keyboard.down(" ")
        [sent] = asked(page, "padding-mask")
        assert sent["side"] == "left"
        assert updates(root) == before and left.get_attribute("aria-checked") == "false"
        page.keyboard.up(" ")
        assert len(asked(page, "padding-mask")) == 1
        assert updates(root) == before + 1 and left.get_attribute("aria-checked") == "true"
        assert_padding_mask_shows(root, side="left")
