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
import socket
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


def handshake_version(exporter, certs, version):
    """The TLS version a client limited to version gets, or None when the handshake fails."""
    context = client_context(certs)
    context.minimum_version = context.maximum_version = version
    context.set_ciphers('DEFAULT@SECLEVEL=0')  # lets this client offer TLS 1.0 and 1.1
    try:
        with socket.create_connection(('127.0.0.1', exporter.port), timeout=10) as raw:
            with context.wrap_socket(raw, server_hostname='127.0.0.1') as s:
                return s.version()
    except (ssl.SSLError, ConnectionError):
        return None


def check_versions(binary, scenario, tls, certs):
    """TLS 1.2 and 1.3 by default (exporter-toolkit's minimum); --tls-min-version changes it."""
    v = ssl.TLSVersion
    for args, accepted in (([], {'TLSv1.2', 'TLSv1.3'}),
                           (['--tls-min-version', '1.3'], {'TLSv1.3'}),
                           (['--tls-min-version', '1.0'],
                            {'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'})):
        with lib.Exporter(binary, scenario, tls + args) as exporter:
            got = {handshake_version(exporter, certs, version)
                   for version in (v.TLSv1, v.TLSv1_1, v.TLSv1_2, v.TLSv1_3)} - {None}
            lib.check(got == accepted, f'{args}: TLS versions accepted {sorted(got)}, '
                      f'expected {sorted(accepted)}')
    start_failure(binary, scenario, tls + ['--tls-min-version', '1.4'],
                  "argument --tls-min-version: invalid choice: '1.4'")


def start_failure(binary, scenario, args, expected):
    env = dict(os.environ, NVML_SIM_SCENARIO=scenario)
    proc = subprocess.run([binary, '--port', str(lib.free_port()), *args], env=env,
                          capture_output=True, timeout=30, check=False)
    err = proc.stderr.decode()
    lib.check(proc.returncode in (1, 2) and expected in err,
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
                lib.check(refused(exporter, client_context(certs, 'server-only')),
                          f'{ca_args}: a client with a certificate for servers only was served')
                scraped_by_prometheus(exporter, {'ca_file': certs['ca.crt'],
                                                 'cert_file': certs['client.crt'],
                                                 'key_file': certs['client.key']})

        check_versions(binary, scenario, tls, certs)
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
