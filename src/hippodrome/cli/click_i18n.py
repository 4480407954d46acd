"""The frame that Typer draws around our texts ("Usage:", "Options", "[default: 4]", usage errors)
in the user's language, from our catalogs.

Typer (0.29) draws help screens and usage errors with a copy of Click (``typer._click``) and Rich.
Its words come from three places, and each gets its own hook:

1. ``typer.core`` and ``typer.rich_utils`` call ``gettext`` (``from gettext import gettext as _``):
   that ``_`` (and an ``ngettext``, in any Click or Typer module that binds one) is replaced by a
   lookup in our catalogs, and the rich_utils constants, computed with ``_`` when the module was
   imported, are looked up again. These msgids are Typer's own text, placeholders included
   (``"[default: {}]"``): Typer fills them in itself.
2. ``typer._click`` builds its usage errors with f-strings, and Typer's values are checked by
   pydantic, whose messages are English: the finished message is matched against
   ``ERROR_TEMPLATES`` (``"No such option: {name}"``) and the translation filled with the pieces
   found (each piece is translated in turn: ``{message}`` may be another of them).
3. The "Usage:" prefix and the ``--help`` option's help are literals in ``typer._click``: the
   usage line's formatter gets our prefix, and the help option our text, where Typer makes them.

The language is ``help_language()``: a ``--lang`` on the command line, else HIPPODROME_LANG, else
the locale variables, as for our own help texts. ``install()`` runs once, before the app runs
(hippodrome.cli.main). Every hook checks that what it changes still exists and still says the
English text we expect; when a later Typer moves or rewords something, that part stays English.
tests/cli/test_click_i18n.py pins the installed versions' strings.
"""

from __future__ import annotations

import functools
import gettext
import importlib
import inspect
import re
import string
import sys
from types import ModuleType
from typing import Any, Callable

from hippodrome.i18n.catalogs import N_, help_language, load_catalog, placeholders, resolve_language, translate

#: Text Typer gives to gettext (typer/core.py, typer/rich_utils.py), exactly as Typer writes it.
GETTEXT_MESSAGES: tuple[str, ...] = (
    # NOTE: the title of the box that lists a command's arguments in its --help
    N_("Arguments"),
    # NOTE: the title of the box that lists a command's options in its --help
    N_("Options"),
    # NOTE: the title of the box that lists a command's sub-commands in its --help
    N_("Commands"),
    # NOTE: the title of the box around a usage error (a wrong option, a missing value)
    N_("Error"),
    # NOTE: after an option's help in --help; {} is the default value. Keep the square brackets.
    N_("[default: {}]"),
    # NOTE: after an option's help in --help; {} is the environment variable that can set it. Keep the square brackets.
    N_("[env var: {}]"),
    # NOTE: after an option's help in --help: the option must be given. Keep the square brackets.
    N_("[required]"),
    # NOTE: under a usage error. [blue] and [/] colour the command: keep them, around the command.
    N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    # NOTE: the command line's input ended (Ctrl-D) while a command was waiting for an answer
    N_("Aborted."),
    # NOTE: the same as "Aborted." in the plain terminal display (TYPER_USE_RICH=0)
    N_("Aborted!"),
    # NOTE: a group of commands was called without naming one of its commands
    N_("Missing command."),
    # NOTE: {name!r} is the unknown command as typed, in quotes: 'pla'
    N_("No such command {name!r}."),
    # NOTE: plain terminal display (TYPER_USE_RICH=0) of an option's help: "[default: 4]"
    N_("default: {default}"),
    # NOTE: plain terminal display (TYPER_USE_RICH=0) of an option's help: "[env var: HIPPODROME_LANG]"
    N_("env var: {var}"),
    # NOTE: plain terminal display (TYPER_USE_RICH=0) of an option's help: the option must be given
    N_("required"),
)

#: Typer's rich_utils constants: name -> the msgid Typer computed it from.
RICH_CONSTANTS: dict[str, str] = {
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
    "DEFAULT_STRING": "[default: {}]",
    "ENVVAR_STRING": "[env var: {}]",
    "REQUIRED_LONG_STRING": "[required]",
    "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
    "ABORTED_TEXT": "Aborted.",
}

# NOTE: starts the line that shows how to call a command: "Usage: hippodrome turfmaster play [OPTIONS]"
USAGE = N_("Usage:")
# NOTE: the help of the --help option
HELP_OPTION_HELP = N_("Show this message and exit.")

#: Usage errors as the finished English message reads; the {pieces} are taken from it.
ERROR_TEMPLATES: tuple[str, ...] = (
    # NOTE: {name} is the option as typed: --foo
    N_("No such option: {name}"),
    # NOTE: {message} is a sentence like "No such option: --pla"; {possibilities} are options of the command
    N_("{message} (Possible options: {possibilities})"),
    # NOTE: {message} is "No such command 'pla'" (without its full stop); {suggestions} are commands: 'play', 'replay'
    N_("{message}. Did you mean {suggestions}?"),
    # NOTE: {param_hint} is the option in quotes: '--players'; {message} says what is wrong with the value
    N_("Invalid value for {param_hint}: {message}"),
    # NOTE: {message} says what is wrong with the value
    N_("Invalid value: {message}"),
    # NOTE: an option that an environment variable can also set, in an error: '--lang' (env var: 'HIPPODROME_LANG')
    N_("{param_hint} (env var: {var})"),
    # NOTE: {param_hint} is the option in quotes: '--positions'
    N_("Missing option {param_hint}."),
    # NOTE: {param_hint} is the argument's name in quotes: 'POSITION.json'
    N_("Missing argument {param_hint}."),
    # NOTE: {name} is the option in quotes: '--players'
    N_("Option {name} requires an argument."),
    # NOTE: {name} is an on/off option in quotes, given a value as in --flat=1: '--flat'
    N_("Option {name} does not take a value."),
    # NOTE: {args} are the words on the command line that the command does not take: "a b"
    N_("Got unexpected extra argument(s) ({args})"),
    # NOTE: a number option was given something else (--players x)
    N_("Input should be a valid integer, unable to parse string as an integer"),
    # NOTE: a decimal number option was given something else (--pace x)
    N_("Input should be a valid number, unable to parse string as a number"),
)

#: Modules whose ``_``/``ngettext`` may be gettext's: Typer's, and Click's should Typer use it again.
GETTEXT_MODULE_PREFIXES = ("typer", "click")
_MARK = "_hippodrome_i18n"


class _State:
    lang = "en"
    english_constants: dict[str, str] = {}


def current_language() -> str:
    return _State.lang


# -- lookups -------------------------------------------------------------------------------------

def _same_fields(translation: str, msgid: str) -> bool:
    try:
        return placeholders(translation) == placeholders(msgid)
    except ValueError:
        return False


def gettext_lookup(msgid: str) -> str:
    """Typer's ``_``: the raw translation (Typer fills the placeholders); a translation with other
    placeholders than the msgid's is not used."""
    translation = load_catalog(_State.lang).singular.get(msgid, msgid)
    return translation if _same_fields(translation, msgid) else msgid


def ngettext_lookup(singular: str, plural: str, n: int) -> str:
    """Click's ``ngettext``: the raw plural form for ``n``."""
    catalog = load_catalog(_State.lang)
    forms = catalog.plural.get(singular)
    english = singular if n == 1 else plural
    if not forms:
        return english
    form = forms[min(catalog.plural_index(n), len(forms) - 1)]
    return form if _same_fields(form, english) else english


#: A piece of a message: as short as possible, its brackets balanced (so in "Invalid value for
#: '--lang' (env var: 'X'): ..." the option ends after "(env var: 'X')", not at the first colon).
_PIECE = r"(?:[^()]|\([^()]*\))+?"


def _pattern(template: str) -> re.Pattern[str]:
    parts = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?P<{name}>{_PIECE})")
    return re.compile("".join(parts), re.DOTALL)


def _literal_length(template: str) -> int:
    return sum(len(literal) for literal, *_ in string.Formatter().parse(template))


#: The most specific templates (the most fixed text) are tried first.
_ERROR_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (template, _pattern(template)) for template in sorted(ERROR_TEMPLATES, key=_literal_length, reverse=True))


def find_error_template(message: str) -> tuple[str, dict[str, str]] | None:
    """The template an English usage error was made from, and its pieces (None: not one of ours)."""
    for template, pattern in _ERROR_PATTERNS:
        match = pattern.fullmatch(message)
        if match:
            return template, match.groupdict()
    return None


def translate_error(message: str, lang: str | None = None) -> str:
    """An English usage error of Typer's in ``lang`` (default: the installed language); text that
    is not one of ``ERROR_TEMPLATES`` is kept as it is."""
    lang = resolve_language(lang or _State.lang)
    found = find_error_template(message)
    if found is None:
        return message
    template, pieces = found
    pieces = {name: translate_error(piece, lang) for name, piece in pieces.items()}
    return translate(lang, template, **pieces)


def usage_prefix() -> str:
    return f"{gettext_lookup(USAGE)} "


# -- hooks ---------------------------------------------------------------------------------------

def _import(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _wrap_method(cls: type, name: str, after: Callable[[Any], Any]) -> None:
    """Make ``cls.name`` pass its result through ``after`` (once; nothing if there is no such method)."""
    original = cls.__dict__.get(name)
    if not callable(original) or getattr(original, _MARK, False):
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return after(original(*args, **kwargs))

    setattr(wrapper, _MARK, True)
    setattr(cls, name, wrapper)


def _install_gettext() -> None:
    for name, module in list(sys.modules.items()):
        if module is None or name.partition(".")[0] not in GETTEXT_MODULE_PREFIXES:
            continue
        if getattr(module, "_", None) is gettext.gettext:
            module._ = gettext_lookup  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is gettext.ngettext:
            module.ngettext = ngettext_lookup  # type: ignore[attr-defined]


def _install_rich_constants(rich_utils: ModuleType) -> None:
    for name, msgid in RICH_CONSTANTS.items():
        english = _State.english_constants.setdefault(name, getattr(rich_utils, name, None))
        if english == msgid:
            setattr(rich_utils, name, gettext_lookup(msgid))
    highlighter = getattr(rich_utils, "highlighter", None)
    highlights = getattr(highlighter, "highlights", None)
    english_usage = r"(?P<usage>Usage: )"
    if isinstance(highlights, list) and english_usage in type(highlighter).highlights:
        highlighter.highlights = [rf"(?P<usage>{re.escape(usage_prefix())})" if pattern == english_usage
                                  else pattern for pattern in type(highlighter).highlights]


def _install_usage_prefix(formatting: ModuleType | None) -> None:
    """The usage line's prefix, which ``HelpFormatter.write_usage`` writes when given none."""
    formatter = getattr(formatting, "HelpFormatter", None)
    original = getattr(formatter, "write_usage", None)
    if original is None or getattr(original, _MARK, False):
        return
    signature = inspect.signature(original)
    parameter = signature.parameters.get("prefix")
    if parameter is None or parameter.default is not None:
        return

    @functools.wraps(original)
    def write_usage(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        if bound.arguments.get("prefix") is None:
            bound.arguments["prefix"] = usage_prefix()
        return original(*bound.args, **bound.kwargs)

    setattr(write_usage, _MARK, True)
    formatter.write_usage = write_usage  # type: ignore[union-attr]


def _translate_help_option(option: Any) -> Any:
    if getattr(option, "help", None) == HELP_OPTION_HELP:
        option.help = gettext_lookup(HELP_OPTION_HELP)
    return option


def _translate_formatted_error(message: Any) -> Any:
    return translate_error(message) if isinstance(message, str) else message


def _install_click_copy(core: ModuleType | None, exceptions: ModuleType | None) -> None:
    command = getattr(core, "Command", None)
    if isinstance(command, type):
        _wrap_method(command, "get_help_option", _translate_help_option)
    for value in vars(exceptions).values() if exceptions is not None else ():
        if isinstance(value, type) and issubclass(value, Exception):
            _wrap_method(value, "format_message", _translate_formatted_error)
    typer_exceptions = _import("typer.exceptions")
    base = getattr(typer_exceptions, "TyperException", None)
    if isinstance(base, type):
        _wrap_method(base, "format_message", _translate_formatted_error)


def install(lang: str | None = None) -> str:
    """Make Typer's frame speak ``lang`` (default: ``help_language()``); returns the language.
    Safe to call again (with another language); never fails on a Typer it does not know."""
    _State.lang = resolve_language(lang or help_language())
    try:
        rich_utils = _import("typer.rich_utils")
        _install_gettext()
        if rich_utils is not None:
            _install_rich_constants(rich_utils)
        _install_usage_prefix(_import("typer._click.formatting"))
        _install_click_copy(_import("typer._click.core"), _import("typer._click.exceptions"))
    except Exception:  # i18n: a Typer we do not know must still run, in English
        pass
    return _State.lang
