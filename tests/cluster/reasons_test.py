"""nvitop -1 --hosts says in plain words what went wrong and what to do, and reads what it can:
a TLS exporter written host:port ("use https://"), a plain node written https:// ("use
http://"), a fleet mixing plain and TLS nodes read with --cacert (plain nodes stay plain), a
redirect followed (and a loop of them refused), a path after host:port used as given."""
import tempfile

from cluster_lib import (Exporter, check, main_wrapper, make_certs, nodes_table, run_nvitop,
                         scenario_path, served)


def test(argv):
    nvitop, exporter = argv[0], argv[1]
    with tempfile.TemporaryDirectory(prefix='nvt-cluster-reasons-') as d:
        certs = make_certs(d)
        tls_args = ['--hostname', 'node-tls', '--certfile', certs['server.crt'], '--keyfile',
                    certs['server.key']]
        with Exporter(exporter, scenario_path('a100-mig'), tls_args) as tls_node, \
                Exporter(exporter, scenario_path('a100-mig'),
                         ['--hostname', 'node-plain']) as plain_node:
            body = plain_node.fetch()[2].encode()
            routes = {'/metrics': (302, b'', {'Location': 'http://127.0.0.1:PORT/real'}),
                      '/real': (200, body),
                      '/x/metrics': (200, body),
                      '/loop': (302, b'', {'Location': '/loop'})}
            with served(routes) as port:
                hosts = {
                    'tls as host:port': f'127.0.0.1:{tls_node.port}',
                    'tls as https': f'https://127.0.0.1:{tls_node.port}',
                    'plain': f'127.0.0.1:{plain_node.port}',
                    'plain as https': f'https://127.0.0.1:{plain_node.port}',
                    'redirect': f'127.0.0.1:{port}',
                    'path': f'127.0.0.1:{port}/x/metrics',
                    'loop': f'http://127.0.0.1:{port}/loop',
                }
                code, out, err, _ = run_nvitop(nvitop, ['-1', '--timeout', '5', '--cacert',
                                                        certs['ca.crt'], '--hosts',
                                                        ','.join(hosts.values())])
                # The redirected and the path entries serve the plain node's metrics: the same
                # hostname, which is warned about once.
                check(code == 1 and err.startswith('nvitop: warning: ') and
                      err.count('\n') == 1 and 'same hostname "node-plain"' in err,
                      f'status {code}, stderr {err!r}')
                rows = nodes_table(out)
                # A plain exporter answers a ClientHello with a 400 (OpenSSL: "wrong version
                # number") or closes at once (the handshake ends): both say to use http://.
                plain_as_https = rows.get(hosts['plain as https'], '')
                check(plain_as_https.startswith('- tls error: ') and
                      f'use http://{hosts["plain"]}' in plain_as_https,
                      f'plain as https: {plain_as_https!r}\n{out}')
                expected = {
                    'tls as host:port': '- tls error: closed the connection without an HTTP '
                                        f'answer: if it speaks TLS, use https://{hosts["plain"]}',
                    'loop': '- http error: too many redirects: point --hosts at the final URL',
                }
                expected['tls as host:port'] = expected['tls as host:port'].replace(
                    hosts['plain'], hosts['tls as host:port'])
                for name, want in expected.items():
                    got = rows.get(hosts[name])
                    check(got == want, f'{name}: got {got!r}, expected {want!r}\n{out}')
                for name in ('tls as https', 'plain', 'redirect', 'path'):
                    got = rows.get(hosts[name], '')
                    host = 'node-tls' if name == 'tls as https' else 'node-plain'
                    check(got.startswith(f'{host} 2 3 '), f'{name}: got {got!r}\n{out}')


if __name__ == '__main__':
    main_wrapper(test)
