"""TurfMaster (AZA-Spiele, 1998): courses, cards, movement, races and meetings.

Importing the package registers its games: ``"turfmaster"`` (a meeting of three races),
``"turfmaster-race"`` (a single race) and ``"turfmaster-tutorial"`` (the guided first race)::

    import hippodrome.turfmaster
    from hippodrome.core import Match
    match = Match("turfmaster", {"players": 2, "horses_per_player": 2}, seed=7)
"""

from hippodrome.turfmaster.meeting import Meeting
from hippodrome.turfmaster.race import Race
from hippodrome.turfmaster.tutorial import TurfMasterTutorial

__all__ = ["Meeting", "Race", "TurfMasterTutorial"]
