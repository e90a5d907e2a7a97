"""The `basic` heuristic of the Grand Canyon donkey-loading game, and the search kit the
`strong` bot uses on it.

Every choice is scored by what it should win this round plus what the cards kept in hand
are worth later:
- the chance that the donkey is overloaded comes from the load cards the seat can see (its
  own, face-up ones, those it looked at) and, for each one it cannot see, the values that
  card may still have (its owner's unseen cards), tilted by the owner's public contract
  choice: an accepter tends to have loaded low, a refuser high;
- accepting wins one's own counted cards if the donkey is not overloaded; refusing wins
  about an average card of the pile if it is;
- a card kept in hand is worth `ALPHA` of its value later, but only as many cards as the
  seat must still load count: the others are spare, which makes a favour cheap.
So the seat loads the card with the best round-plus-future score, calls a favour when the
round is uncertain enough to pay for the card, looks at the cards it knows least about,
and takes the side with the higher expected win.

The same decision runs on a seat's view (the `basic` bot) and on a determinized state (the
search's rollout policy): both are first reduced to a `Spot`, which holds only what that
seat may see. The search's `weigh` replays each other seat's public choices of the round
(favour called or not, accept or refuse) through the same model on a sampled deal, so the
samples that explain those choices best count most: the strong bot reads bluffs.

Modules: `spot` (what one seat may see), `outlook` (the round's chances and what the hand
is worth later), `decision` (the heuristic's choice at each step), `bluff` (the search's
weighing of samples), `bots` (the `basic` bot, the rollout policy and the search's `KIT`).
"""

from domain.bots.canyon_basic.bluff import weigh
from domain.bots.canyon_basic.bots import KIT, basic, evaluate, horizon, policy
from domain.bots.canyon_basic.decision import decide
from domain.bots.canyon_basic.spot import spot_from_state, spot_from_view

__all__ = ["KIT", "basic", "decide", "evaluate", "horizon", "policy", "spot_from_state",
           "spot_from_view", "weigh"]
