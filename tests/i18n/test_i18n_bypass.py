"""Issue 6: no user-facing string bypasses the catalogs.

An AST scan of the modules in CHECKED_MODULES flags English text handed to a person without going
through the catalogs: string literals and f-strings given to print / console.print / typer.echo /
secho / rule, to an exception made in the code (``raise InvalidSetup("...")``, any ``...Error(...)``,
``IllegalAction``, ``BadParameter``, ``HTTPException``), to a ``help=`` argument, and the docstrings
that Typer shows as a command's help. Text inside _() / N_() / Message() / Plural() / translate() /
help_text() is fine, as is a string without letters ("", ", ", "\\n").

A line ending in a comment ``# i18n: <reason>`` is exempt (a developer tool's output, a programming
error no player can cause). Every module under src/hippodrome is checked.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src" / "hippodrome"

#: Modules (globs relative to src/hippodrome) whose user-facing text must go through the catalogs:
#: every one of them.
CHECKED_MODULES = ["**/*.py"]

OUTPUT_FUNCTIONS = {"print", "echo", "secho", "rule", "prompt", "confirm"}
ERROR_NAMES = {"IllegalAction", "InvalidSetup", "BadParameter", "UsageError", "HTTPException", "WebSocketException"}
WRAPPERS = {"_", "N_", "Message", "Plural", "translate", "translate_plural", "help_text"}
TEXT_KEYWORDS = {"detail", "message", "reason", "text"}
EXEMPT = re.compile(r"#\s*i18n:\s*\S")
LETTER = re.compile(r"[^\W\d_]")


def call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def bare_text(node: ast.AST) -> bool:
    """Whether an expression contains literal words that no catalog wrapper encloses."""
    if isinstance(node, ast.Call) and call_name(node) in WRAPPERS:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(LETTER.search(node.value))
    return any(bare_text(child) for child in ast.iter_child_nodes(node))


def is_error(name: str | None) -> bool:
    return name is not None and (name.endswith("Error") or name in ERROR_NAMES)


def is_command_decorator(decorator: ast.expr) -> bool:
    return (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr in ("command", "callback")
            and not any(keyword.arg == "help" for keyword in decorator.keywords))


def bypasses(source: str, filename: str = "<source>") -> list[str]:
    """Every place in ``source`` where text reaches a person without the catalogs."""
    lines = source.splitlines()
    found = []

    def report(node: ast.AST, what: str) -> None:
        line = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
        end_line = lines[node.end_lineno - 1] if node.end_lineno and node.end_lineno <= len(lines) else ""
        if not (EXEMPT.search(line) or EXEMPT.search(end_line)):
            found.append(f"{filename}:{node.lineno}: {what}: {line.strip()}")

    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call):
            name = call_name(node)
            if name in OUTPUT_FUNCTIONS or is_error(name):
                texts = node.args + [keyword.value for keyword in node.keywords if keyword.arg in TEXT_KEYWORDS]
                if any(bare_text(text) for text in texts):
                    report(node, f"text given to {name}()")
            if any(keyword.arg == "help" and bare_text(keyword.value) for keyword in node.keywords):
                report(node, "help text")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(is_command_decorator(decorator) for decorator in node.decorator_list) and ast.get_docstring(node):
                report(node.body[0], "command docstring shown as help")
    return found


def checked_files() -> list[Path]:
    return sorted({path for pattern in CHECKED_MODULES for path in SOURCE.glob(pattern)})


@pytest.mark.parametrize("pattern", CHECKED_MODULES)
def test_every_checked_pattern_names_modules(pattern):
    assert list(SOURCE.glob(pattern)), f"{pattern} matches no module under {SOURCE}"


def test_checked_modules_send_every_word_through_the_catalogs():
    problems = []
    for path in checked_files():
        problems += bypasses(path.read_text(), str(path.relative_to(SOURCE.parent.parent)))
    assert not problems, "user-facing text outside the catalogs (wrap it in _(), see docs/i18n.md):\n" + "\n".join(problems)


# --- the scanner itself ----------------------------------------------------------------------

@pytest.mark.parametrize("source", [
    'print("Your move")',
    'print(f"error: {error}")',
    'console.print("[bold]They\'re off![/bold]")',
    'typer.echo("warning: " + text, err=True)',
    'typer.secho("%s wins" % horse)',
    'raise InvalidSetup(f"no horse {horse!r} in the position")',
    'raise IllegalAction("no more bets", allowed=options)',
    'raise ValueError("must be positive")',
    'error = HTTPException(404, detail="no such room")',
    'option = typer.Option(None, "--seed", help="the seed of the game")',
    '@app.command()\ndef play():\n    """Play a race against bots."""',
    'print("Hola {}".format(name))',
])
def test_scanner_flags_text_outside_the_catalogs(source):
    assert len(bypasses(source)) == 1


@pytest.mark.parametrize("source", [
    'print(json.dumps(result))',
    'print(_("Your move").translate(lang))',
    'console.print(Message("{horse} falls at the fence", horse=name).translate(lang))',
    'typer.echo(translate(lang, "warning: {text}", text=text), err=True)',
    'raise InvalidSetup(Message("no horse {horse} in the position", horse=horse))',
    'raise IllegalAction(Message("No more bets!"), allowed=options)',
    'print("")',
    'print(", ".join(names))',
    'print(f"{a} {b}")',
    'option = typer.Option(None, "--seed", help=help_text("the seed of the game"))',
    '@app.command(help=help_text("Play a race"))\ndef play():\n    """Play a race against bots."""',
    'raise ValueError(f"no catalog for {lang!r}")  # i18n: programming error',
    'log.debug("not for players")',
])
def test_scanner_lets_catalog_text_through(source):
    assert bypasses(source) == []
