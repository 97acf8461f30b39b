"""The game services: every change to a table goes through these functions.

Views, consumers, the ticker and the admin call them; each owns its transaction.
The package is split by concern (see ``common`` for what every service shares);
the names below are its public interface.
"""

from games.services.chat import hide_chat_messages, post_chat, visible_chat
from games.services.common import (
    LOBBY_GROUP,
    ActionOutcome,
    Push,
    Refused,
    collected_pushes,
    load_game,
    load_seats,
    match_changed_message,
    notify_lobby_changed,
    notify_match_changed,
    push_to_table,
    refuse_bot_account,
    send_push,
    table_channels,
)
from games.services.limits import refuse_bot_table_over_cap, refuse_table_flood
from games.services.play import MAX_ACTION_TEXT, apply_action, resign
from games.services.presence import release_dead_servers, seat_connected, seat_disconnected
from games.services.tables import (
    abort_match,
    create_match,
    create_match_from_position,
    decline_rematch,
    join_match,
    leave_match,
    start_match,
    start_next_deal,
)
from games.services.timers import (
    BotClaim,
    PreparedBotMove,
    claim_due_bot_turn,
    expire_deadlines,
    play_prepared_bot_move,
    prepare_bot_move,
    run_bot_turn,
    run_due_bot_turn,
)

__all__ = [
    "BotClaim",
    "PreparedBotMove",
    "claim_due_bot_turn",
    "play_prepared_bot_move",
    "prepare_bot_move",
    "LOBBY_GROUP",
    "MAX_ACTION_TEXT",
    "ActionOutcome",
    "Refused",
    "Push",
    "abort_match",
    "apply_action",
    "collected_pushes",
    "create_match",
    "create_match_from_position",
    "decline_rematch",
    "expire_deadlines",
    "hide_chat_messages",
    "join_match",
    "leave_match",
    "load_game",
    "load_seats",
    "match_changed_message",
    "notify_lobby_changed",
    "notify_match_changed",
    "post_chat",
    "push_to_table",
    "refuse_bot_account",
    "refuse_bot_table_over_cap",
    "refuse_table_flood",
    "release_dead_servers",
    "resign",
    "run_bot_turn",
    "run_due_bot_turn",
    "seat_connected",
    "seat_disconnected",
    "send_push",
    "start_match",
    "start_next_deal",
    "table_channels",
    "visible_chat",
]
