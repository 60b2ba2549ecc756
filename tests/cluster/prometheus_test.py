"""nvitop -1 --prometheus: a real Prometheus (Debian's) on loopback scraping three exporters on
their simulated scenarios, a port that refuses connections and a server slower than the scrape
timeout: the same per-node figures as read directly, and the bad targets with Prometheus's
reason.  Also a Prometheus that cannot be reached."""
import json
import sys

from cluster_lib import (Exporter, FleetPrometheus, bad_server, check, main_wrapper, nodes_table,
                         refusing_port, run_nvitop, scenario_path)
from once_test import EXPECTED, h100_line


def test(argv):
    nvitop, exporter = argv[0], argv[1]
    EXPECTED['h100'] = h100_line()
    with Exporter(exporter, scenario_path('h100-8gpu'), ['--hostname', 'node-h100']) as h100, \
            Exporter(exporter, scenario_path('a100-mig'), ['--hostname', 'node-mig']) as mig, \
            Exporter(exporter, scenario_path('faulty'), ['--hostname', 'node-faulty']) as faulty, \
            refusing_port() as refused, bad_server() as bad:
        good = {'h100': f'127.0.0.1:{h100.port}', 'mig': f'127.0.0.1:{mig.port}',
                'faulty': f'127.0.0.1:{faulty.port}'}
        # The slow server's /metrics path is 404: Prometheus scrapes /metrics.
        bad_targets = [f'127.0.0.1:{refused}', f'127.0.0.1:{bad}']
        with FleetPrometheus(list(good.values()) + bad_targets) as prom:
            prom.wait_targets(up=3)
            code, out, err, _ = run_nvitop(nvitop, ['-1', '--prometheus', prom.url()])
            check(code == 1 and err == '', f'status {code}, stderr {err!r}\n{out}')
            rows = nodes_table(out)
            check(len(rows) == 5, f'{len(rows)} rows, expected 5 (not Prometheus itself):\n{out}')
            for name, address in good.items():
                fields = rows[address].split(' ')
                # The age is that of the last scrape (every second).
                check(fields[11].endswith('s') and fields[11][:-1].isdigit(),
                      f'{name}: age {fields[11]}\n{out}')
                fields[11] = '<age>'
                check(' '.join(fields) == EXPECTED[name],
                      f'{name}: got {" ".join(fields)!r}, expected {EXPECTED[name]!r}\n{out}')
            check(rows[bad_targets[0]].startswith('- down: ') and
                  'connection refused' in rows[bad_targets[0]], f'refused target:\n{out}')
            check(rows[bad_targets[1]].startswith('- down: ') and
                  '404' in rows[bad_targets[1]], f'404 target:\n{out}')

            code, out, err, _ = run_nvitop(nvitop, ['--json', '--prometheus', prom.url() + '/'])
            doc = json.loads(out)
            check(doc['source'] == {'kind': 'prometheus', 'url': prom.url() + '/'},
                  f'{doc["source"]}')
            states = {n['address']: n['state'] for n in doc['nodes']}
            check(states == {**{a: 'ok' for a in good.values()},
                             **{a: 'down' for a in bad_targets}}, f'{states}')

    with refusing_port() as port:
        code, out, err, _ = run_nvitop(nvitop, ['-1', '--prometheus', f'http://127.0.0.1:{port}'])
        check(code == 1 and out == '' and
              err == f'nvitop: cannot read Prometheus at http://127.0.0.1:{port}: refused: '
                     'connection refused\n', f'status {code}, stderr {err!r}')
    with bad_server() as port:
        code, out, err, _ = run_nvitop(nvitop, ['-1', '--prometheus', f'http://127.0.0.1:{port}'])
        check(code == 1 and err == f'nvitop: cannot read Prometheus at http://127.0.0.1:{port}: '
              'http error: HTTP 404\n', f'status {code}, stderr {err!r}')
        # Answers that are not Prometheus's: HTML, and JSON without "status": "success".
        for path, reason in (('html', 'not a Prometheus API answer (JSON: expected an object at '
                                      'byte 0)'),
                             ('json', 'Prometheus answered an error: bad query')):
            url = f'http://127.0.0.1:{port}/{path}'
            code, out, err, _ = run_nvitop(nvitop, ['-1', '--prometheus', url])
            check(code == 1 and out == '' and
                  err == f'nvitop: cannot read Prometheus at {url}: {reason}\n',
                  f'{path}: status {code}, stderr {err!r}')


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
