"""Training the network evaluation of :class:`pacru.bots.NetworkBot` by self-play.

``pacru train OUTPUT`` makes the shipped
weights from a seed. Each round:

1. **Self-play** (:mod:`.data`): games of the native alpha-beta search against
   itself, the leaves valued by the shipped linear evaluation in the first round
   and by the last round's network after it; with probability ``epsilon`` a move
   is a random candidate, so that positions vary. Every ``every``-th position
   (from ply ``i % every`` of game ``i``, so that each player is to move in some)
   gives one sample per player still in play: the network's inputs from that
   player's view, its share of the win (1 alone, 1/k shared, 0 otherwise) and,
   with two players, the search's value of the position for that player.
   Each configuration's samples of a round are one Parquet file.
2. **Fitting** (:mod:`.model`): the network (PyTorch) is fitted to the samples
   of the last ``window`` rounds by binary cross-entropy of the share of the
   win blended with the search's value (``value_weight``), then written in the
   extension's format (``network.bin``).

Every file is written whole or not at all, and a stage whose file exists is not
run again: a killed run goes on where it stopped, with the same result.

The run itself is :func:`pacru.training.run.train`; it needs the ``train``
extra (PyTorch, pyarrow, numpy) and the native extension. This package's face,
the settings, needs neither.
"""

from __future__ import annotations

from pacru.training.settings import CONFIGS, TrainSettings

__all__ = ["CONFIGS", "TrainSettings"]
