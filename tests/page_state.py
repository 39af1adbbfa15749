"""What a page shows after binding views in turn: the tests of views that leave out what the
page already shows (`shown`) lay each view over the last and compare with the whole view."""


def laid_over(shown, part):
    """What the page shows once `part` is bound over the view `shown` (bind.js looks a path
    up key by key): a dict merges key by key, an object keyed by index over a list replaces
    those items, anything else is replaced."""
    if isinstance(shown, list) and isinstance(part, dict):
        return [laid_over(x, part[str(i)]) if str(i) in part else x for i, x in enumerate(shown)]
    if isinstance(shown, dict) and isinstance(part, dict):
        return {**shown, **{k: laid_over(shown.get(k), v) for k, v in part.items()}}
    return part
