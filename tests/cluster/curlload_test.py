"""libcurl is loaded only by the cluster view: nvitop has no libcurl among its NEEDED entries,
`nvitop -1` and the running monitor (local GPUs) never map it, `nvitop -1 --hosts` does, and a
missing or unusable libcurl (NVITOP_LIBCURL_LIBRARY, a test hook) is one line and exit code 1."""
import os
import pty
import select
import subprocess
import time

from cluster_lib import check, main_wrapper, refusing_port, run_nvitop, scenario_path

LOADED = 'libcurl.so'
DRAWN = b'Driver Version: 570.86.15'  # the 8-GPU scenario's driver, in the header


def needed(binary):
    """The NEEDED entries of an ELF file's dynamic section (readelf -d)."""
    out = subprocess.run(['readelf', '-d', binary], capture_output=True, text=True,
                         check=True).stdout
    return [line.split('[', 1)[1].rstrip(']') for line in out.splitlines() if '(NEEDED)' in line]


def loaded_libs(binary, args, scenario=None):
    """(exit status, stdout, objects the dynamic loader opened) of one run, from LD_DEBUG=libs."""
    env = dict(os.environ, LD_DEBUG='libs')
    if scenario is not None:
        env['NVML_SIM_SCENARIO'] = scenario
    else:
        env.pop('NVML_SIM_SCENARIO', None)
    proc = subprocess.run([binary, *args], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, check=False)
    opened = [line.split('calling init: ', 1)[1] for line in proc.stderr.splitlines()
              if 'calling init: ' in line]
    return proc.returncode, proc.stdout, opened


def monitor_maps(binary, scenario):
    """The files mapped by the local monitor once it has drawn its screen (in a pseudo-terminal),
    read from /proc/PID/maps; the monitor is then stopped."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ['NVML_SIM_SCENARIO'] = scenario
        os.environ['TERM'] = 'xterm-256color'
        os.execv(binary, [binary])
    try:
        screen = b''
        deadline = time.monotonic() + 30
        # Drawn when its header is on screen: by then NVML and the terminal are set up.
        while DRAWN not in screen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                try:
                    screen += os.read(fd, 65536)
                except OSError:
                    break
        check(DRAWN in screen, f'the monitor did not draw its screen: {screen[-500:]!r}')
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


def test(argv):
    nvitop = argv[0]
    scenario = scenario_path('h100-8gpu')
    check(not any(LOADED in n for n in needed(nvitop)), f'NEEDED: {needed(nvitop)}')

    code, out, opened = loaded_libs(nvitop, ['-1'], scenario)
    check(code == 0 and 'H100' in out, f'nvitop -1: exit {code}\n{out}')
    check(not any(LOADED in o for o in opened), f'nvitop -1 loaded libcurl: {opened}')
    code, out, opened = loaded_libs(nvitop, ['--version'])
    check(code == 0 and not any(LOADED in o for o in opened), f'--version loaded: {opened}')

    maps = monitor_maps(nvitop, scenario)
    check(not any(LOADED in m for m in maps), f'the monitor maps libcurl: {sorted(set(maps))}')

    # The cluster view does load it (so the checks above can see it when it is there).
    with refusing_port() as refused:
        code, out, opened = loaded_libs(nvitop, ['-1', '--hosts', f'127.0.0.1:{refused}'])
        check(code == 1 and 'refused' in out, f'--hosts: exit {code}\n{out}')
        check(any(LOADED in o for o in opened), f'--hosts did not load libcurl: {opened}')

        # A missing libcurl, then a library without curl's functions (the simulated driver).
        missing = '/nonexistent/libcurl.so.4'
        nvml = os.environ.get('NVITOP_NVML_LIBRARY', '')
        cases = [(missing, f'nvitop: --hosts and --prometheus need libcurl ({missing}): '
                           'install the libcurl4 package\n')]
        if nvml:
            cases.append((nvml, 'nvitop: --hosts and --prometheus need libcurl (no '
                                f'curl_global_init in {nvml}): install the libcurl4 package\n'))
        for library, expected in cases:
            for args in (['-1', '--hosts', f'127.0.0.1:{refused}'],
                         ['--json', '--prometheus', f'http://127.0.0.1:{refused}']):
                os.environ['NVITOP_LIBCURL_LIBRARY'] = library
                try:
                    code, out, err, _ = run_nvitop(nvitop, args)
                finally:
                    del os.environ['NVITOP_LIBCURL_LIBRARY']
                check(code == 1, f'{library} {args}: exit {code}; stderr: {err}')
                check(out == '' and err == expected, f'{library} {args}: {out!r} {err!r}')


if __name__ == '__main__':
    main_wrapper(test)
