"""Tests of the game-agnostic core that every game shares."""
