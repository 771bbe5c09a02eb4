"""The SSH game server (README.md, docs/server.md).

Each session's screen draws at most TEXTUAL_FPS frames a second. Textual's default,
60, makes the answer to a key wait up to 17 ms for the next frame, and a move's
answer (the player's frame, then the bot's) up to two; 120 halves that for a little
CPU (bench/load.py: 50 players' p99 from about 50 to about 30 ms). Textual reads the
setting when it is first imported, so it is set here, before any server module
imports it; TEXTUAL_FPS in the environment still wins.
"""

import os

os.environ.setdefault("TEXTUAL_FPS", "120")
