"""Every exercise by id, in book order, and what the page needs to show one."""
from . import attention, backprop, bigram, block, heads, kvcache, norms, params, positional
from . import sampling, softmax, vectors, vit

EXERCISES = {ex.id: ex for module in (vectors, softmax, attention, heads, positional, norms,
                                      sampling, kvcache, params, vit, backprop, bigram, block)
             for ex in module.EXERCISES}


def ids():
    return list(EXERCISES)


def get(exercise_id):
    try:
        return EXERCISES[exercise_id]
    except (KeyError, TypeError):
        raise ValueError(f"no exercise {exercise_id!r}; known: {', '.join(EXERCISES)}") from None


def describe(exercise_id):
    """What the page shows before any check: plain JSON-able data."""
    ex = get(exercise_id)
    return {"id": ex.id, "chapter": ex.chapter, "title": ex.title, "signature": ex.signature,
            "function": ex.function, "statement": ex.statement, "starter": ex.starter,
            "solution": ex.solution, "hints": list(ex.hints), "reference": ex.reference_name,
            "fixed_cases": [c.name for c in ex.fixed]}


def catalog():
    """[{id, chapter, title}] for every exercise, in book order."""
    return [{"id": ex.id, "chapter": ex.chapter, "title": ex.title}
            for ex in EXERCISES.values()]
