#!/usr/bin/python3
"""nvitop-exporter over TLS and mutual TLS, scraped by a real Prometheus; certificates made here
with openssl.

usage: tls_test.py NVITOP_EXPORTER_BINARY

TLS: Prometheus scrapes https with the test CA.  mTLS (--client-cafile, and --client-capath):
Prometheus presents a client certificate and scrapes; a client without a certificate, or with
one from another CA, is refused.  Start-up: a key that does not match the certificate, a
certificate file that is no certificate, and a CA file without certificates end the program
with a clear message and status 1.
"""
import os
import shutil
import ssl
import subprocess
import sys
import tempfile

import exporter_lib as lib


def client_context(certs, cert=None):
    context = ssl.create_default_context(cafile=certs['ca.crt'])
    if cert is not None:
        context.load_cert_chain(certs[cert + '.crt'], certs[cert + '.key'])
    return context


def refused(exporter, context):
    """True when the server refuses this client: a failed handshake or an HTTP 403."""
    try:
        status, _, _ = exporter.fetch(scheme='https', context=context)
    except (ssl.SSLError, ConnectionError, OSError):
        return True
    return status == 403


def scraped_by_prometheus(exporter, tls_config):
    with lib.Prometheus(exporter.port, scheme='https', tls_config=tls_config) as prom:
        prom.wait_scrapes(2)
        count = prom.query('count(gpu_utilization_Percentage)')
        lib.check(count and count[0]['value'][1] == '8', f'count over TLS: {count}')


def start_failure(binary, scenario, args, expected):
    env = dict(os.environ, NVML_SIM_SCENARIO=scenario)
    proc = subprocess.run([binary, '--port', str(lib.free_port()), *args], env=env,
                          capture_output=True, timeout=30, check=False)
    err = proc.stderr.decode()
    lib.check(proc.returncode == 1 and expected in err,
              f'{args}: status {proc.returncode}, stderr {err!r}; expected {expected!r}')


def main(argv):
    binary = argv[0]
    scenario = lib.scenario_path('h100-8gpu')
    with tempfile.TemporaryDirectory(prefix='nvt-exporter-tls-') as tmp:
        certs = lib.make_certs(tmp)
        tls = ['--certfile', certs['server.crt'], '--keyfile', certs['server.key']]
        with lib.Exporter(binary, scenario, tls) as exporter:
            status, headers, body = exporter.fetch(scheme='https', context=client_context(certs))
            lib.check(status == 200 and 'gpu_utilization_Percentage{' in body,
                      f'https fetch: {status}')
            lib.check('https://127.0.0.1:' in exporter.stderr(), 'start-up names https')
            scraped_by_prometheus(exporter, {'ca_file': certs['ca.crt']})

        capath = os.path.join(tmp, 'clients-ca')
        os.mkdir(capath)
        shutil.copy(certs['ca.crt'], os.path.join(capath, 'ca.pem'))
        for ca_args in (['--client-cafile', certs['ca.crt']], ['--client-capath', capath]):
            with lib.Exporter(binary, scenario,
                              tls + ca_args + ['--client-auth-required']) as exporter:
                status, _, _ = exporter.fetch(scheme='https',
                                              context=client_context(certs, 'client'))
                lib.check(status == 200, f'{ca_args}: client with a certificate got {status}')
                lib.check(refused(exporter, client_context(certs)),
                          f'{ca_args}: a client without a certificate was served')
                lib.check(refused(exporter, client_context(certs, 'rogue')),
                          f'{ca_args}: a client with another CA\'s certificate was served')
                scraped_by_prometheus(exporter, {'ca_file': certs['ca.crt'],
                                                 'cert_file': certs['client.crt'],
                                                 'key_file': certs['client.key']})

        start_failure(binary, scenario, ['--certfile', certs['server.crt'], '--keyfile',
                                         certs['other.key']],
                      'ERROR: Failed to load TLS certificate/key from')
        start_failure(binary, scenario, ['--certfile', certs['san.ext'], '--keyfile',
                                         certs['server.key']],
                      'ERROR: Failed to load TLS certificate/key from')
        start_failure(binary, scenario, tls + ['--client-cafile', certs['san.ext'],
                                               '--client-auth-required'],
                      'ERROR: Failed to load client CA bundle')


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    lib.main_wrapper(main)
