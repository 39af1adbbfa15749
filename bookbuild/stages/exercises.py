"""Exercise blocks: the reader writes a part of the Transformer, pycore checks it.

    ```exercise softmax
    ```

The block names an exercise of pycore/exercises/ (docs/exercises.md): its statement, starter,
hints, model solution and cases live there, with the checker and its tests, so that the text
the page shows is the text the tests check. The block may set, as TOML:

    seed = 0          # the first random cases (the reader can ask for new ones)
    time_limit = 15   # seconds a check may take before the page stops it (1 to 60)
    id = "..."        # the element's id (default: exercise-<exercise id>)

An unknown exercise, an unknown key or a wrong value stops the build at its line. The page
(templates/exercise.html, assets/exercise.js) runs the checks in a reader runtime (the reader's
own worker: stoppable, time-limited); the hints and the solution come from that Python when
the reader asks (the solution only after a first attempt), not from the page's HTML.
"""
import tomllib

from ..errors import BuildError, clip, short, toml_error

KEYS = {"seed": (int, 0, 0, 10**9), "time_limit": (int, 15, 1, 60), "id": (str, None, None, None)}


def registry():
    import pycore.exercises
    return pycore.exercises


def parse(name, body, file, line):
    exercises = registry()
    if name not in exercises.ids():
        raise BuildError(f"unknown exercise {short(name)}; the exercises are: "
                         f"{', '.join(exercises.ids())} (pycore/exercises/)", file, line)
    try:
        given = tomllib.loads(body)
    except tomllib.TOMLDecodeError as e:
        what, at = toml_error(e)
        raise BuildError(f"exercise {name}: not valid TOML ({what})", file, line + (at or 0))
    except (RecursionError, ValueError) as e:
        raise BuildError(f"exercise {name}: not valid TOML ({e})", file, line)
    options = {k: default for k, (_, default, _, _) in KEYS.items()}
    for key, value in given.items():
        if key not in KEYS:
            raise BuildError(f"exercise {name} has no setting {short(key)}; allowed: "
                             f"{', '.join(KEYS)}", file, line)
        kind, _, lo, hi = KEYS[key]
        ok = isinstance(value, kind) and not isinstance(value, bool) and \
            (lo is None or lo <= value <= hi)
        if key == "id":
            ok = ok and value and all(c.isalnum() or c == "-" for c in value)
        if not ok:
            allowed = "letters, digits and '-'" if key == "id" else f"an integer from {lo} to {hi}"
            raise BuildError(f"exercise {name}: {key} = {clip(repr(value))} is not allowed: "
                             f"{key} must be {allowed}", file, line)
        options[key] = value
    return options


def expand(chapter, tokens, env):
    """Token rule: annotate every ```exercise <id>``` fence with what its template shows."""
    from .widgets import check_id_is_free, claim_id
    for t in tokens:
        words = t.info.split()
        if t.type != "fence" or not words or words[0] != "exercise":
            continue
        line = t.map[0] + 1
        if len(words) != 2:
            raise BuildError(f"an exercise block starts with ```exercise <id>; got "
                             f"```{clip(t.info.strip())}", chapter.path, line)
        options = parse(words[1], t.content, chapter.path, line)
        described = registry().describe(words[1])
        eid = options["id"] or f"exercise-{words[1]}"
        check_id_is_free(eid, chapter, line)
        claim_id(env, eid, chapter.path, line)
        t.meta["exercise"] = {"id": eid, "name": words[1], "line": line, "seed": options["seed"],
                              "time_limit": options["time_limit"], **{
                                  k: described[k] for k in ("title", "statement", "starter",
                                                            "signature", "function")},
                              "hints": len(described["hints"])}
        chapter.exercises.append(t.meta["exercise"])
