"""The database schema, as numbered migrations for each backend.

A database records its schema version (`schema_version`, one row). At start the
server applies the migrations after it, in order, each in a transaction of its own,
or refuses a database whose version is newer than this build knows. A database
from before versions were recorded (the first SQLite schema) is version 1.

Version 1: names, games (started games only), moves, snapshots.
Version 2: tables are stored from creation (status "waiting", no seed yet; also
"closed"), with a `version` for compare-and-set changes and the game's current
`turn`; PostgreSQL also keeps the cluster's processes and their sessions.
Version 3: ratings (`server.store.ratings`): a table is rated or not; who played which
game (`game_players`, for profiles); each player's rating and its history; banned
names.
Version 4: time and company (issue 12): a table's time control, its patience with
absent players, the deadline of its running clock and the real-time banks (absolute
times, so a clock survives a restart), the game a table is a rematch of (one rematch
a game); chat lines, the lobby's and each table's, kept with the game.
Version 5: a game's settings (issue 32, `shared.settings`): the prestige that ends it
(`target`, R15); the tables stored before have the rules' 15.
Version 6: program players (issue 35): the names an admin marked as a program's
(`splendor-server bot-account`), shown with the bots' mark.
Version 7: the language a player chose (issue 34, `shared.i18n`), kept with their name
and key (`names.language`; NULL: none chosen, the SSH client's environment decides), and
for a right-to-left one how their terminal shows it (`names.reading`: visual or logical).
Version 8: club tournaments (issue 36, `server.store.tournaments`): each tournament with
its settings, entrants and rounds (JSON, changed by compare-and-set on `version`), and
which games are its tables, in which round.
"""

from __future__ import annotations

LATEST = 8


class SchemaTooNew(Exception):
    """The database was written by a newer server than this one."""


def too_new(found: int) -> SchemaTooNew:
    return SchemaTooNew(
        f"the database has schema version {found}, and this server knows versions up to "
        f"{LATEST}: it was written by a newer splendor-server. Upgrade this one (or point "
        "it at another database)."
    )


SQLITE: dict[int, str] = {
    1: """
CREATE TABLE names (
    name    TEXT PRIMARY KEY COLLATE NOCASE,  -- "Alice" and "alice" are one name
    key     TEXT NOT NULL,                    -- public-key fingerprint that owns it
    claimed REAL NOT NULL
);
CREATE TABLE games (
    id       TEXT PRIMARY KEY,
    seed     INTEGER NOT NULL,
    players  INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    seats    TEXT NOT NULL,
    host     TEXT NOT NULL,
    status   TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    created  REAL NOT NULL,
    finished REAL,
    outcome  TEXT
);
CREATE INDEX games_status ON games (status);
CREATE TABLE moves (
    game     TEXT NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    notation TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE snapshots (
    game  TEXT NOT NULL REFERENCES games (id),
    seq   INTEGER NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
""",
    # SQLite cannot drop a NOT NULL or change a CHECK: the games table is rebuilt (with
    # foreign keys off meanwhile: moves and snapshots refer to it by name).
    2: """
CREATE TABLE games_new (
    id       TEXT PRIMARY KEY,
    seed     INTEGER,                      -- NULL until the game starts
    players  INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    seats    TEXT NOT NULL,                -- JSON list of {name, guest, key, bot, left}
    host     TEXT NOT NULL,                -- who hosts the table (seat 0's player at first)
    status   TEXT NOT NULL
             CHECK (status IN ('waiting', 'playing', 'finished', 'abandoned', 'closed')),
    created  REAL NOT NULL,
    finished REAL,
    outcome  TEXT,                         -- JSON {scores, ranks} when finished
    version  INTEGER NOT NULL DEFAULT 0,   -- +1 at every change of seats or status
    turn     INTEGER NOT NULL DEFAULT 0    -- the game's turn after its latest move
);
INSERT INTO games_new (id, seed, players, seats, host, status, created, finished, outcome)
    SELECT id, seed, players, seats, host, status, created, finished, outcome FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_status ON games (status);
""",
    3: """
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE game_players (
    game   TEXT NOT NULL REFERENCES games (id),
    seat   INTEGER NOT NULL,
    player TEXT NOT NULL,                   -- a player's name, or bot:LEVEL (never a guest)
    PRIMARY KEY (game, seat)
);
CREATE INDEX game_players_player ON game_players (player);
CREATE TABLE ratings (
    player  TEXT PRIMARY KEY,               -- a player's name, or bot:LEVEL
    mu      REAL NOT NULL,
    sigma   REAL NOT NULL,
    games   INTEGER NOT NULL DEFAULT 0,     -- rated games finished
    wins    INTEGER NOT NULL DEFAULT 0,     -- ...ranked first in (shared or not)
    updated REAL NOT NULL
);
CREATE TABLE rating_history (
    player TEXT NOT NULL,
    game   TEXT NOT NULL REFERENCES games (id),
    at     REAL NOT NULL,
    rank   INTEGER NOT NULL,                -- as rated (an abandon ranks last)
    mu     REAL NOT NULL,
    sigma  REAL NOT NULL,
    shown  INTEGER NOT NULL,                -- server.store.ratings.display after the game
    change INTEGER NOT NULL,                -- ...and how much it moved
    PRIMARY KEY (player, game)
);
CREATE TABLE bans (
    name   TEXT PRIMARY KEY COLLATE NOCASE,
    at     REAL NOT NULL,
    reason TEXT NOT NULL DEFAULT ''
);
INSERT INTO game_players (game, seat, player)
    SELECT g.id, CAST(s.key AS INTEGER),
           COALESCE('bot:' || json_extract(s.value, '$.bot'),
                    lower(json_extract(s.value, '$.name')))
    FROM games g, json_each(g.seats) s
    WHERE g.status NOT IN ('waiting', 'closed')
      AND NOT COALESCE(json_extract(s.value, '$.guest'), 0)
      AND COALESCE(json_extract(s.value, '$.bot'), json_extract(s.value, '$.name')) IS NOT NULL;
""",
    4: """
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT 'none';  -- shared.clock notation
ALTER TABLE games ADD COLUMN patience REAL NOT NULL DEFAULT 600;  -- seconds before a vote
ALTER TABLE games ADD COLUMN deadline REAL;      -- when the running clock runs out (epoch)
ALTER TABLE games ADD COLUMN banks TEXT NOT NULL DEFAULT '[]';   -- real time: seconds left
ALTER TABLE games ADD COLUMN rematch_of TEXT;    -- the game this table is a rematch of
CREATE UNIQUE INDEX games_rematch ON games (rematch_of);
CREATE TABLE chat (
    id        INTEGER PRIMARY KEY,
    game      TEXT,                         -- NULL: the lobby
    seq       INTEGER NOT NULL DEFAULT 0,   -- moves played when it was said
    turn      INTEGER NOT NULL DEFAULT 0,   -- ...and the game's turn then
    at        REAL NOT NULL,
    name      TEXT NOT NULL,                -- who said it, as the server knew them
    text      TEXT NOT NULL,                -- one clean line (shared.chat)
    spectator INTEGER NOT NULL DEFAULT 0,   -- said by a spectator of the game
    removed   REAL                          -- when an admin removed it
);
CREATE INDEX chat_game ON chat (game, id);
CREATE INDEX chat_removed ON chat (removed);
""",
    5: """
ALTER TABLE games ADD COLUMN target INTEGER NOT NULL DEFAULT 15;  -- R15 (shared.settings)
""",
    6: """
CREATE TABLE programs (
    name TEXT PRIMARY KEY COLLATE NOCASE,   -- a player name that a program plays under
    at   REAL NOT NULL                      -- when an admin marked it
);
""",
    7: """
ALTER TABLE names ADD COLUMN language TEXT;  -- the player's choice (shared.i18n), or NULL
ALTER TABLE names ADD COLUMN reading TEXT;   -- visual or logical (client/rtl.py), or NULL
""",
    8: """
CREATE TABLE tournaments (
    id       TEXT PRIMARY KEY,              -- 6 hex digits, like a table's
    name     TEXT NOT NULL,
    format   TEXT NOT NULL,                 -- swiss, round-robin, knockout
    settings TEXT NOT NULL,                 -- JSON: rounds, seats, clock, start, ...
    status   TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    creator  TEXT NOT NULL,
    created  REAL NOT NULL,
    version  INTEGER NOT NULL DEFAULT 0,    -- +1 at every change (compare-and-set)
    entrants TEXT NOT NULL DEFAULT '[]',    -- JSON list of {name, key, bot, rating, out}
    rounds   TEXT NOT NULL DEFAULT '[]'     -- JSON list of {tables: [[game, names...]], byes}
);
CREATE TABLE tournament_games (
    game       TEXT PRIMARY KEY,            -- a table's id (its games row comes after)
    tournament TEXT NOT NULL REFERENCES tournaments (id),
    round      INTEGER NOT NULL
);
CREATE INDEX tournament_games_of ON tournament_games (tournament);
""",
}

POSTGRES: dict[int, str] = {
    1: """
CREATE TABLE names (
    name    TEXT PRIMARY KEY,        -- player names are lower case (server.host.identity)
    key     TEXT NOT NULL,
    claimed DOUBLE PRECISION NOT NULL
);
CREATE TABLE games (
    id       TEXT PRIMARY KEY,
    seed     BIGINT NOT NULL,
    players  INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    seats    TEXT NOT NULL,
    host     TEXT NOT NULL,
    status   TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    created  DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION,
    outcome  TEXT
);
CREATE INDEX games_status ON games (status);
CREATE TABLE moves (
    game     TEXT NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    notation TEXT NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE snapshots (
    game  TEXT NOT NULL REFERENCES games (id),
    seq   INTEGER NOT NULL,
    state BYTEA NOT NULL,
    PRIMARY KEY (game, seq)
);
""",
    2: """
ALTER TABLE games ALTER COLUMN seed DROP NOT NULL;
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('waiting', 'playing', 'finished', 'abandoned', 'closed'));
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn INTEGER NOT NULL DEFAULT 0;
CREATE TABLE processes (
    id        TEXT PRIMARY KEY,          -- one server process: host name, pid, a random tag
    started   TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat TIMESTAMPTZ NOT NULL DEFAULT now()  -- the database's clock, renewed often
);
CREATE TABLE sessions (
    id      TEXT PRIMARY KEY,
    process TEXT NOT NULL REFERENCES processes (id) ON DELETE CASCADE,
    name    TEXT NOT NULL,
    guest   BOOLEAN NOT NULL,
    key     TEXT,
    tbl     TEXT,                        -- the table it shows; NULL in the lobby
    seat    INTEGER                      -- its seat there; NULL when watching
);
""",
    3: """
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE game_players (
    game   TEXT NOT NULL REFERENCES games (id),
    seat   INTEGER NOT NULL,
    player TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX game_players_player ON game_players (player);
CREATE TABLE ratings (
    player  TEXT PRIMARY KEY,
    mu      DOUBLE PRECISION NOT NULL,
    sigma   DOUBLE PRECISION NOT NULL,
    games   INTEGER NOT NULL DEFAULT 0,
    wins    INTEGER NOT NULL DEFAULT 0,
    updated DOUBLE PRECISION NOT NULL
);
CREATE TABLE rating_history (
    player TEXT NOT NULL,
    game   TEXT NOT NULL REFERENCES games (id),
    at     DOUBLE PRECISION NOT NULL,
    rank   INTEGER NOT NULL,
    mu     DOUBLE PRECISION NOT NULL,
    sigma  DOUBLE PRECISION NOT NULL,
    shown  INTEGER NOT NULL,
    change INTEGER NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE TABLE bans (
    name   TEXT PRIMARY KEY,
    at     DOUBLE PRECISION NOT NULL,
    reason TEXT NOT NULL DEFAULT ''
);
INSERT INTO game_players (game, seat, player)
    SELECT g.id, s.ord - 1, COALESCE('bot:' || (s.v ->> 'bot'), lower(s.v ->> 'name'))
    FROM games g, jsonb_array_elements(g.seats::jsonb) WITH ORDINALITY AS s (v, ord)
    WHERE g.status NOT IN ('waiting', 'closed')
      AND NOT COALESCE((s.v ->> 'guest')::boolean, false)
      AND COALESCE(s.v ->> 'bot', s.v ->> 'name') IS NOT NULL;
""",
    4: """
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT 'none';
ALTER TABLE games ADD COLUMN patience DOUBLE PRECISION NOT NULL DEFAULT 600;
ALTER TABLE games ADD COLUMN deadline DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN banks TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN rematch_of TEXT;
CREATE UNIQUE INDEX games_rematch ON games (rematch_of);
CREATE TABLE chat (
    id        BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    game      TEXT,
    seq       INTEGER NOT NULL DEFAULT 0,
    turn      INTEGER NOT NULL DEFAULT 0,
    at        DOUBLE PRECISION NOT NULL,
    name      TEXT NOT NULL,
    text      TEXT NOT NULL,
    spectator INTEGER NOT NULL DEFAULT 0,
    removed   DOUBLE PRECISION
);
CREATE INDEX chat_game ON chat (game, id);
CREATE INDEX chat_removed ON chat (removed);
""",
    5: """
ALTER TABLE games ADD COLUMN target INTEGER NOT NULL DEFAULT 15;
""",
    6: """
CREATE TABLE programs (
    name TEXT PRIMARY KEY,
    at   DOUBLE PRECISION NOT NULL
);
""",
    7: """
ALTER TABLE names ADD COLUMN language TEXT;
ALTER TABLE names ADD COLUMN reading TEXT;
""",
    8: """
CREATE TABLE tournaments (
    id       TEXT PRIMARY KEY,              -- 6 hex digits, like a table's
    name     TEXT NOT NULL,
    format   TEXT NOT NULL,                 -- swiss, round-robin, knockout
    settings TEXT NOT NULL,                 -- JSON: rounds, seats, clock, start, ...
    status   TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    creator  TEXT NOT NULL,
    created  DOUBLE PRECISION NOT NULL,
    version  INTEGER NOT NULL DEFAULT 0,    -- +1 at every change (compare-and-set)
    entrants TEXT NOT NULL DEFAULT '[]',    -- JSON list of {name, key, bot, rating, out}
    rounds   TEXT NOT NULL DEFAULT '[]'     -- JSON list of {tables: [[game, names...]], byes}
);
CREATE TABLE tournament_games (
    game       TEXT PRIMARY KEY,            -- a table's id (its games row comes after)
    tournament TEXT NOT NULL REFERENCES tournaments (id),
    round      INTEGER NOT NULL
);
CREATE INDEX tournament_games_of ON tournament_games (tournament);
""",
}
