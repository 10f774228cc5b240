"""NetworkBot (``"network"``): the native search with a network evaluation, and its file."""

from __future__ import annotations

import random
import struct

import numpy as np
import pytest
import torch

import pacru
from pacru import _native
from pacru.bots import BOTS, NetworkBot, SearchBot, make_bot, play_game
from pacru.bots.network import NETWORK_FILE, load_network
from pacru.bots.search import position_fields
from pacru.chevron.state import ChevronState
from pacru.training.model import FEATURES, MAGIC, SPARSE_INPUTS, ValueNet, to_bytes


def _random_net(hidden: int = 8, hidden2: int = 4, seed: int = 0) -> ValueNet:
    torch.manual_seed(seed)
    mean = np.linspace(-1, 1, FEATURES, dtype=np.float32)
    scale = np.linspace(0.5, 3, FEATURES, dtype=np.float32)
    net = ValueNet(SPARSE_INPUTS, hidden, hidden2, mean, scale)
    for p in net.parameters():
        torch.nn.init.normal_(p, std=0.3)
    return net


def _positions() -> list[ChevronState]:
    rng = random.Random(5)
    out = []
    for game, players in (("pacru", 2), ("pacru", 4), ("shacru", 2), ("lilacru", 3), ("azacru", 2)):
        state = pacru.new_game(game, players=players)
        assert isinstance(state, ChevronState)
        for _ in range(25):
            if state.is_terminal:
                break
            out.append(state)
            state = state.apply_move(rng.choice(state.legal_moves()))
    return out


def test_the_sparse_input_count_is_the_extensions() -> None:
    assert _native.NETWORK_SPARSE_INPUTS == SPARSE_INPUTS == 2932


def test_the_rust_network_computes_what_pytorch_computes() -> None:
    """The file written from a PyTorch network evaluates in Rust as PyTorch evaluates it,
    at every seat of positions of every game (the inputs taken from the extension), added
    to the logistic model's logit of the weights given."""
    net = _random_net()
    weights = [0.1 * (k - 7) for k in range(FEATURES)]
    native = load_network(to_bytes(net))
    assert (native.hidden, native.hidden2) == (8, 4)
    checked = 0
    for state in _positions():
        fields = position_fields(state)
        for seat in range(len(state.players)):
            active, features = _native.network_inputs(fields, seat)
            with torch.no_grad():
                expected = float(
                    net(
                        torch.tensor(active, dtype=torch.int64),
                        torch.tensor([0]),
                        torch.tensor([features]),
                    )[0]
                )
            expected += sum(w * x for w, x in zip(weights, features, strict=True))
            value = native.evaluate(fields, seat, weights)
            assert value == pytest.approx(expected, rel=1e-5, abs=1e-5)
            checked += 1
    assert checked > 200


def test_inputs_are_the_board_seen_from_the_seat() -> None:
    """Two-player Pacru start: seat 0's own chevrons are seat 1's opponent's; the player to
    move and the game are inputs too."""
    state = pacru.new_game("pacru", players=2)
    fields = position_fields(state)
    mine, _ = _native.network_inputs(fields, 0)
    theirs, _ = _native.network_inputs(fields, 1)
    markers = 4 * 81
    own = sorted(markers + (f * 8 + d) for f, d in (divmod(c, 8) for c in state.chevrons[0]))
    other = sorted(
        markers + ((81 + f) * 8 + d) for f, d in (divmod(c, 8) for c in state.chevrons[1])
    )
    to_move, game = markers + 4 * 81 * 8, markers + 4 * 81 * 8 + 4
    assert mine == sorted([*own, *other, to_move + 0, game + 3 * 3 + 0])
    swapped_own = sorted(
        markers + (f * 8 + d) for f, d in (divmod(c, 8) for c in state.chevrons[1])
    )
    swapped_other = sorted(
        markers + ((81 + f) * 8 + d) for f, d in (divmod(c, 8) for c in state.chevrons[0])
    )
    assert theirs == sorted([*swapped_own, *swapped_other, to_move + 1, game + 9])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "size does not match"),
        (b"NOTANNET" + bytes(16), "must start with PACRUNN1"),
        (MAGIC + struct.pack("<4I", 7, FEATURES, 4, 2), "inputs are not this version's"),
        (MAGIC + struct.pack("<4I", SPARSE_INPUTS, FEATURES, 0, 2), "0 or more than 1024"),
        (MAGIC + struct.pack("<4I", SPARSE_INPUTS, FEATURES, 4, 2) + bytes(8), "size does not"),
    ],
)
def test_bytes_that_are_no_network_are_refused_with_the_reason(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_network(data)
    with pytest.raises(ValueError, match=message):
        NetworkBot(seed=1, network=data)


def test_a_weight_that_is_not_finite_is_refused() -> None:
    data = bytearray(to_bytes(_random_net()))
    data[-4:] = struct.pack("<f", float("inf"))
    with pytest.raises(ValueError, match="not finite"):
        load_network(bytes(data))


def test_the_shipped_network_loads_and_the_bot_is_registered() -> None:
    from importlib import resources

    data = resources.files("pacru.bots").joinpath("data", NETWORK_FILE).read_bytes()
    assert data.startswith(MAGIC)
    assert load_network().hidden == load_network(data).hidden
    assert BOTS["network"] is NetworkBot
    bot = make_bot("network:nodes=300", seed=4)
    assert isinstance(bot, NetworkBot)
    assert isinstance(bot, SearchBot)
    assert (bot.name, bot.nodes) == ("network(nodes=300)", 300)


@pytest.mark.parametrize(("game", "players"), [("pacru", 2), ("shacru", 2), ("pacru", 3)])
def test_the_bot_plays_legal_moves_and_repeats_itself_for_a_seed(game: str, players: int) -> None:
    state = pacru.new_game(game, players=players)
    assert isinstance(state, ChevronState)
    rng = random.Random(2)
    for _ in range(12):
        state = state.apply_move(rng.choice(state.legal_moves()))
    first = NetworkBot(seed=9, nodes=400).choose_move(state)
    assert state.is_legal(first)
    assert NetworkBot(seed=9, nodes=400).choose_move(state) == first


def test_a_network_changes_the_search_and_a_game_ends_by_a_rule(tmp_path: object) -> None:
    """Another network gives the search other values (the file is used), and a whole game
    between the network bot and the search bot ends by a rule."""
    state = pacru.new_game("pacru", players=2)
    shipped = NetworkBot(seed=1, nodes=2000)
    other = NetworkBot(seed=1, nodes=2000, network=to_bytes(_random_net(seed=3)))
    shipped.choose_move(state)
    other.choose_move(state)
    assert shipped.last_search[0] != other.last_search[0]
    bots = [NetworkBot(seed=1, nodes=200), SearchBot(seed=2, nodes=200)]
    final = play_game(pacru.new_game("shacru", players=2), bots)
    assert final.is_terminal
    assert final.outcome is not None
