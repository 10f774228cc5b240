"""The network in PyTorch: fitting it to samples and writing it in the extension's format.

The layers are those of the Rust evaluation (``rust/search/src/network.rs``): the
sparse inputs summed into the first hidden layer (:class:`torch.nn.EmbeddingBag`),
the standardised relative features added through a linear layer, ReLU, a second
hidden layer, ReLU, one output: the correction, in logits, that the network adds to
the logistic model's logit of the player's share of the win (the search's weights
for the game and player count). Its output layer starts at zero: an untrained
network is the logistic model.
"""

from __future__ import annotations

import struct
from typing import Final

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from pacru.training.data import Samples

__all__ = ["FEATURES", "MAGIC", "SPARSE_INPUTS", "ValueNet", "fit", "targets", "to_bytes"]

#: The first bytes of a network file (format 1).
MAGIC: Final = b"PACRUNN1"
#: The relative features of the search (``pacru._native.SEARCH_FEATURES``).
FEATURES: Final = 15
#: The sparse inputs of the network (``rust/search/src/network.rs``): markers (4 x 81),
#: chevrons with their facings (4 x 81 x 8), the player to move (4), the game and
#: player count (12). A file of another count is refused by the extension.
SPARSE_INPUTS: Final = 4 * 81 + 4 * 81 * 8 + 4 + 12


class ValueNet(nn.Module):
    """The network: ``sparse`` inputs (ids) and ``features`` float32 (n, 15) -> the
    corrections of the logistic model's logits (n,)."""

    def __init__(
        self,
        sparse_inputs: int,
        hidden: int,
        hidden2: int,
        mean: npt.NDArray[np.float32],
        scale: npt.NDArray[np.float32],
    ) -> None:
        super().__init__()
        self.sparse_inputs = sparse_inputs
        self.sparse = nn.EmbeddingBag(sparse_inputs, hidden, mode="sum")
        self.dense = nn.Linear(FEATURES, hidden)
        self.hidden2 = nn.Linear(hidden, hidden2)
        self.out = nn.Linear(hidden2, 1)
        # Plain tensors, not buffers: fixed by the data, written to the file as they are.
        self.mean = torch.as_tensor(mean, dtype=torch.float32)
        self.scale = torch.as_tensor(scale, dtype=torch.float32)
        nn.init.normal_(self.sparse.weight, std=0.05)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(
        self, ids: torch.Tensor, offsets: torch.Tensor, features: torch.Tensor
    ) -> torch.Tensor:
        x = (features - self.mean) / self.scale
        h1 = torch.relu(self.sparse(ids, offsets) + self.dense(x))
        h2 = torch.relu(self.hidden2(h1))
        logits: torch.Tensor = self.out(h2).squeeze(-1)
        return logits


def _batch(
    active: list[npt.NDArray[np.uint16]], rows: npt.NDArray[np.int64]
) -> tuple[torch.Tensor, torch.Tensor]:
    chosen = [active[i] for i in rows]
    lengths = np.fromiter((len(a) for a in chosen), np.int64, len(chosen))
    offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    ids = np.concatenate(chosen).astype(np.int64)
    return torch.from_numpy(ids), torch.from_numpy(offsets)


_Floats = npt.NDArray[np.float32]
#: Samples: active inputs, features, results, the logistic model's logit of each and
#: the training target of each (float32 (n,) each).
_Set = tuple[list[npt.NDArray[np.uint16]], _Floats, _Floats, _Floats, _Floats]


def targets(results: _Floats, values: _Floats, value_weight: float) -> _Floats:
    """The training targets (float32 (n,), in 0..1): ``value_weight`` times the
    search's value as a chance (the logistic function of ``values``, in logits) plus
    ``1 - value_weight`` times the result, as Stockfish's NNUE blends search scores with
    game results; the result alone where the value is NaN (none was taken)."""
    known = np.isfinite(values)
    # Values of forced wins are about 1,000 logits: clipped, the chance is 0 or 1.
    chance = 1.0 / (1.0 + np.exp(-np.clip(np.where(known, values, 0.0), -50.0, 50.0)))
    blended = value_weight * chance + (1.0 - value_weight) * results
    return np.where(known, blended, results).astype(np.float32)


def _split(
    samples: Samples, weights: npt.NDArray[np.float32], value_weight: float, held: float
) -> tuple[_Set, _Set]:
    """The first and the last ``held`` share of ``samples`` (their last games), each
    with the logits of the logistic model of ``weights`` and the targets."""
    active, features, results, values = samples
    prior = (features @ weights).astype(np.float32)
    target = targets(results, values, value_weight)
    cut = len(results) - max(1, int(len(results) * held))
    first = (active[:cut], features[:cut], results[:cut], prior[:cut], target[:cut])
    return first, (active[cut:], features[cut:], results[cut:], prior[cut:], target[cut:])


def _joined(parts: list[_Set]) -> _Set:
    return (
        [a for part in parts for a in part[0]],
        np.concatenate([part[1] for part in parts]),
        np.concatenate([part[2] for part in parts]),
        np.concatenate([part[3] for part in parts]),
        np.concatenate([part[4] for part in parts]),
    )


def fit(
    samples: list[Samples],
    weights: list[npt.NDArray[np.float32]],
    *,
    sparse_inputs: int,
    hidden: int,
    hidden2: int,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    seed: int,
    value_weight: float = 0.0,
    device: str = "cpu",
) -> tuple[ValueNet, dict[str, float]]:
    """A new network (seeded) fitted to ``samples`` (one set per configuration, its
    games in order, with the search's ``weights`` of that configuration): binary
    cross-entropy of the :func:`targets` (the share of the win blended with the search's
    value by ``value_weight``), Adam; and its figures on the held-out tenth of each set
    (its last games), measured against the results alone.

    Samples of one game are alike, and the board inputs can learn games by heart, so
    the network kept is that of the epoch with the best held-out log-loss (early
    stopping), epoch 0 being the untrained network: the logistic model. Figures:
    ``held_out_log_loss``, ``held_out_accuracy`` (a win called right where the result
    is 0 or 1), ``epoch`` (the one kept), ``logistic_log_loss`` (epoch 0's).
    """
    torch.manual_seed(seed)
    pairs = [
        _split(s, w, value_weight, 0.1)
        for s, w in zip(samples, weights, strict=True)
        if len(s[2]) >= 2
    ]
    train_set, test_set = _joined([p[0] for p in pairs]), _joined([p[1] for p in pairs])
    active, features, results, prior, wanted = train_set
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    net = ValueNet(sparse_inputs, hidden, hidden2, mean, scale).to(device)
    optimiser = torch.optim.Adam(net.parameters(), lr=learning_rate)
    loss_fn = nn.BCEWithLogitsLoss()
    rng = np.random.default_rng(seed)
    feats, target = torch.from_numpy(features), torch.from_numpy(wanted)
    base = torch.from_numpy(prior)
    logistic = _measure(net, test_set, device)["held_out_log_loss"]
    best: tuple[float, dict[str, float], dict[str, torch.Tensor]] | None = None
    for epoch in range(epochs + 1):
        order = rng.permutation(len(results)) if epoch else np.zeros(0, np.int64)
        for begin in range(0, len(order), batch_size):
            rows = order[begin : begin + batch_size]
            ids, offsets = _batch(active, rows)
            correction = net(ids.to(device), offsets.to(device), feats[rows].to(device))
            loss = loss_fn(base[rows].to(device) + correction, target[rows].to(device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        figures = {
            **_measure(net, test_set, device),
            "epoch": float(epoch),
            "logistic_log_loss": logistic,
        }
        if best is None or figures["held_out_log_loss"] < best[0]:
            state = {k: v.detach().clone() for k, v in net.state_dict().items()}
            best = (figures["held_out_log_loss"], figures, state)
    assert best is not None
    net.load_state_dict(best[2])
    return net.cpu(), best[1]


def _measure(net: ValueNet, samples: _Set, device: str) -> dict[str, float]:
    active, features, results, prior, _ = samples
    net.eval()
    with torch.no_grad():
        ids, offsets = _batch(active, np.arange(len(results)))
        correction = net(ids.to(device), offsets.to(device), torch.from_numpy(features).to(device))
        logits = torch.from_numpy(prior) + correction.cpu()
        y = torch.from_numpy(results)
        log_loss = float(nn.functional.binary_cross_entropy_with_logits(logits, y))
        decided = (y == 0) | (y == 1)
        right = ((logits > 0) == (y > 0.5))[decided]
        accuracy = float(right.float().mean()) if len(right) else float("nan")
    net.train()
    return {"held_out_log_loss": log_loss, "held_out_accuracy": accuracy}


def to_bytes(net: ValueNet) -> bytes:
    """``net`` in the extension's format (``pacru._native.Network.from_bytes``): the
    magic, the input counts and layer sizes as little-endian uint32, then float32: the
    features' means and scales, the sparse columns, the dense columns, the first
    biases, the second layer by rows, its biases, the output weights and bias."""
    hidden = net.dense.out_features
    hidden2 = net.hidden2.out_features

    def floats(t: torch.Tensor) -> bytes:
        return t.detach().cpu().to(torch.float32).contiguous().numpy().astype("<f4").tobytes()

    header = MAGIC + struct.pack("<4I", net.sparse_inputs, FEATURES, hidden, hidden2)
    parts = [
        net.mean,
        net.scale,
        net.sparse.weight,  # (sparse_inputs, hidden): a column per input
        net.dense.weight.T,  # (15, hidden): a column per feature
        net.dense.bias,
        net.hidden2.weight,  # (hidden2, hidden): by rows
        net.hidden2.bias,
        net.out.weight[0],
        net.out.bias,
    ]
    return header + b"".join(floats(p) for p in parts)
