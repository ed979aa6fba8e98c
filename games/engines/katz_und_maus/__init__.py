"""Katz und Maus: the Skip-Bo relative with two 52-card decks, 2–6 players (seed 003).

The engine follows ``games.engines.base``; see ``engine`` for the state, action,
view and event shapes, ``bots`` for the bot strategy and ``simulation`` for the
balance figures. Besides the protocol the site uses ``timeout`` (forced
discard), ``force_continue`` (scoring wait in a match to 500),
``remove_player`` („Raum verlassen“) and ``replay``.

Rules as the seed states them; decisions only where it is silent (the article
marks each „Unsere Festlegung“ where it applies and lists them under „Varianten
und Festlegungen“):

- Seat 0 deals the first game, so seat 1 starts; in a match the deal moves one
  seat on. Stocks are dealt one card at a time; their size is an option
  (8–30), by default ``rules.DEFAULT_STOCK`` (20/15/12/10/8 for 2–6 players,
  chosen by simulation so that most games end with an emptied stock; see
  ``simulation`` and ``bench/bench_katz_und_maus.py``).
- Hands are filled automatically to exactly five at the start of a turn, so the
  seed's over-draw rule (extra cards go under the own stock) cannot happen
  online; the engine has no action for it.
- The source's end of game is the default (``empty_draw="end"``): when the
  draw pile is used up and nobody has emptied a stock, the fewest stock cards
  win, a tie is a draw. The seed does not say when exactly the pile counts as
  used up; here it is the moment a needed draw finds nothing (a pile too short
  for a full refill gives what it has, and the player goes on with fewer
  cards). Teams: both partners' stocks are added.
- Variant ``empty_draw="recycle"`` (our own rule, not in the seed): an empty
  draw pile is first rebuilt from the unfinished build piles – once, and again
  only if a stock card was played since the last time.
  A pile completed by the last hand card goes under the draw pile before the
  player draws five new cards.
- Complete piles (the twelfth card, also a King standing for the Queen) are
  shuffled under the draw pile; option ``completed="remove"`` takes them out.
- An emptied stock wins at once, also in the middle of a turn. Teams (4 or 6
  players, partners opposite: seat i and i + n/2) win once both partners'
  stocks are empty; whoever is done first plays on „kartenlos“ (no drawing, no
  discarding, builds from hand and discard piles; ends the turn with ``end``;
  skipped when nothing fits). ``kartenlos_all`` applies that to everyone; then
  only a player without any card wins, and when nobody can play any more the
  fewest cards left win.
- Scoring: the winning side gets 25 plus 5 per card in the other sides'
  stocks (a draw scores nothing); match option ``"500"``: first to 500.
- Hints (team play): ``{"type": "hint", "rank": "7", "pile": 1}`` may be sent
  any time to the partner; the bot partner follows a hint when it is legal.
- Timeout: a forced discard (``engine.forced_discard``). Leaving: the seat's
  cards leave the game; in team play the partner stops too (the team is out).
"""

from games.engines.base import IllegalAction, bot_continue, random_action

from .bots import bot_action, bot_choice
from .engine import (
    MAX_TURNS,
    OVER,
    PLAY,
    SCORING,
    apply,
    arrange,
    begin_turn,
    card_count,
    force_continue,
    forced_discard,
    kartenlos,
    legal_actions,
    new_game,
    outcome,
    partner,
    remove_player,
    replay,
    timeout,
    to_act,
    view,
)
from .rules import (
    DECK,
    DECK_SIZE,
    DEFAULT_STOCK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKS,
    fits,
    max_stock,
    pile_value,
    round_points,
)
from .simulation import simulate

__all__ = [
    "DECK",
    "DECK_SIZE",
    "DEFAULT_STOCK",
    "MAX_PLAYERS",
    "MAX_TURNS",
    "MIN_PLAYERS",
    "OVER",
    "PLAY",
    "RANKS",
    "SCORING",
    "IllegalAction",
    "apply",
    "arrange",
    "begin_turn",
    "bot_action",
    "bot_choice",
    "bot_continue",
    "card_count",
    "fits",
    "force_continue",
    "forced_discard",
    "kartenlos",
    "legal_actions",
    "max_stock",
    "new_game",
    "outcome",
    "partner",
    "pile_value",
    "random_action",
    "remove_player",
    "replay",
    "round_points",
    "simulate",
    "timeout",
    "to_act",
    "view",
]
