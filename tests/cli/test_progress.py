"""Progress bars: drawn on a terminal only (stderr), never into pipes, files or tests; --quiet turns them off."""

import io

from symcute.cli.progress import Bar


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_bar_draws_on_a_terminal_and_clears_its_line():
    tty = Terminal()
    with Bar("lint", stream=tty) as bar:
        for k in range(1, 101):
            bar(k, 100)
    text = tty.getvalue()
    assert "\rlint [" in text and "100/100" in text and text.endswith("\r")


def test_bar_is_silent_off_a_terminal_and_when_quiet():
    pipe, tty = io.StringIO(), Terminal()
    for stream, enabled in ((pipe, True), (tty, False)):
        with Bar("lint", enabled=enabled, stream=stream) as bar:
            bar(1, 2)
            bar(2, 2)
    assert pipe.getvalue() == "" and tty.getvalue() == ""


def test_commands_print_no_bar_when_stderr_is_not_a_terminal(cli):
    code, _, err = cli(["derive", "catalog", "--filter", "SM80_16x8x16_F16F16F16F16_TN"])
    assert code == 0
    assert err == ""
    assert cli(["derive", "catalog", "--filter", "SM80_16x8x16_F16F16F16F16_TN", "--quiet"]).code == 0
