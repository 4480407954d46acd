"""The layouts of the encodings, written from the code: which action ids stand for what, which
entries of an observation vector hold what. A developer's tool (the tables are English, as the
field names in the code are):

    python -m hippodrome.envs.layout                 # both games, as Markdown tables
    python -m hippodrome.envs.layout turfmaster      # one game
    python -m hippodrome.envs.layout readysetbet --id 737 --entry 250

and the helpers behind it:

>>> name_action("turfmaster", 0)
'card slot 0 3'
>>> name_entry("turfmaster", 0)
'horse row 0 (my first horse): present'
>>> name_entry("readysetbet", 11)
"last roll's sum: 4"
>>> field_slice("readysetbet", "bets closed")
slice(22, 23, None)
>>> field_slice("turfmaster", "row 1: lane")
slice(72, 80, None)
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

from hippodrome.envs import readysetbet_encoding as readysetbet
from hippodrome.envs import turfmaster_encoding as turfmaster
from hippodrome.envs import turfmaster_observation as turfmaster_observation

GAMES = ("turfmaster", "readysetbet")

#: what each block of action ids stands for, by game and block
BLOCK_MEANINGS: dict[str, dict[str, str]] = {
    "turfmaster": {
        "card": "play a card: slot (the seat's horses in the game's order) x card kind "
                f"({', '.join(turfmaster.CARD_KINDS)})",
        "square": f"end a move on a square: lane (0 = rail) x squares ahead of the start's level (0-{turfmaster.REACH - 1})",
        "dice_use": "the roller uses the dice: their sum, or die 1-6",
        "die": "a handicapped horse moves one die: its value 1-6",
        "claim": "claim the bonus cards of the horse in a slot",
        "decline": "decline the bonus cards of the horse in a slot",
        "discard": "give up a card: slot x card kind",
        "stand_still": "let a horse whose hand is empty stand still",
    },
    "readysetbet": {
        "pass": "bet nothing on this roll",
        "bet": f"a kind of token ({len(readysetbet.TOKEN_KINDS)}: the player tokens, then the VIP bonus tokens) "
               f"x a space of the board ({readysetbet.SPACES}); the House's tokens use the same ids",
        "vip": f"keep a VIP card ({len(readysetbet.VIP_IDS)} cards), whoever decides",
        "house": "accept or refuse the rotating House",
    },
}


def _describe(game: str) -> Callable[[int], str]:
    return {"turfmaster": turfmaster.describe, "readysetbet": readysetbet.describe}[_checked(game)]


def _checked(game: str) -> str:
    if game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")  # i18n: programming error
    return game


def action_count(game: str) -> int:
    return {"turfmaster": turfmaster.ACTIONS, "readysetbet": readysetbet.ACTIONS}[_checked(game)]


def observation_size(game: str) -> int:
    return {"turfmaster": turfmaster_observation.OBSERVATION_SIZE,
            "readysetbet": readysetbet.OBSERVATION_SIZE}[_checked(game)]


def action_blocks(game: str) -> list[dict[str, Any]]:
    """Each block of ids: name, first and last id, size, meaning."""
    blocks = {"turfmaster": turfmaster.ACTION_BLOCKS, "readysetbet": readysetbet.ACTION_BLOCKS}[_checked(game)]
    return [{"name": name, "first": start, "last": start + size - 1, "size": size,
             "meaning": BLOCK_MEANINGS[game][name]} for name, (start, size) in blocks.items()]


def observation_fields(game: str) -> list[dict[str, Any]]:
    """Each field of the observation vector: name, start, stop (TurfMaster's horse rows as one field)."""
    fields = ({"turfmaster": turfmaster_observation.OBSERVATION_FIELDS,
               "readysetbet": readysetbet.OBSERVATION_FIELDS}[_checked(game)])
    return [{"name": name, "start": start, "stop": start + width} for name, (start, width) in fields.items()]


def row_fields() -> list[dict[str, Any]]:
    """The fields of one TurfMaster horse row (rows start at the ``horses`` field, each ``ROW`` long)."""
    return [{"name": name, "start": start, "stop": start + width}
            for name, (start, width) in turfmaster_observation.ROW_FIELDS.items()]


def name_action(game: str, action_id: int) -> str:
    """What an action id stands for, in words a log can carry."""
    if not 0 <= action_id < action_count(game):
        raise ValueError(f"{game} action ids are 0 to {action_count(game) - 1}, not {action_id}")  # i18n: programming error
    return _describe(game)(action_id)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def name_entry(game: str, index: int) -> str:
    """What entry ``index`` of the game's observation vector holds."""
    if not 0 <= index < observation_size(game):
        raise ValueError(f"{game} observations have entries 0 to {observation_size(game) - 1}, not {index}")  # i18n: programming error
    for field in observation_fields(game):
        if field["start"] <= index < field["stop"]:
            offset = index - field["start"]
            if game == "turfmaster" and field["start"] == turfmaster_observation.HORSE_ROWS:
                row, within = divmod(offset, turfmaster_observation.ROW)
                inner = next(f for f in row_fields() if f["start"] <= within < f["stop"])
                return (f"horse row {row} (my {_ORDINALS[row]} horse, or another's after mine): "
                        if row else "horse row 0 (my first horse): ") + _item(game, inner, within - inner["start"])
            return _item(game, field, offset)
    raise AssertionError("the fields cover the vector")  # i18n: programming error


def _item(game: str, field: dict[str, Any], offset: int) -> str:
    """A field's name, and which of its entries (a card kind, a space, a sum ...) when it has several."""
    name, width = field["name"], field["stop"] - field["start"]
    if width == 1:
        return name
    labels = _LABELS.get((game, name))
    return f"{name}: {labels[offset] if labels else offset}"


_LABELS: dict[tuple[str, str], tuple[Any, ...]] = {
    ("turfmaster", "own hand, per card kind"): turfmaster.CARD_KINDS,
    ("turfmaster", "played this race, per card kind"): turfmaster.CARD_KINDS,
    ("turfmaster", "stage"): turfmaster_observation.STAGES,
    ("turfmaster", "handicap limit"): tuple("none" if limit is None else limit for limit in turfmaster_observation.LIMITS),
    ("turfmaster", "my decision"): turfmaster_observation.DECISIONS,
    ("turfmaster", "phase of the meeting"): turfmaster_observation.PHASES,
    ("readysetbet", "last roll's sum"): readysetbet.SUMS,
    ("readysetbet", "my decision"): readysetbet.DECISIONS,
    **{("readysetbet", name): readysetbet.SPACE_IDS for name in (
        "space on the board this race", "space closed (2 bettors, R4)", "my token's value on the space / 7",
        "other seats' tokens on the space / 8", "house token's value on the space / 7")},
    **{("readysetbet", name): readysetbet.VIP_IDS for name in ("my VIP cards", "VIP cards I choose between")},
}


def field_slice(game: str, name: str) -> slice:
    """The entries of a field by its name (TurfMaster's row fields as ``"row R: name"``)."""
    if game == "turfmaster" and name.startswith("row ") and ": " in name:
        row, inner = name[4:].split(": ", 1)
        field = next((f for f in row_fields() if f["name"] == inner), None)
        if field is not None and row.isdigit() and int(row) < turfmaster.SLOTS:
            start = turfmaster_observation.HORSE_ROWS + int(row) * turfmaster_observation.ROW
            return slice(start + field["start"], start + field["stop"])
    for field in observation_fields(game):
        if field["name"] == name:
            return slice(field["start"], field["stop"])
    raise ValueError(f"no field {name!r} in the {game} observation")  # i18n: programming error


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def markdown(game: str) -> str:
    """The game's tables: action ids, observation fields (and TurfMaster's horse row)."""
    lines = [f"#### {'TurfMaster' if game == 'turfmaster' else 'Ready Set Bet'}: {action_count(game):,} action ids, "
             f"{observation_size(game):,} observation floats", "",
             "| action ids | block | ids | meaning |", "|---|---|---|---|"]
    for block in action_blocks(game):
        lines.append(f"| {_span(block['first'], block['last'])} | {block['name']} | {block['size']} | {block['meaning']} |")
    lines += ["", "| observation entries | field | width |", "|---|---|---|"]
    for field in observation_fields(game):
        lines.append(f"| {_span(field['start'], field['stop'] - 1)} | {field['name']} | {field['stop'] - field['start']} |")
    if game == "turfmaster":
        rows = turfmaster_observation.ROW
        lines += ["", f"One horse row of the `horses` field ({rows} entries; row r starts {rows} r entries into "
                      "the field; the seat's own horses first, then the others in the game's order):", "",
                  "| row entries | field | width |", "|---|---|---|"]
        for field in row_fields():
            lines.append(f"| {_span(field['start'], field['stop'] - 1)} | {field['name']} | "
                         f"{field['stop'] - field['start']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The action ids and observation entries of hippodrome's encodings.")
    parser.add_argument("game", nargs="?", choices=GAMES, help="one game (default: both)")  # i18n: developer tool
    parser.add_argument("--id", type=int, action="append", default=[], help="name this action id")  # i18n: developer tool
    parser.add_argument("--entry", type=int, action="append", default=[],
                        help="name this observation entry")  # i18n: developer tool
    args = parser.parse_args(argv)
    games = [args.game] if args.game else list(GAMES)
    if args.id or args.entry:
        for game in games:
            for number in args.id:
                print(f"{game} action {number}: {name_action(game, number)}")  # i18n: developer tool
            for number in args.entry:
                print(f"{game} entry {number}: {name_entry(game, number)}")  # i18n: developer tool
        return 0
    print("\n".join(markdown(game) for game in games), end="")  # i18n: developer tool
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
