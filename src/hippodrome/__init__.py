"""hippodrome: TurfMaster and Ready Set Bet, faithful to their rulebooks."""

__version__ = "0.1.0"
