"""What every environment here shows when rendered (``render_mode``): ``"ansi"``, a spectator's
view as JSON text; ``"rgb_array"`` (TurfMaster), a picture of the race
(:mod:`hippodrome.envs.turfmaster_picture`). Any other mode is refused when the environment is made."""

from __future__ import annotations

import json
from typing import Any, Sequence

from hippodrome.core.game import Game

TURFMASTER_MODES = ("ansi", "rgb_array")
READYSETBET_MODES = ("ansi",)


def check_render_mode(render_mode: str | None, modes: Sequence[str]) -> str | None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, modes))}, not {render_mode!r}")  # i18n: programming error
    return render_mode


def render(state: Game, render_mode: str | None) -> Any:
    """What ``render()`` returns in ``render_mode`` (None: nothing)."""
    if render_mode == "ansi":
        return json.dumps(state.observation(None))
    if render_mode == "rgb_array":
        from hippodrome.envs.turfmaster_picture import picture

        return picture(state)
    return None
