"""NetworkBot (``"network"``): the native search with a network evaluation, and its file."""

from __future__ import annotations

import random
import struct
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
import torch

import pacru
from pacru import _native
from pacru.bots import BOTS, NetworkBot, SearchBot, make_bot, play_game
from pacru.bots import network as network_module
from pacru.bots.network import NETWORK_FILE, SHIPPED_NETWORKS, load_network, network_file
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
    state = _midgame(game, players)
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


#: The games with a shipped network of their own, and its file (the rest: NETWORK_FILE).
SHIPPED: dict[tuple[str, int], str] = {
    ("shacru", 2): "network-shacru-2.bin",
    ("lilacru", 2): "network-values.bin",
    ("azacru", 2): "network-azacru-2.bin",
    ("pacru", 2): "network-pacru-2.bin",
}

CONFIGS = [(game, 2) for game in ("lilacru", "shacru", "azacru", "pacru")] + [
    ("pacru", 3),
    ("pacru", 4),
]


def _midgame(game: str, players: int) -> ChevronState:
    state = pacru.new_game(game, players=players)
    assert isinstance(state, ChevronState)
    rng = random.Random(2)
    for _ in range(12):
        state = state.apply_move(rng.choice(state.legal_moves()))
    return state


def test_the_shipped_network_files_are_the_tables() -> None:
    """Package data holds network.bin and the per-game files of SHIPPED, no other network,
    each well under a megabyte (the wheel stays small)."""
    data = resources.files("pacru.bots").joinpath("data")
    files = {f.name: f for f in data.iterdir() if f.name.startswith("network")}
    assert set(files) == {NETWORK_FILE, *SHIPPED.values()}
    for name, file in files.items():
        assert len(file.read_bytes()) < 1_000_000, name


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_without_network_each_game_plays_its_shipped_file(game: str, players: int) -> None:
    """Without ``network=``, the bot plays each game as with ``network=`` its shipped file:
    the same move and the same search value, nodes and depth."""
    name = network_file(game, players)
    assert name == SHIPPED.get((game, players), NETWORK_FILE)
    data = resources.files("pacru.bots").joinpath("data", name).read_bytes()
    state = _midgame(game, players)
    default = NetworkBot(seed=9, nodes=1500)
    given = NetworkBot(seed=9, nodes=1500, network=data)
    assert default.choose_move(state) == given.choose_move(state)
    assert default.last_search == given.last_search


@pytest.fixture
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package data folder of the shipped network.bin alone, in ``tmp_path``, and an
    empty table of the games' own files."""
    shipped = resources.files("pacru.bots").joinpath("data", NETWORK_FILE).read_bytes()
    (tmp_path / NETWORK_FILE).write_bytes(shipped)
    monkeypatch.setattr(network_module, "_data", lambda name: tmp_path / name)
    monkeypatch.setattr(network_module, "SHIPPED_NETWORKS", {})
    network_module._read_shipped.cache_clear()
    yield tmp_path
    network_module._read_shipped.cache_clear()


def test_the_table_names_each_games_file(
    data_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games of SHIPPED_NETWORKS play their file (one file may serve several games),
    the others network.bin, chosen per state by one bot; ``network=`` overrides them
    (``network=`` network.bin values a game with a file of its own otherwise)."""
    shared, pacru3 = to_bytes(_random_net(seed=3)), to_bytes(_random_net(seed=4))
    (data_folder / "network-shared.bin").write_bytes(shared)
    (data_folder / "network-pacru-3.bin").write_bytes(pacru3)
    # A file the table does not name serves no game.
    (data_folder / "network-lilacru-2.bin").write_bytes(pacru3)
    table = {
        ("shacru", 2): "network-shared.bin",
        ("shacru", 3): "network-shared.bin",
        ("pacru", 2): "network-shared.bin",
        ("pacru", 3): "network-pacru-3.bin",
    }
    monkeypatch.setattr(network_module, "SHIPPED_NETWORKS", table)
    expected = {
        ("shacru", 2): shared,
        ("shacru", 3): shared,
        ("pacru", 3): pacru3,
        ("pacru", 2): shared,
        ("lilacru", 2): (data_folder / NETWORK_FILE).read_bytes(),
    }
    names = {k: network_file(*k) for k in expected}
    assert names == {**table, ("lilacru", 2): NETWORK_FILE}
    # One bot plays the states in turn; each bot given a file plays the states before
    # too (the seed's noise is drawn move after move), then the same move with the same
    # search figures where the file is the state's.
    states = [_midgame(game, players) for game, players in expected]
    bot = NetworkBot(seed=9, nodes=1500)
    moves = [(bot.choose_move(state), bot.last_search) for state in states]
    default = (data_folder / NETWORK_FILE).read_bytes()
    for k, data in enumerate(expected.values()):
        given = NetworkBot(seed=9, nodes=1500, network=data)
        for before in states[:k]:
            given.choose_move(before)
        assert moves[k] == (given.choose_move(states[k]), given.last_search)
        shipped = NetworkBot(seed=9, nodes=1500, network=data_folder / NETWORK_FILE)
        for before in states[:k]:
            shipped.choose_move(before)
        shipped.choose_move(states[k])
        # The file is used: network.bin values the position otherwise.
        assert (moves[k][1] == shipped.last_search) is (data == default)


def test_the_shipped_table_is_the_tests() -> None:
    assert dict(SHIPPED_NETWORKS) == SHIPPED
    with pytest.raises(TypeError):
        SHIPPED_NETWORKS[("pacru", 2)] = NETWORK_FILE  # type: ignore[index]


@pytest.mark.parametrize(
    ("game", "players", "error", "message"),
    [
        ("lsd", 2, ValueError, "a chevron game"),
        ("Pacru", 2, ValueError, "not 'Pacru' with 2"),
        ("pacru", 1, ValueError, "2 to 4 players"),
        ("pacru", 5, ValueError, "not 'pacru' with 5"),
        ("pacru", 2.0, TypeError, "integer"),
    ],
)
def test_network_file_refuses_what_no_network_serves(
    game: str, players: int, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        network_file(game, players)


def test_network_file_takes_any_index_integer() -> None:
    assert network_file("pacru", np.int64(2)) == network_file("pacru", 2)  # type: ignore[arg-type]
