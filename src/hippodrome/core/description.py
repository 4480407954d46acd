"""A game describes itself: what the server, the lobby, the pages and the CLI need to know of it.

Every registered game class carries a :class:`GameDescription` (``Game.description``), the way a
boardgame.io game object does: its name and title, how many seats it takes, its setup schema
with defaults and limits, its bot levels, the public data its page draws (courses, the betting
board, colours, horses), named look-ups a page may ask for (a move preview, live odds) and a few
example setups (the conformance suite plays them). The layers above read this description and
never name a game: adding a game adds a package and its entry point, nothing in the server, the
lobby or the command-line frame.

Words are :class:`~hippodrome.i18n.Message` objects; :meth:`GameDescription.to_json` renders each
in the five languages (``{"en": ..., "es": ...}``) so a page can switch language without asking.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Mapping

from hippodrome.i18n import LANGUAGES, Message

#: what a table option sets at the table that plays the game (``SetupField.sets``): the seconds
#: between clock strikes (rolls), the soonest and latest a bot takes a free action after a strike,
#: the seconds before the next race starts by itself
CLOCK_INTERVAL, BOT_REACTION_SOONEST, BOT_REACTION_LATEST, NEXT_RACE_WAIT = (
    "clock_interval", "bot_reaction_soonest", "bot_reaction_latest", "next_race_wait")
TABLE_SETTINGS = (CLOCK_INTERVAL, BOT_REACTION_SOONEST, BOT_REACTION_LATEST, NEXT_RACE_WAIT)

#: a setup field's kinds, as a form shows them
INTEGER, NUMBER, BOOLEAN, CHOICE, SEAT_NAMES = "integer", "number", "boolean", "choice", "seat_names"
FIELD_KINDS = (INTEGER, NUMBER, BOOLEAN, CHOICE, SEAT_NAMES)


def in_every_language(words: Message | str | None) -> dict[str, str] | None:
    """``words`` rendered in each language (a plain string, such as a number, is the same in all)."""
    if words is None:
        return None
    if isinstance(words, str):
        return {lang: words for lang in LANGUAGES}
    return {lang: words.translate(lang) for lang in LANGUAGES}


def resolve(reference: str) -> Any:
    """The object named ``"package.module:attribute"`` (imported on first use, so a game module
    can name its bots or look-ups without importing them, and so without import cycles)."""
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class Choice:
    """One value a ``choice`` field may take, with its words."""

    value: Any
    label: Message | str

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "label": in_every_language(self.label)}


@dataclass(frozen=True)
class SetupField:
    """One entry of a game's setup (or of its table's options, ``table_option=True``).

    ``kind``: ``integer``/``number`` (with ``minimum``, ``maximum``, ``step``), ``boolean``,
    ``choice`` (one of ``choices``) or ``seat_names`` (the seats' names, in seat order, which a
    lobby fills from its seat rows rather than asking for them).
    """

    key: str
    kind: str
    label: Message
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    choices: tuple[Choice, ...] = ()
    help: Message | None = None
    #: an option of the table that plays the game (e.g. seconds between rolls), not of the game
    table_option: bool = False
    #: the table setting a table option sets (one of :data:`TABLE_SETTINGS`), if any
    sets: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"setup field {self.key!r}: unknown kind {self.kind!r}")  # i18n: programming error
        if self.sets is not None and (self.sets not in TABLE_SETTINGS or not self.table_option):
            raise ValueError(f"setup field {self.key!r}: 'sets' is for table options, one of {TABLE_SETTINGS}")  # i18n: programming error

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "kind": self.kind, "label": in_every_language(self.label),
                                "default": self.default, "table_option": self.table_option}
        for name in ("minimum", "maximum", "step"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.choices:
            data["choices"] = [choice.to_json() for choice in self.choices]
        if self.help is not None:
            data["help"] = in_every_language(self.help)
        return data


#: how long a table waits between races for its people to press "Next race" (0: until they all
#: have, or the host has); an option of every table of a game of races (``GameDescription.races``)
NEXT_RACE_SECONDS = SetupField(
    "next_race_seconds", INTEGER, Message("Seconds before the next race starts by itself (0: wait for everyone)"),
    default=30, minimum=0, maximum=600, table_option=True, sets=NEXT_RACE_WAIT)


@dataclass(frozen=True)
class TableSettings:
    """What a table's options set at the table (:meth:`GameDescription.table_settings`)."""

    clock_interval: float = 2.0
    bot_reaction: tuple[float, float] = (0.6, 2.5)
    next_race_seconds: float = 30


@dataclass(frozen=True)
class BotLevel:
    """A level of bot: its name (the id in setups and records), words for people, and the bot class
    (``"module:Class"``, built with a seed); ``budget``: the bot thinks for a budget of seconds a
    decision (a search bot), given as ``think`` where one is given."""

    name: str
    title: Message
    about: Message
    factory: str
    budget: bool = False

    def make(self, seed: int | str, budget: float | None = None) -> Any:
        """A bot of this level; ``budget``: seconds it thinks a decision (a level with a budget; None:
        its own default). Other levels ignore it."""
        if self.budget and budget is not None:
            return resolve(self.factory)(seed, think=budget)
        return resolve(self.factory)(seed)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": in_every_language(self.title), "about": in_every_language(self.about)}


@dataclass(frozen=True)
class Lookup:
    """A named question a page may ask about a game in progress.

    ``function`` (``"module:function"``) is called as ``function(state, seat, params)`` and answers
    JSON, or raises IllegalAction. A ``public`` look-up reads only what everyone may see (any
    spectator may ask: the server serves it at ``GET /api/tables/{id}/{name}``); a private one is
    asked by a seat about its own options (the websocket's message of the same name). ``slow``
    look-ups run off the server's event loop.
    """

    name: str
    function: str
    public: bool = False
    slow: bool = False
    #: the look-up is about one of the asking seat's options, given as its ``action`` parameter
    about_option: bool = False

    def __call__(self, state: Any, seat: int | None, params: Mapping[str, Any]) -> Any:
        return resolve(self.function)(state, seat, params)


@dataclass(frozen=True)
class SeatPlan:
    """The seats a setup makes, each with its role's words (None: an ordinary player)."""

    roles: tuple[Message | None, ...]

    @property
    def count(self) -> int:
        return len(self.roles)

    def to_json(self) -> list[dict[str, Any]]:
        return [{"seat": number, "role": in_every_language(role)} for number, role in enumerate(self.roles)]


@dataclass(frozen=True)
class RulesPage:
    """A game's rules page, served at ``/rules/<game>``.

    ``name``: its texts are ``web/rules/<name>.<lang>.json`` (one per language) and its diagrams are
    drawn by ``web/rules/<name>.js``; ``anchors`` (``"module:ANCHORS"``) maps each ruling (``"T6"``)
    to the id of the paragraph that explains it, so that a page can link a refusal or a note there;
    ``diagrams`` (``"module:function"``) answers the data the diagrams draw, computed by the engine
    (``GET /api/games/<game>/rules``).
    """

    name: str
    anchors: str
    diagrams: str

    def anchor_map(self) -> dict[str, str]:
        return dict(resolve(self.anchors))

    def data(self) -> dict[str, Any]:
        return resolve(self.diagrams)()

    def to_json(self) -> dict[str, Any]:
        return {"page": self.name, "anchors": self.anchor_map()}


@dataclass(frozen=True)
class PuzzleBook:
    """A game's puzzles, served at ``/puzzles/<game>`` (the page) and ``/api/games/<game>/puzzles``.

    ``book`` (``"module:attribute"``) names an object with ``count()``, ``listing(lang)`` (every
    puzzle's number, title and theme), ``show(number, lang)`` (one puzzle as its deciding seat sees
    it, without the solution) and ``answer(number, action, lang)`` (``{"correct", "explanation",
    "message"}``; IllegalAction when ``action`` is not an option); ``number`` counts from 1. The
    generic page ``web/puzzles.html`` draws a puzzle with the game's module ``web/<page>.js``
    (its ``showPuzzle``), which lets the player pick one of the options."""

    book: str
    page: str

    def open(self) -> Any:
        return resolve(self.book)

    def to_json(self) -> dict[str, Any]:
        return {"count": self.open().count(), "page": self.page}


@dataclass(frozen=True)
class GameDescription:
    """What a game is, for everything above the engines. See the module docstring."""

    name: str
    title: Message
    summary: Message
    min_seats: int
    max_seats: int
    setup: tuple[SetupField, ...]
    bots: tuple[BotLevel, ...]
    #: ``seats(state)``: the seats of a game state just made by ``new(setup)``
    seats: Callable[[Any], SeatPlan]
    #: the page module that draws the game (``/static/<page>.js``)
    page: str
    #: ``public_data()``: the data the page draws with (computed once, then cached)
    public_data: Callable[[], dict[str, Any]] = dict
    #: ``form(values)``: for the setup values chosen so far, the fields to adjust
    #: (``{"key": {"choices": [...]}`` or ``{"key": {"hidden": true}}``): rules such as T7's horses
    #: per player stay here, never in a page
    form: Callable[[Mapping[str, Any]], dict[str, dict[str, Any]]] = lambda values: {}
    lookups: tuple[Lookup, ...] = ()
    #: setups that exercise the game's variants (the conformance suite plays each)
    examples: tuple[dict[str, Any], ...] = ()
    #: the table offers a race-caller link (a shared screen that calls the race)
    caller: bool = False
    #: offered in the lobby (a game played without seats, such as a race run for the box, is not)
    lobby: bool = True
    #: the order of lists of games (lower first)
    order: int = 100
    #: setup keys the game accepts that the lobby's form does not ask for (for scripts and tests:
    #: a race's starting positions, its hands); with the fields' keys, every key a setup may hold
    extra_setup_keys: tuple[str, ...] = ()
    #: setup keys nobody but the game sees (a race's dealt hands): left out of the lobby's setup
    secret_setup_keys: tuple[str, ...] = ()
    #: the rules page for players (None: the game has none)
    rules: RulesPage | None = None
    #: the game runs several races and stands between them (``Game.between_races``): its tables
    #: offer the option of how long they wait for the people before the next race
    races: bool = False
    #: the puzzles for players (None: the game has none)
    puzzles: PuzzleBook | None = None
    #: the game is the guided first game of this game (core/tutorial.py): the lobby offers it as
    #: that game's "Learn to play" rather than as a game to set up
    tutorial_of: str | None = None
    #: its tables start as soon as they are made (no Ready step): a tutorial's one person
    starts_at_once: bool = False
    #: the game's review of a finished game (core/review.py), ``"module:function"``: the function
    #: takes the record and ``budget``, ``seed``, ``progress`` and returns the review's JSON (None:
    #: the game has no review)
    review: str | None = None
    #: how the review names a choice (an action of the game's log) for players, ``"module:function"``:
    #: the function takes the action and returns its words (a Message)
    review_words: str | None = None
    #: a finished table of this game moves its players' ratings (OpenSkill, one ladder per rated
    #: game; the game's ``final_places()`` ranks its seats at the end)
    rated: bool = False

    # -- reading ------------------------------------------------------------------
    def bot(self, level: str) -> BotLevel | None:
        return next((bot for bot in self.bots if bot.name == level), None)

    def review_function(self) -> Callable[..., dict[str, Any]] | None:
        """The game's review function (imported on first use), or None."""
        return None if self.review is None else resolve(self.review)

    def review_words_function(self) -> Callable[[dict[str, Any]], Any] | None:
        """The words of a choice in the game's review (imported on first use), or None."""
        return None if self.review_words is None else resolve(self.review_words)

    def lookup(self, name: str) -> Lookup | None:
        return next((entry for entry in self.lookups if entry.name == name), None)

    def private_lookups(self) -> tuple[str, ...]:
        """The names of the look-ups a seat asks about its own options (a message of that name)."""
        return tuple(entry.name for entry in self.lookups if not entry.public)

    def public_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """A table's setup as anyone may see it: without the keys the game keeps secret (dealt hands)."""
        return {key: value for key, value in setup.items() if key not in self.secret_setup_keys}

    def table_settings(self, options: Mapping[str, Any]) -> TableSettings:
        """What a table's ``options`` set at the table (each option the game marks with ``sets``)."""
        chosen = {entry.sets: options.get(entry.key, entry.default) for entry in self.table_options() if entry.sets}
        default = TableSettings()
        return TableSettings(
            clock_interval=chosen.get(CLOCK_INTERVAL, default.clock_interval),
            bot_reaction=(chosen.get(BOT_REACTION_SOONEST, default.bot_reaction[0]),
                          chosen.get(BOT_REACTION_LATEST, default.bot_reaction[1])),
            next_race_seconds=chosen.get(NEXT_RACE_WAIT, default.next_race_seconds))

    def setup_fields(self) -> tuple[SetupField, ...]:
        return tuple(entry for entry in self.setup if not entry.table_option)

    def table_options(self) -> tuple[SetupField, ...]:
        """The game's own table options, then those every table of a game of races has."""
        own = tuple(entry for entry in self.setup if entry.table_option)
        return own + (NEXT_RACE_SECONDS,) if self.races else own

    def setup_keys(self) -> tuple[str, ...]:
        """Every key a setup of this game may hold: its fields', then the extra ones."""
        return tuple(entry.key for entry in self.setup_fields()) + self.extra_setup_keys

    def defaults(self) -> dict[str, Any]:
        """The default setup (fields whose default is None are left out: the game decides)."""
        return {entry.key: entry.default for entry in self.setup_fields()
                if entry.default is not None and entry.kind != SEAT_NAMES}

    @cached_property
    def data(self) -> dict[str, Any]:
        return self.public_data()

    def to_json(self) -> dict[str, Any]:
        """Everything above, as ``GET /api/games`` serves it."""
        return {
            "name": self.name, "title": in_every_language(self.title),
            "summary": in_every_language(self.summary),
            "seats": {"min": self.min_seats, "max": self.max_seats},
            "setup": [entry.to_json() for entry in self.setup_fields()],
            "table_options": [entry.to_json() for entry in self.table_options()],
            "extra_setup_keys": list(self.extra_setup_keys),
            "bots": [bot.to_json() for bot in self.bots],
            "lookups": [{"name": entry.name, "public": entry.public} for entry in self.lookups],
            "page": self.page, "caller": self.caller, "lobby": self.lobby, "data": self.data,
            "rules": None if self.rules is None else self.rules.to_json(),
            "puzzles": None if self.puzzles is None else self.puzzles.to_json(),
            "tutorial_of": self.tutorial_of, "starts_at_once": self.starts_at_once,
            "review": self.review is not None, "rated": self.rated,
        }
