"""``game_changed`` is sent after a change to a game commits.

Keyword arguments: ``game``, ``seats``, and ``turn_kept``: True when the change was a move
that left the game's status and the seats to move as they were (a player's second border of
a turn, say), so anything that only shows whose turn it is need not be redrawn.

A receiver may return a list of ``(group, event)`` pairs: they are sent to the channel layer
in one hop, after the players' own views.  Receivers must not raise for the
game's sake (a failure is logged and the others still run).  Classrooms use it to refresh
live dashboards; games never import classrooms.
"""

from django.dispatch import Signal

game_changed = Signal()
