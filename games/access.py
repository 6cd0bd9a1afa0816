"""Who may watch or play a game.

Seated players and staff always may.  Other apps add rules for the games they own
(classrooms: only that class's teacher and students); a game no rule claims (a lobby game
shared by link) may be watched by any signed-in user.
"""

_rules = []


def access_rule_register(rule):
    """``rule(game=..., user=...)`` returns True (allow), False (deny) or None (no opinion)."""
    _rules.append(rule)
    return rule


def game_can_watch(*, game, user):
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or game.created_by_id == user.pk:
        return True
    if game.seats.filter(user=user).exists():
        return True
    verdicts = [rule(game=game, user=user) for rule in _rules]
    if False in verdicts:
        return False
    return True


def game_can_join(*, game, user):
    """May ``user`` take an open seat?  Same rules as watching."""
    return game_can_watch(game=game, user=user)
