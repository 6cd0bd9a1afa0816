"""``game_changed`` is sent after a change to a game commits (kwargs: ``game``, ``seats``).

A receiver may return a list of ``(group, event)`` pairs: they are sent to the channel layer
together with the game's own per-seat views, in one hop.  Receivers must not raise for the
game's sake (a failure is logged and the others still run).  Classrooms use it to refresh
live dashboards; games never import classrooms.
"""

from django.dispatch import Signal

game_changed = Signal()
