"""The Cat: a real-time swapping game for 2–4 players (rules: seed 004).

Everyone plays at once; time is an input (see ``engine``): the site calls
``advance(state, now)`` when ``next_due(state)`` comes, ``apply(state, seat,
action, now=...)`` for a click (bots first act up to ``now``), or
``try_apply`` to keep the bots' steps even when the click is refused (a card
taken a moment ago: ``TOO_LATE``). The engine follows ``games.engines.base``
otherwise; ``bots`` holds the bot speeds and strategy, ``arranged`` builds a
fixed position for tests and the article's examples.

Decisions where the rulebook is silent (the article's „Varianten und
Festlegungen“ says the same):

- Two players: the four removed moods are chosen once for the whole game – by
  the host (option ``removed``) or by chance – and stay secret until the first
  reveal.
- Calling „Stopp!“ with a stack in hand is allowed: that stack is put down
  first and counts as it is.
- The stack just put down may be taken straight back up.
- A swap names the middle card it wants by identity; if it is gone, the swap is
  refused („Zu spät …“) and nothing changes. The order in which the server
  applies actions decides, never the clients' clocks. The same swap arriving
  twice is refused as ``ALREADY_SWAPPED``; a „Stopp!“ after the round ended
  is „Zu spät“ too and names who called first.
- A round nobody calls ends after the round time (default five minutes) or
  when every human at the table votes ``give_up``; then nobody gets a bonus and
  everyone scores their finished stacks. Bots always agree.
- Seat 0 (the host) deals the first round; then the caller deals; after a
  round nobody called, the same dealer deals again.
- Leaving the room ends the running round without a caller; the leaver is out
  for good and can no longer win; below two players the game ends.
- Several players past the target in one round: most points win, ties win
  together.
"""

from games.engines.base import IllegalAction, random_action

from .bots import BOTS_VERSION, SPEED_NAMES, SPEEDS, bot_action, bot_choice
from .engine import (
    ALREADY_SWAPPED,
    CHOOSE_FIRST,
    DEFAULT_ROUND_SECONDS,
    OVER,
    OWN_STACKS,
    PLAY,
    REVEAL,
    TOO_LATE,
    advance,
    apply,
    arranged,
    bot_view,
    card_counts,
    legal_actions,
    new_game,
    next_due,
    outcome,
    remove_player,
    replay,
    timeout,
    to_act,
    try_apply,
    view,
)
from .rules import (
    CARDS,
    COPIES,
    DEFAULT_TARGET,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MOOD_KEYS,
    MOOD_NAMES,
    MOODS,
    SHORT_TARGET,
    TARGETS,
    caller_right,
    is_finished,
    mood_of,
    round_points,
    stacks_per_player,
)

__all__ = [
    "ALREADY_SWAPPED",
    "BOTS_VERSION",
    "CARDS",
    "CHOOSE_FIRST",
    "COPIES",
    "DEFAULT_ROUND_SECONDS",
    "DEFAULT_TARGET",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOODS",
    "MOOD_KEYS",
    "MOOD_NAMES",
    "OVER",
    "OWN_STACKS",
    "PLAY",
    "REVEAL",
    "SHORT_TARGET",
    "SPEEDS",
    "SPEED_NAMES",
    "TARGETS",
    "TOO_LATE",
    "IllegalAction",
    "advance",
    "apply",
    "arranged",
    "bot_action",
    "bot_choice",
    "bot_view",
    "caller_right",
    "card_counts",
    "is_finished",
    "legal_actions",
    "mood_of",
    "new_game",
    "next_due",
    "outcome",
    "random_action",
    "remove_player",
    "replay",
    "round_points",
    "stacks_per_player",
    "timeout",
    "to_act",
    "try_apply",
    "view",
]
