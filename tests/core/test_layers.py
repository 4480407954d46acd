"""Arrows point down only (docs/architecture.md): a game package imports only core, i18n and
itself; the server, the table layer, the lobby, the play page and the rules page frame name no game,
nor any game's look-up or setup key."""

import ast
import re
from pathlib import Path

import hippodrome

PACKAGE = Path(hippodrome.__file__).parent
GAME_PACKAGES = ("turfmaster", "readysetbet")
GAME_NAMES = re.compile(r"turfmaster|readysetbet|ready set bet", re.IGNORECASE)


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
    return {m for m in modules if m.startswith("hippodrome")}


def test_game_packages_import_only_core_i18n_and_themselves():
    for package in GAME_PACKAGES:
        allowed = ("hippodrome.core", "hippodrome.i18n", f"hippodrome.{package}")
        for path in (PACKAGE / package).rglob("*.py"):
            wrong = {m for m in imported_modules(path) if not m.startswith(allowed)}
            assert not wrong, f"{path.relative_to(PACKAGE)} imports {sorted(wrong)}"


def test_core_and_i18n_import_no_layer_above():
    for package, allowed in (("core", ("hippodrome.core", "hippodrome.i18n")), ("i18n", ("hippodrome.i18n",))):
        for path in (PACKAGE / package).rglob("*.py"):
            wrong = {m for m in imported_modules(path) if not m.startswith(allowed)}
            assert not wrong, f"{path.relative_to(PACKAGE)} imports {sorted(wrong)}"


def code_without_comments(path: Path) -> str:
    text = path.read_text()
    if path.suffix == ".py":
        text = re.sub(r'""".*?"""', "", text, flags=re.S)
        return "\n".join(line.split("#")[0] for line in text.splitlines())
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def test_the_server_table_lobby_and_play_page_name_no_game():
    places = [*(PACKAGE / "server").glob("*.py"), *(PACKAGE / "table").glob("*.py"), PACKAGE / "cli" / "main.py", PACKAGE / "cli" / "serve.py",
              PACKAGE / "web" / "lobby.js", PACKAGE / "web" / "play.js", PACKAGE / "web" / "games.js",
              PACKAGE / "web" / "rules.js", PACKAGE / "web" / "rules.html", PACKAGE / "web" / "problem.html"]
    for path in places:
        found = GAME_NAMES.findall(code_without_comments(path))
        assert not found, f"{path.relative_to(PACKAGE)} names a game: {found}"


#: the table's own words (its request's seats, an account's players, whether a game has races),
#: which a game's setup may use too
TABLE_WORDS = {"seats", "players", "races"}


def games_own_words() -> dict[str, str]:
    """Every registered game's look-up names and setup keys -> whose they are."""
    from hippodrome.core.registry import descriptions, load_games
    load_games()
    words: dict[str, str] = {}
    for description in descriptions():
        for lookup in description.lookups:
            words[lookup.name] = f"{description.name}'s look-up"
        for key in (*(field.key for field in description.setup), *description.extra_setup_keys,
                    *description.secret_setup_keys):
            words[key] = f"{description.name}'s setup key"
    return {word: whose for word, whose in words.items() if word not in TABLE_WORDS}


def string_literals(path: Path) -> set[str]:
    """The strings a Python module's code or a page script writes (docstrings and comments left out)."""
    if path.suffix == ".js":
        return set(re.findall(r"""["'`]([A-Za-z_][\w-]*)["'`]""", code_without_comments(path)))
    tree = ast.parse(path.read_text())
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, documented) and node.body and isinstance(node.body[0], ast.Expr)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings}


def test_the_server_and_table_name_no_games_look_up_or_setup_key():
    """Issue 32.4: the server learns a game's private look-ups (preview, why, hands) and its setup
    keys (pace, course ...) from the game's description, never by name."""
    words = games_own_words()
    assert {"preview", "why", "hands", "pace", "course", "vip"} <= words.keys()
    places = [*(PACKAGE / "server").rglob("*.py"), *(PACKAGE / "table").rglob("*.py"), PACKAGE / "cli" / "main.py",
              PACKAGE / "cli" / "serve.py", *(PACKAGE / "web" / name for name in ("lobby.js", "play.js", "games.js",
                                                                                  "rules.js"))]
    for path in places:
        named = {word: words[word] for word in string_literals(path) & words.keys()}
        assert not named, f"{path.relative_to(PACKAGE)} names {named}"


RESEARCH_LIBRARIES = ("pettingzoo", "gymnasium", "pyspiel", "open_spiel")
#: the modules of the research layers that may import the research libraries (the rest, such as the
#: encodings, import with the base install)
RESEARCH_ENTRY_MODULES = {"envs/turfmaster_pz.py", "envs/readysetbet_pz.py", "envs/gym_envs.py", "envs/agents.py",
                          "envs/spaces.py", "envs/registration.py", "envs/readysetbet_v0.py"}


def imported_libraries(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
    return modules


def test_the_research_layers_use_the_games_through_core_and_nothing_above_them():
    allowed = ("hippodrome.core", "hippodrome.i18n", "hippodrome.envs",
               *(f"hippodrome.{package}" for package in GAME_PACKAGES))
    for package, more in (("envs", ()), ("openspiel", ("hippodrome.openspiel",))):
        for path in (PACKAGE / package).rglob("*.py"):
            wrong = {m for m in imported_modules(path) if not m.startswith(allowed + more)}
            assert not wrong, f"{path.relative_to(PACKAGE)} imports {sorted(wrong)}"


def test_only_the_research_layers_import_pettingzoo_gymnasium_and_openspiel():
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        used = imported_libraries(path) & set(RESEARCH_LIBRARIES)
        if relative.startswith("openspiel/") or relative in RESEARCH_ENTRY_MODULES:
            continue
        assert not used, f"{relative} imports {sorted(used)}: only the research layers may (the extra is optional)"
