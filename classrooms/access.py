"""The classrooms rule for games.access: a game of an assignment is watched by its class teacher
(players and staff are let in by the games app first); everyone else, classmates at other
tables included, is refused.  Kept import-light for AppConfig.ready."""

_registered = False


def assignment_game_rule(*, game, user):
    from classrooms.selectors import game_watch_verdict

    return game_watch_verdict(game=game, user=user)


def register_access_rule():
    global _registered
    if _registered:
        return
    from games.access import access_rule_register

    access_rule_register(assignment_game_rule)
    _registered = True
