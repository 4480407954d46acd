"""The server's HTTP routes and its websocket endpoint, a router each: the pages, the games'
API (descriptions, rules, puzzles, catalogs), the tables' API, and play."""
