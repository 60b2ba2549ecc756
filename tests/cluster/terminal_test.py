"""Text from outside reaches the administrator's terminal only as plain characters: a local GPU
process whose command line holds escape sequences (nvitop -1, and the monitor in tmux, whose
pane title must not change), and a node whose labels hold them (nvitop -1 --hosts).  Control
characters and invalid UTF-8 print as '?'; nothing else changes."""
import json
import os
import shlex
import signal
import subprocess
import tempfile

from cluster_lib import check, main_wrapper, run_nvitop, served, wait_until
from exporter_lib import load_scenario, write_scenario
from screen_test import Tmux

# Retitles the terminal and clears it; then a C1 CSI and invalid UTF-8.
HOSTILE = b'\x1b]0;pwned\x07\x1b[2J\xc2\x9b31m\xff'
SHOWN = '?]0;pwned??[2J?31m?'


def local_process(nvitop):
    """nvitop -1 with a GPU process whose argv holds HOSTILE."""
    job = subprocess.Popen([b'sh', b'-c', b'sleep 120; exit 0', HOSTILE], executable='/bin/sh',
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           start_new_session=True)
    try:
        def argv_set():
            with open(f'/proc/{job.pid}/cmdline', 'rb') as f:
                return HOSTILE in f.read()
        wait_until(argv_set, 10, 'the job\'s argv')
        scenario = load_scenario('h100-8gpu', {'NVT_STANDIN_1': str(job.pid)})
        with tempfile.TemporaryDirectory(prefix='nvt-terminal-') as tmp:
            path = os.path.join(tmp, 'scenario.json')
            write_scenario(path, scenario)
            env = dict(os.environ, NVML_SIM_SCENARIO=path, NVML_SIM_TIME='1000', COLUMNS='200')
            for args in (['-1'], ['-1', '--only', '0']):
                proc = subprocess.run([nvitop, *args], env=env, stdin=subprocess.DEVNULL,
                                      capture_output=True, timeout=60, check=False)
                out = proc.stdout
                check(proc.returncode == 0, f'{args}: status {proc.returncode}: {proc.stderr}')
                check(b'\x1b' not in out and b'\x07' not in out and b'\xff' not in out and
                      b'\xc2\x9b' not in out, f'{args}: raw control bytes reach the terminal:\n'
                      f'{out!r}')
                line = [x for x in out.decode().splitlines() if str(job.pid) in x]
                check(line and f'sh -c "sleep 120; exit 0" {SHOWN}' in line[0],
                      f'{args}: the process line {line!r} does not show {SHOWN!r}')
            monitor(nvitop, path, job.pid)
    finally:
        os.killpg(job.pid, signal.SIGKILL)
        job.wait(timeout=10)


def monitor(nvitop, scenario, pid):
    """The monitor shows the command line with '?' and the terminal keeps its title."""
    command = (f'NVML_SIM_SCENARIO={shlex.quote(scenario)} NVML_SIM_TIME=1000 '
               f'{shlex.quote(nvitop)}; sleep 60')
    tmux = Tmux(command)
    try:
        screen = wait_until(lambda: (lambda s: s if SHOWN in s else None)(tmux.capture()), 20,
                            f'the monitor showing {SHOWN!r}')
        check(str(pid) in screen, f'the process is not on the screen:\n{screen}')
        title = subprocess.run(['tmux', '-L', tmux.socket, 'display-message', '-p',
                                '#{pane_title}'], capture_output=True, check=True,
                               timeout=20).stdout.decode().strip()
        check('pwned' not in title, f'the monitor let the command line retitle the terminal: '
              f'{title!r}')
        tmux.keys('q')
    finally:
        tmux.close()


def hostile_node(nvitop):
    """nvitop -1 --hosts with a node whose hostname and user labels hold HOSTILE."""
    body = (b'gpu_memory_total_MiB{index="0",hostname="' + HOSTILE + b'"} 1024\n'
            b'process_info_info{index="0",hostname="h",pid="7",username="' + HOSTILE +
            b'",command="x",status="running"} 1\n'
            b'process_gpu_memory_MiB{index="0",hostname="h",pid="7",username="' + HOSTILE +
            b'"} 512\n')
    with served({'/metrics': (200, body)}) as port:
        code, out, err, _ = run_nvitop(nvitop, ['-1', '--timeout', '5', '--hosts',
                                                f'127.0.0.1:{port}'])
        check(code == 0 and err == '', f'--hosts: status {code}, stderr {err!r}')
        check('\x1b' not in out and '\x07' not in out and '\ufffd' not in out,
              f'raw control bytes reach the terminal:\n{out!r}')
        check(f' {SHOWN} ' in out, f'the hostname is not shown as {SHOWN!r}:\n{out}')
        check(f'{SHOWN} 0.5GiB' in out, f'the user is not shown as {SHOWN!r}:\n{out}')
        # JSON keeps the text, escaped by the JSON writer.
        code, out, err, _ = run_nvitop(nvitop, ['--json', '--timeout', '5', '--hosts',
                                                f'127.0.0.1:{port}'])
        check(code == 0 and '\x1b' not in out, f'--json: status {code}, {out!r}')
        summary = json.loads(out)['nodes'][0]['summary']
        check(summary['hostname'] == '\x1b]0;pwned\x07\x1b[2J\x9b31m\ufffd', f'{summary}')


def test(argv):
    nvitop = argv[0]
    local_process(nvitop)
    hostile_node(nvitop)


if __name__ == '__main__':
    main_wrapper(test)
