"""nvitop -1 --hosts against an exporter behind mutual TLS: read with the client certificate,
and refused at the handshake without one or with a certificate of another CA (a TLS error that
says a trusted client certificate may be needed), and a TLS error that says to give the CA when
the server's certificate is not trusted."""
import sys
import tempfile

from cluster_lib import (Exporter, check, main_wrapper, make_certs, nodes_table, run_nvitop,
                         scenario_path)


def test(argv):
    nvitop, exporter = argv[0], argv[1]
    with tempfile.TemporaryDirectory(prefix='nvt-cluster-tls-') as d:
        certs = make_certs(d)
        args = ['--hostname', 'node-tls', '--certfile', certs['server.crt'], '--keyfile',
                certs['server.key'], '--client-cafile', certs['ca.crt'], '--client-auth-required']
        with Exporter(exporter, scenario_path('a100-mig'), args) as node:
            address = f'https://127.0.0.1:{node.port}'

            def row(*tls):
                code, out, err, _ = run_nvitop(nvitop, ['-1', '--timeout', '5', '--hosts',
                                                        address, *tls])
                check(err == '', f'stderr: {err}')
                return code, nodes_table(out)[address]

            code, text = row('--cacert', certs['ca.crt'], '--cert', certs['client.crt'],
                             '--key', certs['client.key'])
            check(code == 0 and text.startswith('node-tls 2 3 '),
                  f'with the client certificate: status {code}, {text!r}')
            for what, tls in (
                    ('no client certificate', ['--cacert', certs['ca.crt']]),
                    ('a client certificate of another CA',
                     ['--cacert', certs['ca.crt'], '--cert', certs['rogue.crt'], '--key',
                      certs['rogue.key']]),
                    ('an untrusted server', ['--cacert', certs['rogue-ca.crt'], '--cert',
                                             certs['client.crt'], '--key', certs['client.key']])):
                code, text = row(*tls)
                # The exporter ends the handshake of a client without a trusted certificate.
                # The exporter ends the handshake of a client without a trusted certificate:
                # after it with TLS 1.3 (the request gets no answer), during it with TLS 1.2.
                if what == 'an untrusted server':
                    ok = text.startswith('- tls error: its certificate is not trusted (give its '
                                         'CA with --cacert)')
                else:
                    ok = text.startswith('- tls error: ') and 'client certificate' in text
                check(code == 1 and ok, f'{what}: status {code}, {text!r}')
            # A key that does not match the certificate: a TLS error before any connection.
            code, text = row('--cacert', certs['ca.crt'], '--cert', certs['client.crt'], '--key',
                             certs['other.key'])
            check(code == 1 and text.startswith('- tls error: '), f'mismatched key: {text!r}')


if __name__ == '__main__':
    main_wrapper(test)
    sys.exit(0)
