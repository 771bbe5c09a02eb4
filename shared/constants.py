"""The rules' numbers (R2, R9, R13, R15) and the two phases of a turn.

They live below `shared.state` so that the modules it uses (`shared.explain`,
`shared.wire`) can share them; `shared.state` re-exports them.
"""

from __future__ import annotations

Six = tuple[int, int, int, int, int, int]  # token counts W U G R K * (R1)
Five = tuple[int, int, int, int, int]  # gem colours W U G R K: bonuses, costs

ACTION = "action"
RETURN_PHASE = "return"  # R13: the same player gives tokens back
TOKEN_LIMIT = 10  # R13
WINNING_PRESTIGE = 15  # R15
MAX_RESERVED = 3  # R9
GEMS_BY_PLAYERS = {2: 4, 3: 5, 4: 7}  # R2
GOLD_TOKENS = 5  # R2
