"""``symcute serve``'s bad options: one line, exit status 2, before anything listens."""

from __future__ import annotations

import socket

import pytest


@pytest.mark.parametrize("args,message", [
    (["--port", "70000"], "--port 70000: expected 0 to 65535"),
    (["--port", "-1"], "--port -1: expected 0 to 65535"),
    (["--workers", "0"], "--workers 0: expected 1 to 64"),
    (["--slow", "65"], "--slow 65: expected 0 to 64"),
    (["--seconds", "0"], "--seconds 0.0: expected more than 0"),
    (["--seconds", "nan"], "--seconds nan: expected more than 0"),
    (["--host", "no.such.host.invalid"], "--host no.such.host.invalid --port 0: cannot listen there"),
    (["--port", "x"], "argument --port: invalid int value"),
])
def test_bad_options_are_one_line(cli, args, message):
    code, out, err = cli(["serve", "--port", "0"] + args if args[0] != "--port" else ["serve"] + args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_a_port_in_use_is_one_line(cli):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, _, err = cli(["serve", "--port", str(port)])
    assert code == 2 and "cannot listen there" in err and err.count("\n") == 1
