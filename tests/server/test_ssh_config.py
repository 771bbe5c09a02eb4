"""Settings and the host key: defaults, the TOML file, the command line, first start."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from server.commands.cli import parse_args, worker_argv
from server.front.config import Config, ConfigError, load_config, workers_setting
from server.front.ssh import HOST_KEY_FILE, load_host_key
from server.host.identity import check_name


def test_defaults_are_the_documented_ones():
    c = load_config()
    assert (c.host, c.port, c.data_dir, c.allow_guests) == ("0.0.0.0", 2222, "data", True)


def test_file_then_command_line(tmp_path):
    path = tmp_path / "splendor.toml"
    path.write_text('port = 2200\nallow_guests = false\npublic_host = "play.example.org"\n')
    c = load_config(path, port=None, allow_guests=None)
    assert (c.port, c.allow_guests, c.public_host) == (2200, False, "play.example.org")
    c = load_config(path, port=2300, allow_guests=True)  # options win over the file
    assert (c.port, c.allow_guests) == (2300, True)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("prot = 22\n", "unknown setting 'prot'"),
        ('port = "22"\n', "port should be a whole number"),
        ("allow_guests = 1\n", "allow_guests should be true or false"),
        ("port = 70000\n", "port 70000 is not 0..65535"),
        ("write_buffer_low = 10\nwrite_buffer_high = 5\n", "write_buffer_low"),
        ("port = \n", "not valid TOML"),
        ("workers = 2\n", "2 workers need PostgreSQL"),
        ('workers = 2\ndatabase = "sqlite:///x.db"\n', "2 workers need PostgreSQL"),
        ("workers = 0\n", "workers must be at least 1"),
        ('workers = "many"\n', "workers should be a whole number"),
    ],
)
def test_bad_settings_stop_the_server_with_a_message(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_database_and_workers():
    assert load_config().database_url == "sqlite:///data/splendor.db"  # in the data directory
    url = "postgresql://splendor@db/splendor"
    c = load_config(database=url, workers=workers_setting("auto"))
    assert c.database_url == url and c.workers == (os.cpu_count() or 1)
    path = Path(os.devnull)
    assert load_config(path, database=url, workers=3).workers == 3
    with pytest.raises(ConfigError, match="a whole number or"):
        workers_setting("lots")
    args = parse_args(["--database", url, "--workers", "auto"])
    assert (args.database, args.workers) == (url, "auto")


def test_the_supervisor_gives_each_worker_its_own_port_options():
    argv = ["--database", "postgresql://x/y", "--workers", "2", "--port=2222", "--port-file", "f"]
    assert worker_argv(argv) == ["--database", "postgresql://x/y"]


def test_command_line_options():
    args = parse_args(["--port", "0", "--no-guests", "--data-dir", "/srv/x", "--host", "::1"])
    assert (args.port, args.allow_guests, args.data_dir, args.host) == (0, False, "/srv/x", "::1")
    assert parse_args([]).allow_guests is None  # unset: the file or the default decides


def test_terminal_sizes_are_clamped():
    c = Config()
    assert c.clamp_size(0, 0) == (80, 24)
    assert c.clamp_size(1, 1) == (20, 8)
    assert c.clamp_size(10_000, 10_000) == (400, 150)


def test_the_host_key_is_made_once_with_mode_600(tmp_path):
    data = tmp_path / "data"
    key = load_host_key(data)
    mode = stat.S_IMODE((data / HOST_KEY_FILE).stat().st_mode)
    assert mode == 0o600
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert (data / (HOST_KEY_FILE + ".pub")).exists()
    again = load_host_key(data)
    assert again.get_fingerprint() == key.get_fingerprint()
    assert key.algorithm == b"ssh-ed25519"


@pytest.mark.parametrize(("raw", "name"), [("Ann", "ann"), ("bob_2", "bob_2"), ("x-y", "x-y")])
def test_names(raw, name):
    assert check_name(raw) == name
