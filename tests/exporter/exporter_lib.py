"""Helpers for the nvitop-exporter tests: the exporter on the simulated driver, stand-in jobs, a
real Prometheus server on loopback, certificates, and bounded waits.  Python 3 stdlib only.

Every wait is bounded in count and time; every process started here is stopped by its owner
(the context managers), never by name.
"""
import contextlib
import gzip
import http.client
import json
import math
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get('NVT_SOURCE_DIR', os.path.join(HERE, '../..'))
SCENARIOS = os.environ.get('NVT_SCENARIO_DIR', os.path.join(SOURCE, 'sim/scenarios'))
FROZEN_TIME = 1000.0


class Failure(Exception):
    """A check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout, what, step=0.2):
    """Call predicate until it returns a true value (returned) or timeout seconds pass.  `what`
    names what was awaited; a callable is called for it then (to show the state at the time)."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except (OSError, ValueError, KeyError, http.client.HTTPException) as ex:
            last_error = ex
        time.sleep(step)
    what = what() if callable(what) else what
    raise Failure(f'timed out after {timeout}s waiting for {what} (last error: {last_error})')


@contextlib.contextmanager
def standins(count):
    """Start count stand-in jobs (scripts/standins.sh); yields {NVT_STANDIN_<i>: pid}."""
    script = os.path.join(SOURCE, 'scripts/standins.sh')
    with tempfile.TemporaryDirectory(prefix='nvt-exporter-standins-') as state:
        env = dict(os.environ, NVT_STANDIN_STATE=state)
        out = subprocess.run(['sh', script, 'start', str(count)], env=env, capture_output=True,
                             check=True, timeout=60).stdout.decode()
        variables = {}
        for line in out.splitlines():
            if line.startswith('export '):
                key, _, value = line[len('export '):].partition('=')
                variables[key] = value.strip('\'"')
        try:
            yield variables
        finally:
            subprocess.run(['sh', script, 'stop'], env=env, capture_output=True, check=False,
                           timeout=60)


def scenario_path(name):
    return os.path.join(SCENARIOS, name + '.json')


def load_scenario(name, variables):
    """The scenario as JSON with the ${NVT_STANDIN_i:-default} pids substituted."""
    with open(scenario_path(name), encoding='utf-8') as f:
        text = f.read()
    for key, value in variables.items():
        # "${NVT_STANDIN_3:-424203}" (with its quotes) becomes the number.
        start = text.find('"${' + key + ':-')
        while start >= 0:
            end = text.index('}"', start)
            text = text[:start] + value + text[end + 2:]
            start = text.find('"${' + key + ':-')
    return json.loads(text)


def write_scenario(path, scenario):
    """Replace a scenario file atomically (the simulator re-reads a changed file)."""
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(scenario, f)
    os.rename(tmp, path)


def sim_value(spec, t=FROZEN_TIME):
    """A scenario number at simulated time t: a constant or {base, amplitude, period, phase}."""
    if isinstance(spec, (int, float)):
        return float(spec)
    if isinstance(spec, dict) and 'base' in spec:
        period = spec.get('period', 0)
        value = spec['base']
        if period:
            value += spec.get('amplitude', 0) * math.sin(
                2 * math.pi * (t + spec.get('phase', 0)) / period)
        return value
    return None


def sim_round(value):
    """llround(): halves away from zero."""
    return float(math.floor(value + 0.5)) if value >= 0 else -float(math.floor(-value + 0.5))


class Exporter:
    """nvitop-exporter on the simulator, started and stopped by the test."""

    def __init__(self, binary, scenario_file, args=(), env=None, extra_env=None):
        self.binary = binary
        self.port = free_port()
        self.env = dict(env if env is not None else os.environ)
        self.env['NVML_SIM_SCENARIO'] = scenario_file
        self.env['NVML_SIM_TIME'] = str(int(FROZEN_TIME))
        self.env.update(extra_env or {})
        self.args = [binary, '--port', str(self.port), '--hostname', 'testhost', *args]
        self.proc = None
        self.log = tempfile.TemporaryFile()

    def __enter__(self):
        self.proc = subprocess.Popen(self.args, env=self.env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        wait_until(lambda: self.proc.poll() is not None or 'INFO: Start the exporter' in
                   self.stderr(), 20, 'the exporter to start')
        check(self.proc.poll() is None, f'the exporter exited: {self.stderr()}')
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode if self.proc is not None else None

    def stderr(self):
        self.log.seek(0)
        return self.log.read().decode('utf-8', 'replace')

    def rss_kib(self):
        with open(f'/proc/{self.proc.pid}/status', encoding='ascii') as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
        raise Failure('no VmRSS')

    def fetch(self, path='/metrics', context=None, headers=None, scheme='http'):
        """(status, headers, body) of one request."""
        if scheme == 'https':
            conn = http.client.HTTPSConnection('127.0.0.1', self.port, timeout=10,
                                               context=context)
        else:
            conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=10)
        try:
            conn.request('GET', path, headers=headers or {})
            response = conn.getresponse()
            body = response.read()
            if response.getheader('Content-Encoding') == 'gzip':
                body = gzip.decompress(body)
            return response.status, dict(response.getheaders()), body.decode('utf-8')
        finally:
            conn.close()


class Prometheus:
    """A real Prometheus server on loopback, scraping one target every second."""

    def __init__(self, target_port, scheme='http', tls_config=None, filtered_names=None):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix='nvt-prometheus-')
        lines = ['global:', '  scrape_interval: 1s', '  scrape_timeout: 1s',
                 'scrape_configs:', '  - job_name: nvitop', f'    scheme: {scheme}',
                 '    static_configs:', f"      - targets: ['127.0.0.1:{target_port}']"]
        if tls_config:
            lines.append('    tls_config:')
            lines.extend(f'      {key}: {value}' for key, value in tls_config.items())
        if filtered_names:
            # A second job scraping the same target with name[] parameters, as a scrape
            # configuration does to keep only some series of an exporter.
            lines += ['  - job_name: nvitop_filtered', '    params:', "      'name[]':"]
            lines += [f'        - {name}' for name in filtered_names]
            lines += ['    static_configs:', f"      - targets: ['127.0.0.1:{target_port}']"]
        self.config = os.path.join(self.dir, 'prometheus.yml')
        with open(self.config, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')
        self.proc = None
        self.log = open(os.path.join(self.dir, 'log'), 'wb')  # noqa: SIM115

    def __enter__(self):
        binary = shutil.which('prometheus')
        check(binary is not None, 'prometheus is not installed (scripts/deps.sh installs it)')
        self.proc = subprocess.Popen(
            [binary, f'--config.file={self.config}',
             f'--storage.tsdb.path={os.path.join(self.dir, "data")}',
             f'--web.listen-address=127.0.0.1:{self.port}', '--log.level=warn'],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, cwd=self.dir)
        wait_until(lambda: self.proc.poll() is not None or self._ready(), 30,
                   'Prometheus to be ready')
        check(self.proc.poll() is None, 'Prometheus exited: ' + self.logs())
        return self

    def _ready(self):
        with urllib.request.urlopen(f'http://127.0.0.1:{self.port}/-/ready', timeout=2) as r:
            return r.status == 200

    def __exit__(self, *exc):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def logs(self):
        with open(os.path.join(self.dir, 'log'), encoding='utf-8', errors='replace') as f:
            return f.read()[-3000:]

    def query(self, promql):
        """The result list of an instant query."""
        url = (f'http://127.0.0.1:{self.port}/api/v1/query?' +
               urllib.parse.urlencode({'query': promql}))
        with urllib.request.urlopen(url, timeout=10) as r:
            data = json.load(r)
        check(data.get('status') == 'success', f'query {promql!r} failed: {data}')
        return data['data']['result']

    def wait_scrapes(self, count, timeout=40):
        """Wait until the target was scraped successfully at least count times."""
        def enough():
            result = self.query('sum_over_time(up{job="nvitop"}[5m])')
            return result and float(result[0]['value'][1]) >= count
        try:
            wait_until(enough, timeout, f'{count} successful scrapes', step=0.5)
        except Failure:
            targets = urllib.request.urlopen(
                f'http://127.0.0.1:{self.port}/api/v1/targets', timeout=5).read().decode()
            raise Failure(f'no {count} successful scrapes; targets: {targets[:2000]}') from None


def make_certs(directory):
    """A CA, a server certificate for 127.0.0.1 signed by it, a client certificate signed by it,
    one signed by it for TLS servers only (server-only), a client certificate signed by another
    CA, and a key that matches no certificate."""
    def run(*args):
        subprocess.run(['openssl', *args], cwd=directory, check=True, capture_output=True,
                       timeout=60)

    for ca in ('ca', 'rogue-ca'):
        run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
            '-nodes', '-days', '2', '-subj', f'/CN=nvitop test {ca}', '-keyout', f'{ca}.key',
            '-out', f'{ca}.crt')
    with open(os.path.join(directory, 'san.ext'), 'w', encoding='ascii') as f:
        f.write('subjectAltName=IP:127.0.0.1,DNS:localhost\n')
    for name, ca in (('server', 'ca'), ('client', 'ca'), ('rogue', 'rogue-ca')):
        run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
            '-subj', f'/CN={name}', '-keyout', f'{name}.key', '-out', f'{name}.csr')
        run('x509', '-req', '-in', f'{name}.csr', '-CA', f'{ca}.crt', '-CAkey', f'{ca}.key',
            '-CAcreateserial', '-days', '2', '-extfile', 'san.ext', '-out', f'{name}.crt')
    # A certificate from the trusted CA that is only good for TLS servers (extended key usage).
    with open(os.path.join(directory, 'server-only.ext'), 'w', encoding='ascii') as f:
        f.write('subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
    run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-subj', '/CN=server-only', '-keyout', 'server-only.key', '-out', 'server-only.csr')
    run('x509', '-req', '-in', 'server-only.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key',
        '-CAcreateserial', '-days', '2', '-extfile', 'server-only.ext', '-out', 'server-only.crt')
    run('genpkey', '-algorithm', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out',
        'other.key')
    return {name: os.path.join(directory, name) for name in os.listdir(directory)}


def main_wrapper(function):
    """Run a test function; print the failure and exit 1 on a Failure."""
    try:
        function(sys.argv[1:])
    except Failure as ex:
        print(f'FAIL: {ex}', file=sys.stderr)
        sys.exit(1)
    print('ok')
