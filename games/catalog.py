"""The registered games as people choose them: titles, modes and options in words.

Everything here comes from what each engine declares (``Rules.title``, ``modes``,
``options``); nothing names one game.  Forms, lobby, assignments and dashboards use it.
"""

from games.engine import get_rules, kinds


def game_titles():
    """The registered games' titles, in registration order."""
    return [get_rules(kind).title for kind in kinds()]


def mode_key(kind, mode):
    """The value a form uses for one mode of one game: "kind:mode"."""
    return f"{kind}:{mode}"


def mode_split(value):
    """``(kind, mode)`` from a "kind:mode" value, or None when it names no registered mode."""
    kind, _, mode = str(value or "").partition(":")
    if kind not in kinds():
        return None
    try:
        get_rules(kind).mode(mode)
    except KeyError:
        return None
    return kind, mode


def mode_choices(*, solo=True):
    """Grouped choices for a select: ``[(game title, [("kind:mode", mode label), ...])]``."""
    groups = []
    for kind in kinds():
        rules = get_rules(kind)
        modes = [(mode_key(kind, m.key), m.label) for m in rules.modes if solo or not m.solo]
        if modes:
            groups.append((rules.title, modes))
    return groups


def option_value(option, raw):
    """The engine value of an option's choice given as form text (``str(value)``)."""
    for value, _label in option.choices:
        if str(value) == str(raw):
            return value
    return None


def game_label(kind, mode, options=None):
    """"Mapmaker: The Gerrymandering Game, 2 players" (plus any option chosen away from its
    default, in the option's own words, and the state map's name: "..., on Texas")."""
    try:
        rules = get_rules(kind)
        label = rules.mode(mode).label
    except KeyError:
        return f"{kind} {mode}".strip()
    parts = [label]
    for option in rules.options:
        if not option.applies_to(mode):
            continue
        value = (options or {}).get(option.key, option.default)
        if value != option.default:
            parts.extend(text for v, text in option.choices if v == value)
    # a map chosen in a form keeps its name beside its id; a game's options carry map_ref
    options = options or {}
    map_name = options.get("map_name") or (options.get("map_ref") or {}).get("name")
    if isinstance(map_name, str) and map_name:
        parts.append(f"on {map_name}")
    return f"{rules.title}, {', '.join(parts)}"
