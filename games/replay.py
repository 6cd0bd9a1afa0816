"""Rebuild a game from its seed and move log (same seed and same moves: the same game)."""

from dataclasses import dataclass

from games.engine import get_rules


@dataclass
class ReplayReport:
    game_id: int
    plies: int
    matches: bool
    problem: str = ""


def game_replay(*, game):
    """Replay ``game`` from seed + moves; compare with the stored snapshot and version."""
    rules = get_rules(game.kind)
    state = rules.setup(dict(game.options), game.seed)
    moves = list(game.moves.order_by("ply").values_list("ply", "seat", "move"))
    for expected_ply, (ply, seat, move) in enumerate(moves):
        if ply != expected_ply:
            return ReplayReport(game.pk, expected_ply, False, f"ply {expected_ply} is missing")
        state = rules.apply(state, seat, move)
    if len(moves) != game.version:
        return ReplayReport(game.pk, len(moves), False,
                            f"{len(moves)} moves logged but the game is at version {game.version}")
    if state != game.state:
        return ReplayReport(game.pk, len(moves), False, "the snapshot differs from the replay")
    return ReplayReport(game.pk, len(moves), True)
