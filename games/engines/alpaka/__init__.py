"""Alpaka: a LAMA-like shedding game for 2–6 players (rules: seed 001).

The engine follows ``games.engines.base``; see ``engine`` for the state, view
and event shapes and ``bots`` for the bot heuristic. Besides the protocol the
site uses ``timeout`` (90-second rule), ``force_continue`` (45-second scoring
wait), ``remove_player`` („Raum verlassen“) and ``replay``.

Decisions where the rules text is silent:

- Seat 0 deals the first round, so seat 1 starts; the deal then moves one seat
  on (skipping seats that left) and the seat after the dealer starts.
- Points are paid as blacks for the tens and whites for the rest; ten whites
  are swapped for a black at once. Chips thus always equal
  ``chips_for(points)``, including after a chip return.
- The lone remaining player may still quit voluntarily (pointless but legal, and
  what a timeout does).
- Englert: the highest hand is found among everyone dealt into the round,
  including those who quit or left during it.
- A player who leaves mid-round keeps their hand, which still scores this round
  (like quitting). Left seats no longer count for the target check, need not
  confirm the score table and never win. If leaving drops the table below two
  players, the game ends at once without scoring the running round.
- ``timeout`` in the scoring phase acts as ``force_continue``; both are no-ops
  (no events) when nothing is pending, because site timers may race a click.
- Each round is shuffled from ``(seed, round)``, so no RNG state is stored.
"""

from games.engines.base import IllegalAction, bot_continue, random_action

from .bots import bot_action, bot_choice
from .engine import (
    OVER,
    PLAY,
    SCORING,
    apply,
    force_continue,
    legal_actions,
    new_game,
    outcome,
    points,
    remove_player,
    replay,
    timeout,
    to_act,
    view,
)
from .rules import (
    CARDS,
    CLASSIC,
    ENGLERT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TARGETS,
    VALUES,
    add_points,
    can_play,
    chips_for,
    hand_score,
    return_chip,
)

__all__ = [
    "CARDS",
    "CLASSIC",
    "ENGLERT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OVER",
    "PLAY",
    "SCORING",
    "TARGETS",
    "VALUES",
    "IllegalAction",
    "add_points",
    "apply",
    "bot_action",
    "bot_choice",
    "bot_continue",
    "can_play",
    "chips_for",
    "force_continue",
    "hand_score",
    "legal_actions",
    "new_game",
    "outcome",
    "points",
    "random_action",
    "remove_player",
    "replay",
    "return_chip",
    "timeout",
    "to_act",
    "view",
]
