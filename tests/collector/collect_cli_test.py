#!/usr/bin/env python3
"""nvitop-collect, the real binary against the simulated driver.

A shell job starts a process through a subshell that exits, so the process is an orphan (which
nvitop-collect, a subreaper, adopts); the job then rewrites the scenario so that the driver lists
the orphan as a GPU process (after the first row, so the CSV header has to be widened); its keys
must appear with the scenario's values, pid 1 (not a descendant) must not, and the exit status
must be the job's.  Then: JSON Lines, signals passed on to the job (its status 128+N when it
dies of one), and our own errors (usage, missing command) with their messages and statuses.

usage: collect_cli_test.py NVITOP_COLLECT SCENARIO
"""
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BIN, SCENARIO = sys.argv[1], sys.argv[2]
TIMEOUT = 60
TAG = "metrics-daemon"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


def env_for(scenario):
    env = dict(os.environ)
    env["NVML_SIM_SCENARIO"] = scenario
    env["NVML_SIM_TIME"] = "100"
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env.pop("NVT_COLL_PID", None)
    return env


def job_script(work):
    """The job: start a sleeping process from a subshell that exits at once (the orphan is
    reparented to nvitop-collect, a subreaper, so it still descends from it), wait past the first
    row, list the orphan in the scenario, let a few rows pass, end it and exit 7."""
    return (
        f"(sleep 30 & echo $! > {work}/child.pid)\n"
        f"child=$(cat {work}/child.pid)\n"
        "sleep 1.2\n"
        f"sed 's/\"${{NVT_COLL_PID:-4194300}}\"/'$child'/' {work}/template.json > {work}/s.tmp\n"
        f"mv {work}/s.tmp {work}/scenario.json\n"
        "sleep 1.5\n"
        "kill $child\n"
        "exit 7\n"
    )


def test_csv_rows_and_status(work):
    scenario = os.path.join(work, "scenario.json")
    shutil.copy(SCENARIO, os.path.join(work, "template.json"))
    shutil.copy(SCENARIO, scenario)
    out = os.path.join(work, "run.csv")
    proc = subprocess.run(
        [BIN, "-o", out, "--every", "0.5", "--interval", "0.25", "--", "sh", "-c",
         job_script(work)],
        env=env_for(scenario), timeout=TIMEOUT, capture_output=True, text=True)
    check(proc.returncode == 7, f"csv: exit status {proc.returncode}, expected the job's 7")
    check(proc.stderr == "", f"csv: unexpected stderr {proc.stderr!r}")
    child = open(os.path.join(work, "child.pid")).read().strip()
    with open(out, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    check(header[0] == f"{TAG}/host/cpu_percent (%)/mean", f"csv: first column {header[0]!r}")
    for name in (f"{TAG}/duration (s)", f"{TAG}/timestamp"):
        check(name in header, f"csv: no column {name!r}")
    check(len(body) >= 4, f"csv: {len(body)} rows, expected at least 4 over ~2.7 s")
    check(all(len(r) == len(header) for r in body), "csv: rows and header differ in width")
    col = {name: i for i, name in enumerate(header)}
    for name in (f"{TAG}/gpu:0/temperature (C)/mean", f"{TAG}/gpu:(1, 0)/memory_used (MiB)/max"):
        check(name in col, f"csv: no column {name!r}")
    temps = [r[col[f"{TAG}/gpu:0/temperature (C)/mean"]] for r in body]
    check(all(t == "60" for t in temps), f"csv: temperatures {temps}")
    key = f"{TAG}/pid:{child}/gpu:0/gpu_memory (MiB)/mean"
    check(key in col, f"csv: the forked child's key {key!r} is missing")
    if key in col:
        cells = [r[col[key]] for r in body]
        check(cells[0] == "", f"csv: first row should predate the child: {cells[0]!r}")
        check("512" in cells, f"csv: the child's GPU memory never 512 MiB: {cells}")
    check(not any(name.startswith(f"{TAG}/pid:1/") for name in header),
          "csv: pid 1 is not a descendant of the job but was recorded")
    running = f"{TAG}/pid:{child}/host/running_time (min)"
    check(running in col, f"csv: no {running!r} (one key, no statistic)")


def test_jsonl_and_signal(work):
    out = os.path.join(work, "run.jsonl")
    env = env_for(SCENARIO)
    ready = os.path.join(work, "ready")
    script = f"sleep 30 & trap 'kill $!; exit 9' TERM; touch {ready}; wait $!"
    proc = subprocess.Popen([BIN, "-o", out, "-e", "0.3", "-t", "train", "--", "sh", "-c",
                             script], env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:  # the job's trap is set and a first row is written
        if os.path.exists(ready) and os.path.exists(out) and os.path.getsize(out) > 0:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=TIMEOUT)
    check(proc.returncode == 9, f"jsonl: SIGTERM not passed on? status {proc.returncode}")
    lines = open(out).read().splitlines()
    check(len(lines) >= 2, f"jsonl: {len(lines)} lines")
    row = json.loads(lines[-1])
    check(row.get("train/gpu:0/power_usage (W)/last") == 200, "jsonl: power of GPU 0")
    check(row.get("train/gpu:1/fan_speed (%)/mean", 0) is None, "jsonl: N/A fan is not null")
    # Killed by a signal: 128 + N, as a shell reports it.
    proc = subprocess.run([BIN, "-o", os.path.join(work, "k.csv"), "--", "sh", "-c",
                           "kill -KILL $$"], env=env, timeout=TIMEOUT)
    check(proc.returncode == 128 + 9, f"killed job: status {proc.returncode}")


def run(args, env):
    return subprocess.run([BIN] + args, env=env, timeout=TIMEOUT, capture_output=True, text=True)


def test_own_errors(work):
    env = env_for(SCENARIO)
    proc = run([], env)
    check(proc.returncode == 125, f"no command: status {proc.returncode}")
    check(proc.stderr.endswith(
        "nvitop-collect: error: the following arguments are required: COMMAND\n"),
        f"no command: {proc.stderr!r}")
    proc = run(["--format", "xml", "true"], env)
    check(proc.returncode == 125 and "invalid choice: 'xml' (choose csv or jsonl)" in
          proc.stderr, f"bad format: {proc.returncode} {proc.stderr!r}")
    proc = run(["--interval", "0.1", "true"], env)
    check(proc.returncode == 125 and "argument --interval: '0.1' is not a number of seconds"
          in proc.stderr, f"short interval: {proc.stderr!r}")
    proc = run(["-o", os.path.join(work, "x.csv"), "--", "/nonexistent/job"], env)
    check(proc.returncode == 127, f"missing command: status {proc.returncode}")
    check(proc.stderr == "nvitop-collect: cannot run '/nonexistent/job': "
          "No such file or directory\n", f"missing command: {proc.stderr!r}")
    proc = run(["-o", "/nonexistent/dir/x.csv", "true"], env)
    check(proc.returncode == 125 and "cannot open '/nonexistent/dir/x.csv' for writing" in
          proc.stderr, f"unwritable output: {proc.stderr!r}")
    proc = run(["-d", "7", "true"], env)
    check(proc.returncode == 125 and proc.stderr == "nvitop-collect: invalid device: "
          "Invalid Argument\n", f"bad device: {proc.stderr!r}")
    no_driver = dict(env)
    no_driver["NVML_SIM_SCENARIO"] = os.path.join(work, "missing.json")
    proc = run(["true"], no_driver)
    check(proc.returncode == 125 and "nvitop-collect: NVML ERROR:" in proc.stderr,
          f"no driver: {proc.returncode} {proc.stderr!r}")
    proc = run(["--version"], env)
    check(proc.returncode == 0 and proc.stdout.startswith("nvitop-collect "), "--version")
    proc = run(["--help"], env)
    check(proc.returncode == 0 and proc.stdout.startswith("usage: nvitop-collect [-o FILE]"),
          "--help")
    check(all(len(line) <= 79 for line in proc.stdout.splitlines()), "--help wider than 79")
    # Every option of --help is in the manual page and the bash completion.
    source = os.environ.get("NVT_SOURCE_DIR", ".")
    man = open(os.path.join(source, "docs/man/nvitop-collect.1.scd")).read()
    completion = open(os.path.join(source, "completions/nvitop-collect.bash")).read()
    options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+|-[a-zA-Z])\b", proc.stdout))
    check(len(options) == 18, f"--help: only {sorted(options)}")
    for option in sorted(options):
        check("*" + option + "*" in man, f"man page lacks {option}")
        check(re.search(r"(?<![\w-])" + re.escape(option) + r"\b", completion) is not None,
              f"completion lacks {option}")
    # A reader that goes away: reported, and the job's status still returned.
    proc = subprocess.Popen([BIN, "-e", "0.2", "--", "sh", "-c", "sleep 1; exit 4"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.read(10)
    proc.stdout.close()
    _, err = proc.communicate(timeout=TIMEOUT)
    check(proc.returncode == 4 and err == "nvitop-collect: cannot write to standard output: "
          "Broken pipe; no more rows are written\n", f"closed pipe: {proc.returncode} {err!r}")
    # Options after the command belong to the command.
    proc = run(["-o", "-", "--", "sh", "-c", "exit 0", "-o", "x"], env)
    check(proc.returncode == 0 and proc.stdout.startswith(f"{TAG}/host/"),
          f"stdout CSV: {proc.returncode} {proc.stdout[:80]!r}")


def main():
    work = tempfile.mkdtemp(prefix="nvt-collect-test.")
    try:
        test_csv_rows_and_status(work)
        test_jsonl_and_signal(work)
        test_own_errors(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("collect_cli_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
