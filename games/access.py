"""Who may watch or play a game.

Seated players, the game's creator and staff always may.  Other apps add rules for the games
they know about (classrooms: a class's teacher watches its tables and the lobby games of its
students; classmates are kept off other tables).  Anyone else needs the game's share link,
whose key the game page remembers in the session.  Everything else is refused, and refused
exactly like a game that does not exist, so ids cannot be walked.
"""

import secrets

from django.utils.crypto import constant_time_compare

_rules = []
SESSION_KEYS = "game_keys"  # session: {str(game id): share key} for links the user opened


def share_key_new():
    return secrets.token_urlsafe(16)


def access_rule_register(rule):
    """``rule(game=..., user=...)`` returns True (allow), False (deny) or None (no opinion);
    a False from any rule wins."""
    _rules.append(rule)
    return rule


def session_keys(session):
    """The share keys a session holds, for ``game_can_watch``."""
    return (session or {}).get(SESSION_KEYS) or {}


def session_key_remember(session, game, key):
    """Remember a share link's key in the session if it is the game's; returns whether it was."""
    if not key or not constant_time_compare(str(key), game.share_key):
        return False
    keys = dict(session_keys(session))
    keys[str(game.pk)] = game.share_key
    session[SESSION_KEYS] = keys
    return True


def game_can_watch(*, game, user, keys=None):
    """May ``user`` see ``game``?  ``keys``: the share keys of the user's session."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or game.created_by_id == user.pk:
        return True
    if game.seats.filter(user=user).exists():
        return True
    verdicts = [rule(game=game, user=user) for rule in _rules]
    if False in verdicts:
        return False
    if True in verdicts:
        return True
    held = (keys or {}).get(str(game.pk))
    return bool(held) and constant_time_compare(held, game.share_key)


def game_can_join(*, game, user, keys=None):
    """May ``user`` take an open seat?  Same rules as watching."""
    return game_can_watch(game=game, user=user, keys=keys)
