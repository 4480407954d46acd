"""TurfMaster (AZA-Spiele, 1998): courses, cards, movement, races and meetings."""
