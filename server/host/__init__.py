"""The game host: lobby, tables, seats, clocks, chat, bots, ratings, and the cluster."""
