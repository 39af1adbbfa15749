"""What a page shows after binding views in turn: the tests of views in parts (a view sends only
the parts the page does not hold) lay each view over the last and compare with the whole view."""


def laid_over(shown, part):
    """What the page shows once `part` is bound over the view `shown` (bind.js looks a path
    up key by key): a dict merges key by key, an object keyed by index over a list replaces
    those items, anything else is replaced."""
    if isinstance(shown, list) and isinstance(part, dict):
        return [laid_over(x, part[str(i)]) if str(i) in part else x for i, x in enumerate(shown)]
    if isinstance(shown, dict) and isinstance(part, dict):
        return {**shown, **{k: laid_over(shown.get(k), v) for k, v in part.items()}}
    return part


def asked(name, params, held=None):
    """The view a page holding the parts `held` ({part: key}) gets for these parameters, as
    call_json sends it, and the keys of the parts it brings (pycore/view_parts.py)."""
    from pycore.widgets import plain, validate, view_of
    view = plain(view_of(name, validate(name, params), held))
    return view, view.pop("$parts")


def held_after(name, params):
    """The keys of the parts a page holds once it shows the whole view of these parameters."""
    return asked(name, params)[1]
