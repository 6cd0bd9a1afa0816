"""JSON from outside (socket frames, API bodies, form fields), read with limits.

``json.loads`` recurses once per nesting level, so a body nested a few thousand levels deep
raises RecursionError (a 500, or a socket closed with 1011), and it accepts NaN and Infinity,
which are not JSON.  ``loads`` refuses both with a ValueError that says what is wrong.
"""

import json

MAX_DEPTH = 32


def _no_constants(name):
    raise ValueError(f"{name} is not a number JSON allows.")


def depth(text):
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped)."""
    deepest = level = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            level += 1
            deepest = max(deepest, level)
        elif ch in "]}":
            level -= 1
    return deepest


def loads(text, *, max_depth=MAX_DEPTH):
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8")
    if depth(text) > max_depth:
        raise ValueError(f"The JSON is nested more than {max_depth} levels deep.")
    return json.loads(text, parse_constant=_no_constants)
