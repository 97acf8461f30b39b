"""The news the arena app sends upward (the notifications app tells the friends)."""

from django.dispatch import Signal

# sender=Arena class; kwargs: arena_id, creator_id.  Sent after the commit that made a
# player's public arena (``arena.player_arenas``); a private arena sends nothing.
public_arena_created = Signal()
