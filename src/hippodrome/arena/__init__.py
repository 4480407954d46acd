"""Bots against bots, for measurement: whole games driven through the table layer.

A layer above the games and the table (the games never import it): ``turfmaster`` plays meetings
in parallel and reports win rates with Wilson intervals; ``readysetbet`` plays four-race games
with a roll clock and bets arriving in random order.
"""
