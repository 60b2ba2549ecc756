#!/usr/bin/env python3
"""Mask the host-dependent parts of a captured monitor screen, so that it can be compared with
an expected text on any machine.  Reads the screen on stdin, writes the masked text on stdout.

What is masked, and why (everything else must match exactly):
  * the clock at the start of the first line (wall time);
  * the compact host lines "[ CPU: ... ]" / "[ MEM: ... ]" (this machine's load and memory);
  * in the full host panel: Braille graph cells (they depend on how long the monitor ran), and
    the figures after "Load Average:", "CPU:", "MEM:" and "SWP:";
  * "user@host" on the "Processes:" line, and the superuser caution (depends on who runs it);
  * in process rows: the pid and user (stand-in processes get fresh pids), and the %CPU, %MEM and
    TIME columns (real processes of this machine).
Frames may be ASCII ("|" for "│").  Masked figures have variable widths, so the blanks between a masked token and the next "│" are
collapsed to one.  Trailing blanks are removed from every line.
"""
import re
import sys

CLOCK = re.compile(r"^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}")
BRAILLE = re.compile("[\u2800-\u28ff]")
ROW = re.compile(r"^([│|][ 0-9:]{4}) ([ 0-9.]{7}) ([CGX]|N/A) (.{7}) (.{8} .{3} .{5}) (.*)$")
HOST_INFO = re.compile(r"^ *(\S+) +(\S+)  +(\S+(?: days)?)  ")


def mask_row(line):
    match = ROW.match(line)
    if match is None:
        return line
    gpu, _pid, kind, _user, gpu_part, host = match.groups()
    host = HOST_INFO.sub("<cpu> <mem> <time>  ", host, count=1)
    return f"{gpu} <pid>   {kind} <user>  {gpu_part} {host}"


def mask(line):
    line = CLOCK.sub("<clock>", line)
    stripped = line.lstrip()
    if stripped.startswith("[ CPU:"):
        return "<host cpu line>"
    if stripped.startswith("[ MEM:"):
        return "<host memory line>"
    line = BRAILLE.sub(" ", line)
    line = re.sub(r"Load Average:(?: +\S+){3}", "Load Average: <load>", line)
    line = re.sub(r"│ CPU: \S+", "│ CPU: <cpu>", line)
    line = re.sub(r"│ (MEM|SWP): \S+ \(\S+\)", r"│ \1: <used> (<percent>)", line)
    line = re.sub(r"\S+@\S+ ([│|])$", r"<user>@<host> \1", line)
    line = re.sub(r" +<user>@<host> ([│|])$", r" <user>@<host> \1", line)
    line = line.replace("!CAUTION: SUPERUSER LOGGED-IN.", " " * 30)
    line = mask_row(line)
    return re.sub(r"(<load>|<cpu>|\(<percent>\)) +([│|])", r"\1 \2", line)


def main():
    for line in sys.stdin.read().splitlines():
        print(mask(line).rstrip())


if __name__ == "__main__":
    main()
