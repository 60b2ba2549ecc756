"""Which shared libraries a program needs and loads: its NEEDED entries, the objects the dynamic
loader initialises in one run, and the files the running monitor maps (tests of libraries loaded
on demand: libcurl by the cluster view, libzstd by recordings)."""
import os
import pty
import select
import subprocess
import time


def needed(binary):
    """The NEEDED entries of an ELF file's dynamic section (readelf -d)."""
    out = subprocess.run(['readelf', '-d', binary], capture_output=True, text=True,
                         check=True).stdout
    return [line.split('[', 1)[1].rstrip(']') for line in out.splitlines() if '(NEEDED)' in line]


def loaded_libs(binary, args, scenario=None, env=None):
    """(exit status, stdout, objects the dynamic loader opened) of one run, from LD_DEBUG=libs."""
    env = dict(os.environ if env is None else env, LD_DEBUG='libs')
    if scenario is not None:
        env['NVML_SIM_SCENARIO'] = scenario
    else:
        env.pop('NVML_SIM_SCENARIO', None)
    proc = subprocess.run([binary, *args], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, check=False)
    opened = [line.split('calling init: ', 1)[1] for line in proc.stderr.splitlines()
              if 'calling init: ' in line]
    return proc.returncode, proc.stdout, opened


def monitor_maps(binary, scenario, drawn, check):
    """The files mapped by the local monitor once it shows `drawn` (bytes; in a pseudo-terminal),
    read from /proc/PID/maps; the monitor is then stopped.  check(condition, message) reports."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ['NVML_SIM_SCENARIO'] = scenario
        os.environ['TERM'] = 'xterm-256color'
        os.execv(binary, [binary])
    try:
        screen = b''
        deadline = time.monotonic() + 30
        # Drawn when its header is on screen: by then NVML and the terminal are set up.
        while drawn not in screen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                try:
                    screen += os.read(fd, 65536)
                except OSError:
                    break
        check(drawn in screen, f'the monitor did not draw its screen: {screen[-500:]!r}')
        with open(f'/proc/{pid}/maps', encoding='utf-8') as f:
            return [line.split()[-1] for line in f if '/' in line]
    finally:
        os.write(fd, b'q')
        for _ in range(50):
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                break
            time.sleep(0.1)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
