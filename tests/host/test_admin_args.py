"""What the admin commands, copy-db and the server's own command line refuse
(server/commands/checks.py): every argument a rule of the server's forbids, and every
database that cannot be opened, is one line on stderr and a non-zero exit status, never
a traceback; on both backends."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.commands import cli, workers
from server.commands.cli import main as server_main
from server.store import default_url, open_store
from server.store.pgtemp import free_port

REPO = Path(__file__).resolve().parents[2]
LONG = "a" * 10_000
HUGE = "9" * 5_000  # past Python's 4300 digits for int()


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """An argument let through by mistake fails the test, rather than start a server in it
    that would run until the test is stopped."""

    async def serve(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the server started")

    def supervise(*args: Any, **kwargs: Any) -> int:
        raise AssertionError("the supervisor started")

    monkeypatch.setattr(cli, "serve", serve)
    monkeypatch.setattr(workers.Supervisor, "run", supervise)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`splendor-server ARGV` in this process: its exit status, stdout and stderr."""
    try:
        server_main(list(argv))
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
        if isinstance(e.code, str):  # SystemExit("...") prints it, as Python would
            print(e.code, file=sys.stderr)
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(code: int, err: str) -> str:
    """The one line a refusal printed (and the checks every refusal passes)."""
    assert code != 0
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def club(database: str) -> str:
    """A database of each backend, with the schema made (as a server leaves it)."""
    asyncio.run(_make(database))
    return database


async def _make(url: str) -> None:
    store = open_store(url)
    await store.open()
    await store.close()


ADMIN_REFUSALS = [
    # names: server.host.identity.check_name, as at login
    (["ban", ""], "can't be a player name"),
    (["ban", LONG], "can't be a player name"),
    (["ban", "guest"], "can't be a player name"),
    (["ban", "x\x1b[2J"], "can't be a player name"),
    (["ban", "ann", "--reason", "\x1b]0;PWNED\x07"], "one line of plain text"),
    (["ban", "ann", "--reason", "two\nlines"], "one line of plain text"),
    (["ban", "ann", "--reason", "r" * 201], "200 characters at most"),
    (["unban", ""], "can't be a player name"),
    (["unban", LONG], "can't be a player name"),
    (["rename", "", "bob"], "can't be a player name"),
    (["rename", "ann", "9"], "can't be a player name"),
    (["rename", "ann", LONG], "can't be a player name"),
    (["rename", "ann", "guest-bob"], "can't be a player name"),
    (["rename", "ann"], "required: new"),
    # table ids: 6 hex digits (server.host.identity.new_table_id)
    (["export", "nosuch"], "not a table's id"),
    (["export", "4fa2c"], "not a table's id"),
    (["export", "4fa2c1x"], "not a table's id"),
    (["export", ""], "not a table's id"),
    (["export", "4fa2c1\n"], "not a table's id"),
    (["export"], "required: game"),
    (["chat", "--game", "../etc"], "not a table's id"),
    (["chat", "--game", "4fa2c1", "--all"], "not allowed with"),
    # counts: 1 to 1,000,000
    (["ratings", "--top", "0"], "from 1 to 1000000"),
    (["ratings", "--top", "-1"], "from 1 to 1000000"),
    (["ratings", "--top", "1000001"], "from 1 to 1000000"),
    (["ratings", "--top", "99999999999999999999"], "from 1 to 1000000"),
    (["ratings", "--top", HUGE], "from 1 to 1000000"),
    (["ratings", "--top", "٣"], "from 1 to 1000000"),
    (["ratings", "--top", "1_000"], "from 1 to 1000000"),
    (["ratings", "--top", " 5"], "from 1 to 1000000"),
    (["ratings", "--top", "1e3"], "from 1 to 1000000"),
    (["ratings", "extra"], "unrecognized arguments: extra"),
    (["chat", "--last", "0"], "from 1 to 1000000"),
    (["chat", "--last", "99999999999999999999"], "from 1 to 1000000"),
    # chat line ids: what SQLite's INTEGER and PostgreSQL's BIGINT hold
    (["chat-remove", "0"], "from 1 to 9223372036854775807"),
    (["chat-remove", "-5"], "from 1 to 9223372036854775807"),
    (["chat-remove", "9223372036854775808"], "from 1 to 9223372036854775807"),
    (["chat-remove", "99999999999999999999999"], "from 1 to 9223372036854775807"),
    (["chat-remove", "abc"], "from 1 to 9223372036854775807"),
    (["chat-remove"], "required: id"),
]


@pytest.mark.parametrize(("argv", "said"), ADMIN_REFUSALS, ids=lambda v: repr(v)[:40])
def test_an_admin_command_refuses_an_argument_in_one_line(
    club: str, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = run(capsys, *argv, "--database", club)
    line = refused(code, err)
    assert code == 2 and out == ""
    assert line.startswith(f"splendor-server {argv[0]}: ") and said in line, line
    assert len(line) < 400  # a 10,000-character argument is not echoed whole


BAD_URLS = [
    ("mysql://x", "not a database URL this server reads"),
    ("sqlite:///", "names no file"),
    ("postgresql://u@h:99999/db", "port out of range"),
    ("postgresql://u@h:port/db", "port could not be cast"),
    ("postgresql://u@h:0/db", "port 0"),
    ("postgresql://u@[::1/db", "invalid ipv6 url"),
]


@pytest.mark.parametrize(("url", "said"), BAD_URLS)
def test_a_database_url_of_the_wrong_form_is_refused_by_every_command(
    capsys: pytest.CaptureFixture[str], url: str, said: str
) -> None:
    for argv in (
        ["ratings", "--database", url],
        ["copy-db", "--from", url, "--to", "sqlite:///x.db"],
        ["copy-db", "--from", "sqlite:///x.db", "--to", url],
        ["--database", url],  # the server itself
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and said in refused(code, err), (argv, err)


SERVER_REFUSALS = [
    (["--port", "abc"], "from 0 to 65535"),
    (["--port", "65536"], "from 0 to 65535"),
    (["--port", "-1"], "from 0 to 65535"),
    (["--port", HUGE], "from 0 to 65535"),
    (["--workers", "0"], "from 1 to 256"),
    (["--workers", "257"], "from 1 to 256"),
    (["--workers", "99999999999999999999"], "from 1 to 256"),  # not that many processes
    (["--workers", "many"], "from 1 to 256"),
    (["--log-level", "LOUD"], "one of DEBUG, INFO, WARNING, ERROR"),
    (["--port-file", "/nonexistent-dir/port"], "no directory"),
    (["--worker", "0"], "from 1 to 256"),
    (["--allow-guests", "--no-guests"], "not allowed with"),
    (["bogus"], "unrecognized arguments: bogus"),
    (["copy-db", "--to", "sqlite:///x.db"], "required: --from"),
    (["copy-db", "--from", "sqlite:///x.db", "--to", "sqlite:///x.db"], "the same database"),
]


@pytest.mark.parametrize(("argv", "said"), SERVER_REFUSALS, ids=lambda v: repr(v)[:40])
def test_the_server_and_copy_db_refuse_an_argument_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert said in refused(code, err), err


# -- databases that cannot be opened ---------------------------------------------------


@pytest.fixture(scope="module")
def locked_role(postgres: Any) -> Iterator[str]:
    """A role of the test server's that needs a password ("right")."""
    role = f"locked{os.getpid()}"
    postgres.password_role(role, "right")
    yield role


@pytest.fixture
def hung_server() -> Iterator[int]:
    """A port whose listener never answers (a database server that hangs)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield int(s.getsockname()[1])


def sqlite_cases(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """SQLite URLs an admin command cannot open, and what it says of each."""
    (tmp_path / "afile").write_text("not a directory")
    (tmp_path / "garbage.db").write_bytes(b"this is not a database\0" * 100)
    return {
        "missing directory": (f"sqlite:///{tmp_path}/nodir/splendor.db", "does not exist"),
        "a file for a directory": (f"sqlite:///{tmp_path}/afile/x.db", "is not a directory"),
        "missing file": (f"sqlite:///{tmp_path}/missing.db", "no database at"),
        "not a database": (f"sqlite:///{tmp_path}/garbage.db", "file is not a database"),
        "a directory for a file": (f"sqlite:///{tmp_path}", "is a directory"),
    }


def postgres_cases(postgres: Any, role: str, hung: int) -> dict[str, tuple[str, str]]:
    """PostgreSQL URLs that cannot be opened, and what is said of each."""
    url = postgres.url()
    at = f"127.0.0.1:{postgres.port}"
    return {
        "missing database": (postgres.url("nosuch"), 'database "nosuch" does not exist'),
        "missing role": (f"postgresql://nobody@{at}/postgres", 'role "nobody" does not exist'),
        "wrong password": (f"postgresql://{role}:wrong@{at}/postgres", "wrong password"),
        "no password": (f"postgresql://{role}@{at}/postgres", "gives no password"),
        "nothing listening": (
            url.replace(f":{postgres.port}/", f":{free_port()}/"),
            "cannot reach the database server",
        ),
        "no such host": ("postgresql://u@nosuchhost.invalid/db", "cannot reach the database"),
        "a bad option": (url + "?sslmode=bogus", "sslmode"),
        "a server that hangs": (url.replace(f":{postgres.port}/", f":{hung}/"), "no answer"),
    }


def test_an_admin_command_says_which_database_it_cannot_open(
    tmp_path: Path,
    postgres: Any,
    locked_role: str,
    hung_server: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cases = sqlite_cases(tmp_path) | postgres_cases(postgres, locked_role, hung_server)
    for case, (url, said) in cases.items():
        code, out, err = run(capsys, "ratings", "--database", url)
        line = refused(code, err)
        assert code == 1 and out == "", case
        assert line.startswith("splendor-server ratings: ") and said in line, (case, line)
        assert ":wrong@" not in line  # never the password


def test_copy_db_says_which_database_it_cannot_open(
    tmp_path: Path, postgres: Any, locked_role: str, capsys: pytest.CaptureFixture[str]
) -> None:
    good = default_url(tmp_path / "good")
    asyncio.run(_make(good))
    cases = sqlite_cases(tmp_path) | postgres_cases(postgres, locked_role, 0)
    del cases["a server that hangs"]  # one wait of 5 s is enough (above)
    for case, (url, said) in cases.items():
        for argv in (["--from", url, "--to", good], ["--from", good, "--to", url]):
            if case == "missing file" and argv[3] == url:
                continue  # a target is made when missing
            code, _, err = run(capsys, "copy-db", *argv)
            assert code == 1 and said in refused(code, err), (case, argv, err)


def test_a_sqlite_database_where_nothing_may_be_written_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A directory without the write bit (SQLite writes its journal there); as root, who
    may write anywhere else, /proc."""
    good = default_url(tmp_path / "good")
    asyncio.run(_make(good))
    if os.geteuid() == 0:
        url, said = "sqlite:////proc/splendor-test.db", "cannot open the SQLite database"
    else:
        where = tmp_path / "readonly"
        url, said = default_url(where), "cannot write in"
        asyncio.run(_make(url))
        where.chmod(0o500)
        code, _, err = run(capsys, "ratings", "--database", url)
        assert code == 1 and said in refused(code, err)
    code, _, err = run(capsys, "copy-db", "--from", good, "--to", url)
    assert code == 1 and said in refused(code, err)


@pytest.mark.parametrize(
    "case",
    ["missing directory", "a file for a directory", "not a database", "missing database",
     "missing role", "wrong password", "nothing listening"],
)  # fmt: skip
def test_the_server_says_which_database_it_cannot_open_and_exits(
    tmp_path: Path, postgres: Any, locked_role: str, case: str
) -> None:
    """A real `splendor-server --database URL` (and with --workers 2, its supervisor)."""
    cases = sqlite_cases(tmp_path) | postgres_cases(postgres, locked_role, 0)
    url, said = cases[case]
    workers = ["--workers", "2"] if url.startswith("postgresql") else []
    command = [sys.executable, "-m", "server.commands.cli", "--host", "127.0.0.1", "--port", "0"]
    command += ["--data-dir", str(tmp_path / "data"), "--log-level", "WARNING"]
    done = subprocess.run(
        [*command, "--database", url, *workers],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    line = refused(done.returncode, done.stderr)
    assert line.startswith("splendor-server: ") and said in line, line
