"""
A network in the search: batched leaf evaluation
================================================

Plug a policy-value network into :class:`~pacru.bots.MCTSBot`, evaluated on
batches of positions as a GPU wants them.

``TinyNet`` is a two-layer network in numpy (random weights here: train
yours on :mod:`pacru.encoding` observations and the search's visit counts).
It takes the arrays the search hands over, observations ``(B, 51, 9, 9)``
for Shacru and legal-action masks ``(B, 415)``, and returns values ``(B, 2)``
(the player to move first) and priors ``(B, 415)``. With
``batch_evaluator=net`` and ``batch_size=16`` the search descends 16 times
before each call, a virtual loss spreading the descents over different
lines (:mod:`pacru.bots.batched`), so 64 iterations cost 5 calls, not 64.
A torch model fits the same way: ``torch.from_numpy(observations)`` in,
``.numpy()`` out.

Run from the repository root (numpy needed: ``pip install "pacru[ai]"``)::

    python examples/batched_network.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import pacru
from pacru.bots import MCTSBot, RandomBot, play_game
from pacru.encoding import Encoding


class TinyNet:
    """observations -> hidden layer -> (values, priors); counts its calls."""

    def __init__(self, encoding: Encoding, players: int, hidden: int = 64, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        inputs = int(np.prod(encoding.observation_shape))
        self.w1 = rng.normal(0, inputs**-0.5, (inputs, hidden)).astype(np.float32)
        self.w_value = rng.normal(0, hidden**-0.5, (hidden, players)).astype(np.float32)
        self.w_policy = rng.normal(0, hidden**-0.5, (hidden, encoding.num_actions)).astype(
            np.float32
        )
        self.calls = 0
        self.positions = 0

    def __call__(
        self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]
    ) -> tuple[Any, Any]:
        self.calls += 1
        self.positions += len(observations)
        hidden = np.maximum(observations.reshape(len(observations), -1) @ self.w1, 0.0)
        values = np.tanh(hidden @ self.w_value)
        logits = np.where(masks, hidden @ self.w_policy, -np.inf)
        priors = np.exp(logits - logits.max(axis=1, keepdims=True))
        return values, priors / priors.sum(axis=1, keepdims=True)


def main() -> None:
    state = pacru.new_game("shacru", players=2)
    net = TinyNet(Encoding.of(state), len(state.players))
    bot = MCTSBot(seed=1, iterations=64, batch_evaluator=net, batch_size=16, name="tiny-net")
    result = bot.search(state)
    print(f"one search: {sum(result.visits)} iterations in {net.calls} calls")
    print(f"best move {result.best_move}, root value {result.value:+.3f}")
    net.calls = net.positions = 0
    final = play_game(state, [bot, RandomBot(seed=2)])
    print(
        f"tiny-net vs random: {final.outcome.describe() if final.outcome else 'unfinished'} "
        f"after {final.ply} plies"
    )
    print(f"network: {net.calls} calls, {net.positions / net.calls:.1f} positions per call")


if __name__ == "__main__":
    main()
