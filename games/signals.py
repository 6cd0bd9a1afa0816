"""``game_changed`` is sent after a change to a game commits (kwargs: ``game``, ``seats``).

Classrooms listen to it to refresh live dashboards; games never import classrooms.
"""

from django.dispatch import Signal

game_changed = Signal()
