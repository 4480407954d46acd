"""TurfMaster (AZA-Spiele, 1998): courses, cards, movement, races and meetings.

Importing the package registers both games: ``"turfmaster"`` (a meeting of three races) and
``"turfmaster-race"`` (a single race)::

    import hippodrome.turfmaster
    from hippodrome.core import Match
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed=7)
"""

from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.race import Race

__all__ = ["Meeting", "Race"]
