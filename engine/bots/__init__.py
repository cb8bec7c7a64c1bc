"""Computer players: pure functions of a seat's view plus a seed."""
