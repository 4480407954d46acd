"""Shared helpers for TurfMaster tests."""

from hippodrome.turfmaster.race import Race

COLOURS = ["red", "blue", "yellow", "green", "black", "white", "brown", "purple"]


def race_at(positions, course="oval", steeplechase=False, hands=None, first_round="card", seats=None,
            first_roller=0):
    """A race with horses placed at ``positions``: {horse: (lane, index)}; one seat per horse."""
    horses = [{"id": h, "owner": i} for i, h in enumerate(positions)]
    setup = {
        "course": course,
        "steeplechase": steeplechase,
        "horses": horses,
        "positions": [{"id": h, "lane": l, "square": q} for h, (l, q) in positions.items()],
        "hands": hands or {h: ["3", "4", "6", "7", "8", "9", "10", "J12"] for h in positions},
        "first_round": first_round,
        "first_roller": first_roller,
    }
    if seats is not None:
        setup["seats"] = seats
    return Race.new(setup)


def where(race, horse):
    sid = race.square[horse]
    return race.course.lane_of[sid], race.course.index_of[sid]
