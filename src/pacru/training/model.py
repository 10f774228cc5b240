"""The network in PyTorch: fitting it to samples and writing it in the extension's format.

The layers are those of the Rust evaluation (``rust/search/src/network.rs``): the
sparse inputs summed into the first hidden layer (:class:`torch.nn.EmbeddingBag`),
the standardised relative features added through a linear layer, ReLU, a second
hidden layer, ReLU, one output: a logit of the player's share of the win.
"""

from __future__ import annotations

import struct
from typing import Final

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from pacru.training.data import Samples

__all__ = ["FEATURES", "MAGIC", "SPARSE_INPUTS", "ValueNet", "fit", "to_bytes"]

#: The first bytes of a network file (format 1).
MAGIC: Final = b"PACRUNN1"
#: The relative features of the search (``pacru._native.SEARCH_FEATURES``).
FEATURES: Final = 15
#: The sparse inputs of the network (``rust/search/src/network.rs``): markers (4 x 81),
#: chevrons with their facings (4 x 81 x 8), the player to move (4), the game and
#: player count (12). A file of another count is refused by the extension.
SPARSE_INPUTS: Final = 4 * 81 + 4 * 81 * 8 + 4 + 12


class ValueNet(nn.Module):
    """The network: ``sparse`` inputs (ids) and ``features`` float32 (n, 15) -> logits (n,)."""

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


def fit(
    samples: Samples,
    *,
    sparse_inputs: int,
    hidden: int,
    hidden2: int,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    seed: int,
    device: str = "cpu",
    start: ValueNet | None = None,
) -> tuple[ValueNet, dict[str, float]]:
    """The network fitted to ``samples`` (binary cross-entropy of the share of the win,
    Adam), from ``start`` or a new seeded one; and its figures on the held-out tenth
    (the last samples): ``held_out_log_loss`` and ``held_out_accuracy`` (a win called
    right where the result is 0 or 1)."""
    active, features, results = samples
    torch.manual_seed(seed)
    n = len(results)
    held = max(1, n // 10)
    train_rows, test_rows = np.arange(n - held), np.arange(n - held, n)
    mean = features[: n - held].mean(axis=0)
    scale = features[: n - held].std(axis=0) + 1e-3
    net = start or ValueNet(sparse_inputs, hidden, hidden2, mean, scale)
    net.to(device)
    optimiser = torch.optim.Adam(net.parameters(), lr=learning_rate)
    loss_fn = nn.BCEWithLogitsLoss()
    rng = np.random.default_rng(seed)
    feats = torch.from_numpy(features)
    target = torch.from_numpy(results)
    for _ in range(epochs):
        order = rng.permutation(train_rows)
        for begin in range(0, len(order), batch_size):
            rows = order[begin : begin + batch_size]
            ids, offsets = _batch(active, rows)
            logits = net(ids.to(device), offsets.to(device), feats[rows].to(device))
            loss = loss_fn(logits, target[rows].to(device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    net.eval()
    with torch.no_grad():
        ids, offsets = _batch(active, test_rows)
        logits = net(ids.to(device), offsets.to(device), feats[test_rows].to(device)).cpu()
        y = target[test_rows]
        log_loss = float(loss_fn(logits, y))
        decided = (y == 0) | (y == 1)
        right = ((logits > 0) == (y > 0.5))[decided]
        accuracy = float(right.float().mean()) if len(right) else float("nan")
    net.train()
    return net.cpu(), {"held_out_log_loss": log_loss, "held_out_accuracy": accuracy}


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
