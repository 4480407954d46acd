"""``hippodrome turfmaster arena`` and ``hippodrome readysetbet arena`` rate a user's policy
(``--agent module:callable``) against every bot level on the ladder's own scale: the bots' games
are the ladder's (bench/elo.py, hippodrome.arena.elo), one fit, random = 1000. An agent that does
not import, is not there, or answers an illegal action is refused in words, with exit status 2."""

import pytest
from typer.testing import CliRunner

from hippodrome.arena.agent import AGENT, load_agent, rate_agent
from hippodrome.arena.elo import ladder
from hippodrome.cli.main import app

runner = CliRunner()
AGENTS = "tests.research.sample_agents"


def arena(game, *args):
    return runner.invoke(app, [game, "arena", *args])


def test_turfmaster_arena_prints_the_agents_rating_among_the_bot_levels():
    result = arena("turfmaster", "--agent", f"{AGENTS}:first_legal", "--games", "2", "--levels", "random,tactical",
                   "--think", "0.01")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "random = 1000" in lines[0]
    rows = {line.split()[0]: line.split() for line in lines[2:5]}
    assert set(rows) == {"random", "tactical", f"{AGENTS}:first_legal"}
    assert rows["random"][1:] == ["1,000", "(anchor)", "4"]
    agent = rows[f"{AGENTS}:first_legal"]
    elo, low, high = (int(agent[column].replace(",", "")) for column in (1, 2, 4))
    assert agent[3] == "-" and low <= elo <= high and agent[5] == "4"
    assert "against random:" in result.stdout and "against tactical:" in result.stdout


def test_the_bots_games_are_the_ladders_own():
    """The same games as bench/elo.py's (same seeds): the agent is rated on the ladder's scale."""
    ratings, results = rate_agent(load_agent(f"{AGENTS}:first_legal"), "turfmaster", ["random", "tactical"], 2, 0.01)
    bench = ladder({"turfmaster": ["random", "tactical"]}, {"turfmaster": 2}, 0.01, 1, None)["turfmaster"]["results"]
    assert results.score[("random", "tactical")] == bench.score[("random", "tactical")]
    assert results.games[(AGENT, "random")] == results.games[(AGENT, "tactical")] == 2
    assert {rating.level for rating in ratings} == {"random", "tactical", AGENT}
    assert next(rating for rating in ratings if rating.level == "random").elo == 1000


def test_readysetbet_arena_in_german():
    result = arena("readysetbet", "--agent", f"{AGENTS}:first_legal", "--games", "1", "--levels", "random,value",
                   "--lang", "de")
    assert result.exit_code == 0, result.output
    assert "Spieler" in result.stdout and "(Anker)" in result.stdout and "gegen value:" in result.stdout


@pytest.mark.parametrize("game, spec, words", [
    ("turfmaster", "no_such_module_here:agent", "cannot import the module no_such_module_here: ModuleNotFoundError"),
    ("turfmaster", f"{AGENTS}:missing", f"the module {AGENTS} has no missing"),
    ("readysetbet", f"{AGENTS}:NOT_CALLABLE", "is not callable: the agent is a function (observation, action_mask)"),
    ("readysetbet", AGENTS, "--agent must name a module and a callable in it, as module:callable"),
    ("turfmaster", f"{AGENTS}:out_of_range", "the agent chose 371, which is not a legal action now; the legal action ids:"),
    ("readysetbet", f"{AGENTS}:raising", "the agent stopped with an error: RuntimeError: my network is not trained"),
])
def test_an_agent_that_cannot_play_is_refused_in_words_with_exit_status_2(game, spec, words):
    think = ["--think", "0.01"] if game == "turfmaster" else []
    result = arena(game, "--agent", spec, "--games", "1", "--levels", "random", *think)
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "Traceback" not in result.output + result.stderr


def test_the_levels_must_be_known_and_hold_the_anchor():
    result = arena("turfmaster", "--agent", f"{AGENTS}:first_legal", "--levels", "tactical,strong")
    assert result.exit_code == 2 and "unknown bot level 'strong'" in result.stderr
    result = arena("turfmaster", "--agent", f"{AGENTS}:first_legal", "--levels", "tactical", "--games", "1")
    assert result.exit_code == 2 and "the levels must include random" in result.stderr
