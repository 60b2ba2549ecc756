#!/usr/bin/env python3
"""nvitop-exporter in a chroot, in a mount namespace of its own: the mount table it reads there
lists no disk visible inside (the file system holding the chroot is mounted outside it), yet "/"
must be reported, as in a container or a chroot where exporters often run.

The chroot holds copies of the exporter, the shared objects `ldd` names for it and for the
simulated driver, and a scenario.  Skipped (exit 77) where the test may not make a mount
namespace or chroot (not root, no unshare(1)).

usage: chroot_test.py NVITOP-EXPORTER
"""
import http.client
import os
import shutil
import subprocess
import sys
import tempfile
import time

import exporter_lib as lib


def libraries(binary, env):
    """The absolute paths of the shared objects binary loads."""
    out = subprocess.run(['ldd', binary], env=env, capture_output=True, check=True,
                         timeout=30).stdout.decode()
    paths = []
    for line in out.splitlines():
        words = line.split()
        if '=>' in words and words.index('=>') + 1 < len(words):
            path = words[words.index('=>') + 1]
        else:
            path = words[0] if words else ''
        if path.startswith('/'):
            paths.append(path)
    return paths


def copy_into(root, path, where=None):
    """Copy path (following links) to the same place under root, or to root/where."""
    target = os.path.join(root, (where or path).lstrip('/'))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copy(os.path.realpath(path), target)


def find_driver():
    for directory in os.environ.get('LD_LIBRARY_PATH', '').split(':'):
        candidate = os.path.join(directory, 'libnvidia-ml.so.1')
        if directory and os.path.isfile(candidate):
            return candidate
    raise lib.Failure('no simulated driver (libnvidia-ml.so.1) in LD_LIBRARY_PATH')


def build_root(root, exporter):
    driver = find_driver()
    copy_into(root, exporter, '/bin/nvitop-exporter')
    copy_into(root, driver, '/lib/nvt/libnvidia-ml.so.1')
    for path in libraries(exporter, os.environ) + libraries(driver, os.environ):
        if os.path.basename(path) == 'libnvitop.so.0':
            copy_into(root, path, '/lib/nvt/libnvitop.so.0')
        else:
            copy_into(root, path)
    shutil.copy(lib.scenario_path('h100-8gpu'), os.path.join(root, 'scenario.json'))
    os.makedirs(os.path.join(root, 'proc'))
    os.makedirs(os.path.join(root, 'tmp'))


def scrape(port):
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    try:
        conn.request('GET', '/metrics')
        response = conn.getresponse()
        body = response.read().decode('utf-8')
        return body if response.status == 200 else None
    finally:
        conn.close()


def metric_lines(body, name):
    return [line for line in body.splitlines() if line.startswith(name + '{')]


def main():
    exporter = os.path.abspath(sys.argv[1])
    if os.geteuid() != 0 or shutil.which('unshare') is None:
        print('SKIP: needs root and unshare(1) for a mount namespace and a chroot')
        return 77
    probe = subprocess.run(['unshare', '--mount', 'true'], capture_output=True, timeout=30)
    if probe.returncode != 0:
        print(f'SKIP: unshare --mount refused: {probe.stderr.decode().strip()}')
        return 77
    root = tempfile.mkdtemp(prefix='nvt-chroot-')
    os.chmod(root, 0o755)
    proc = None
    log = tempfile.TemporaryFile()
    try:
        build_root(root, exporter)
        port = lib.free_port()
        env = {'PATH': os.environ.get('PATH', '/usr/sbin:/usr/bin:/sbin:/bin'), 'LD_LIBRARY_PATH': '/lib/nvt', 'NVML_SIM_SCENARIO': '/scenario.json',
               'NVML_SIM_TIME': str(int(lib.FROZEN_TIME))}
        for key in ('ASAN_OPTIONS', 'UBSAN_OPTIONS'):
            if key in os.environ:
                env[key] = os.environ[key]
        script = ('mount --make-rprivate / && mount -t proc proc "$1/proc" && '
                  'exec chroot "$1" /bin/nvitop-exporter --bind-address 127.0.0.1 '
                  '--port "$2" --hostname testhost')
        proc = subprocess.Popen(['unshare', '--mount', 'sh', '-c', script, 'sh', root, str(port)],
                                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=log)

        def stderr():
            log.seek(0)
            return log.read().decode('utf-8', 'replace')

        lib.wait_until(lambda: proc.poll() is not None or 'INFO: Start the exporter' in stderr(),
                       30, 'the exporter to start in the chroot')
        lib.check(proc.poll() is None, f'the exporter exited in the chroot: {stderr()}')
        body = lib.wait_until(lambda: scrape(port), 20, 'a scrape')
        # The mount table inside: proc only (a nodev type), nothing psutil would keep.
        totals = metric_lines(body, 'host_disk_usage_total_MiB')
        lib.check(len(totals) == 1, f'host_disk_usage_total_MiB: {totals}')
        lib.check(totals[0].startswith('host_disk_usage_total_MiB{hostname="testhost",'
                                       'mountpoint="/"} '), f'the root file system: {totals[0]}')
        st = os.statvfs(root)
        expected = st.f_blocks * st.f_frsize / 1048576
        got = float(totals[0].rpartition(' ')[2])
        lib.check(abs(got - expected) <= 1e-6 * expected, f'/ total {got} MiB, expected {expected}')
        for name in ('host_disk_usage_used_MiB', 'host_disk_usage_free_MiB',
                     'host_disk_usage_percent_Percentage'):
            lib.check(len(metric_lines(body, name)) == 1, f'{name} is missing')
        print('exporter_chroot: ok')
        return 0
    except lib.Failure as ex:
        print(f'FAIL: {ex}', file=sys.stderr)
        return 1
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        # The proc mount lived in the namespace, which ended with the exporter.
        deadline = time.monotonic() + 10
        while os.path.ismount(os.path.join(root, 'proc')) and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
