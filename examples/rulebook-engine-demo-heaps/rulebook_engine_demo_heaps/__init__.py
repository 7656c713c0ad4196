"""Engine module for Demo Heaps, the example game of docs/engine.md ("Writing an engine module").

Registered in this package's pyproject.toml under the `rulebook.engines` entry-point group with
the game's id, `demo-heaps`, so `rulebook validate` finds it once the package is installed.
Everything it knows about the game that the data does not say fits in a few lines:

- a turn takes one or more counters from one heap (the data's setup says which zones are heaps
  and how many counters each starts with: the module reads them, it states no number);
- the game ends when every heap is empty; in mode `last-wins` the player who took the last
  counter wins, in `last-loses` the other one does.

It changes the state only through the core's primitives (`take`, `gain_points`, `say`) and reads
it only through `has`, so the simulation's conservation check sees every counter.
"""

from __future__ import annotations

from generator.engine.state import State

COUNTER = ("counter", "")  # (component, kind): the counters have no kinds in the data


class HeapsState(State):
    def __init__(self, game, setup, seed, box, endless, params):
        super().__init__(game, setup, seed, box, endless, params)
        # the heaps are the shared zones setup puts counters in, in the data's order
        self.heaps = [s.to for s in game.setup if s.component == COUNTER[0] and s.to
                      and not self.zone_rules[s.to].per_player]
        self.round = self.turn = 1
        self.last_wins = self.mode == "last-wins"

    def legal_actions(self) -> list:
        return [(heap, n) for heap in self.heaps for n in range(1, self.has(heap, COUNTER) + 1)]

    def apply(self, action) -> None:
        heap, n = action
        player = self.current
        got = self.take(heap, f"taken#{player + 1}", COUNTER, n)
        self.say(f"P{player + 1} takes {got} from {heap}")
        if not any(self.has(h, COUNTER) for h in self.heaps):
            winner = player if self.last_wins else (player + 1) % self.players
            self.gain_points(winner, 1, "took the last counter" if self.last_wins else "did not take the last counter")
            self.over = True
            return
        self.current = (player + 1) % self.players
        self.turn += 1
        if self.current == 0:
            self.round += 1

    def is_over(self) -> bool:
        return self.over


def new_state(game, setup, seed, box, endless, params):
    return HeapsState(game, setup, seed, box, endless, params)
