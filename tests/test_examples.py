"""Every script in examples/ runs and prints what it promises."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pacru.chevron.engine import ENGINE

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
#: The whole standard output of each example, in tests/data/examples/NAME.txt.
EXPECTED = ROOT / "tests" / "data" / "examples"
#: The pure engine's output where it differs: the training example's "random" and "greedy"
#: opponents are the native batched bots on the native engine and Python bots (their own random
#: streams) on the pure one.
ENGINE_SUFFIX = ".python-engine.txt"


def expected_output(name: str) -> str:
    """The whole output examples/NAME prints on the engine in use."""
    engine_file = EXPECTED / f"{name}{ENGINE_SUFFIX}"
    if ENGINE == "python" and engine_file.exists():
        return engine_file.read_text(encoding="utf-8")
    return (EXPECTED / f"{name}.txt").read_text(encoding="utf-8")


#: Lines (or parts of lines) each example must print.
KEY_OUTPUT = {
    "play_random_game.py": [
        "shacru for 2: green, yellow",
        "scores: green ",
        "result: ",
        "moves: ",
    ],
    "check_rule_edge_case.py": [
        "legal moves: f5-g6, f5-g6<, f5-g6>",
        "f5-f6: illegal, rule S-R5 (occupied): f6 holds yellow's chevron",
        "f5-e6: illegal, rule S-R5 (opponent-field): e6 belongs to yellow",
        "f5-g6<: the red chevron ends on g6 facing N",
        "f5-g6>: the red chevron ends on g6 facing E",
    ],
    "custom_bot.py": [
        "corner-shy vs random: 9 won, 1 shared, 0 lost of 10",
        "corner-shy vs greedy: 0 won, 0 shared, 10 lost of 10",
    ],
    "batched_network.py": [
        "one search: 64 iterations in 5 calls",
        "best move e1-f2, root value +0.104",
        "tiny-net vs random: green wins (S-R6a, L7: no player can move) after 63 plies",
        "network: 190 calls, 9.6 positions per call",
    ],
    "run_match.py": [
        "mcts:iterations=60: 3 won, 0 shared, 0 drawn, 1 lost of 4; win rate 75%",
        "greedy: 1 won, 0 shared, 0 drawn, 3 lost of 4; win rate 25%",
    ],
    "openspiel_selfplay.py": [
        "pacru_lilacru, 2 players: 106 decisions, 64 moves",
        "result: yellow wins; returns [-1.0, 1.0]",
        "training examples: 106, observation size 4131, policies sum to 1.0, values [-1.0, 1.0]",
    ],
    "pettingzoo_random_play.py": [
        "lilacru for 2: 147 steps, yellow wins; player_0 -1, player_1 +1",
        "azacru for 2: 132 steps, green, yellow share the win; player_0 +0, player_1 +0",
        "lsd for 3: 79 steps, red wins; player_0 +1, player_1 -1, player_2 -1",
    ],
    "gymnasium_episode.py": [
        "pacru/Lilacru-v0: random learner vs greedy, returns [-1.0, -1.0, -1.0]",
        "pacru/Pacru-v0: random learner vs greedy, returns [-1.0, -1.0, -1.0]",
        "pacru/LSD-v0: random learner vs greedy, returns [0.0, -1.0, -1.0]",
    ],
    "export_svg.py": [
        "pincer-before.svg (",
        "pincer-after.svg (",
        "lsd.svg (",
        "after the pincer: red marker on e7, red marker on f8, chevron red SW",
    ],
    "train_maskable_ppo.py": [
        "the search bot's decisions: 600, seed 1",
        "PPO on 1024 decisions, 8 games at once",
        "model saved: maskable_ppo_pacru.zip",
        " lost of 10\nagainst greedy: ",
        "learning curve: learning_curve.svg",
    ],
}

#: Examples that write files get a temporary folder as their argument.
WRITES_FILES = {"export_svg.py", "train_maskable_ppo.py"}

#: Files the examples that write must leave in their folder (beyond their printed names).
FILES_WRITTEN = {"train_maskable_ppo.py": ["maskable_ppo_pacru.zip", "learning_curve.svg"]}


def test_every_example_has_expected_output() -> None:
    assert sorted(KEY_OUTPUT) == [p.name for p in EXAMPLES]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(path: Path, tmp_path: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    env["PACRU_EXAMPLE_QUICK"] = "1"  # the training example's few-second run
    proc = subprocess.run(
        [sys.executable, str(path), *([str(tmp_path)] if path.name in WRITES_FILES else [])],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        # A safety net against a hang, not a timing check: torch's import and training are slow
        # on a loaded machine.
        timeout=600 if path.name == "train_maskable_ppo.py" else 120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    for expected in KEY_OUTPUT[path.name]:
        assert expected in proc.stdout
    for name in FILES_WRITTEN.get(path.name, []):
        assert (tmp_path / name).stat().st_size > 0
    if path.name == "train_maskable_ppo.py":
        curve = (tmp_path / "learning_curve.svg").read_text()
        assert "<svg" in curve
        assert "training games won" in curve
        # The agent loads with nothing else: no bot, no custom policy class (issue 42).
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy

        agent = MaskablePPO.load(tmp_path / "maskable_ppo_pacru.zip")
        assert type(agent.policy) is MaskableMultiInputActorCriticPolicy
    # The whole output, as the docs gallery shows it: no line of it goes unchecked.
    shown = proc.stdout.replace(str(tmp_path), "OUTPUT_DIR")
    assert shown == expected_output(path.name)


def test_every_example_has_its_whole_output() -> None:
    """tests/data/examples/NAME.txt holds the exact output of examples/NAME (write it with
    ``python examples/NAME > tests/data/examples/NAME.txt``; OUTPUT_DIR for a folder argument)."""
    plain = sorted(p.name for p in EXPECTED.glob("*.txt") if not p.name.endswith(ENGINE_SUFFIX))
    assert plain == [f"{p.name}.txt" for p in EXAMPLES]
