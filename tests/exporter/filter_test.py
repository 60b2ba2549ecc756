"""A scrape's name[] filter (/metrics?name[]=...), as Prometheus's client libraries answer it,
nvitop-exporter 1.7's among them: the answer holds the samples of the names asked for and their
families' metadata, in the order of the whole exposition and nothing else; in both the text and
OpenMetrics forms; never gzipped; a name that matches nothing keeps nothing; an empty name[] is
no filter; 257 names are refused with HTTP 400.  A real Prometheus scraping with `params:`
gets the named series only (prometheus_test.py)."""
import os
import sys
import urllib.parse

import exporter_lib as lib

NAMES = ['nvitop_info', 'gpu_temperature_C', 'process_gpu_memory_MiB']


def oracle(text, names):
    """What the filter keeps, written from the format's rules: a family is its metadata lines and
    the samples after them; a sample is kept when its name is listed, its family's metadata before
    the first kept one; "# EOF" always."""
    out, meta, in_samples = [], [], False
    for line in text.splitlines(keepends=True):
        if line.startswith('# EOF'):
            out.append(line)
        elif line.startswith('#'):
            if in_samples:
                meta, in_samples = [], False
            meta.append(line)
        elif line.strip():
            in_samples = True
            name = line.split('{', 1)[0].split(' ', 1)[0]
            if name in names:
                out.extend(meta)
                meta = []
                out.append(line)
    return ''.join(out)


def query(names):
    return '/metrics?' + '&'.join('name%5B%5D=' + urllib.parse.quote(n, safe='') for n in names)


def main(argv):
    binary = argv[0]
    # A long interval: every request below is answered from one exposition.
    with lib.Exporter(binary, lib.scenario_path('h100-8gpu'), ['--interval', '60']) as exporter:
        status, _, whole = exporter.fetch()
        lib.check(status == 200 and 'gpu_temperature_C{' in whole, f'whole: {status}')

        status, headers, part = exporter.fetch(query(NAMES))
        lib.check(status == 200, f'filtered: HTTP {status}')
        lib.check(headers.get('Content-Type', '').startswith('text/plain; version=0.0.4'),
                  f'filtered content type: {headers}')
        want = oracle(whole, NAMES)
        lib.check(part == want, f'filtered text:\n{part}\n--- expected:\n{want}')
        names = {line.split('{', 1)[0].split(' ', 1)[0] for line in part.splitlines()
                 if line and not line.startswith('#')}
        lib.check(names == set(NAMES), f'names kept: {sorted(names)}')
        lib.check(part.count('gpu_temperature_C{') == 8 and
                  part.count('# TYPE gpu_temperature_C gauge') == 1,
                  f'8 temperatures under one TYPE line:\n{part}')
        lib.check(len(part) * 4 < len(whole), f'{len(part)} bytes of {len(whole)}')

        # The unescaped form, and a client that accepts gzip: the same text, sent plain.
        status, headers, plain = exporter.fetch(
            '/metrics?name[]=nvitop_info&name[]=gpu_temperature_C&name[]=process_gpu_memory_MiB',
            headers={'Accept-Encoding': 'gzip'})
        lib.check(status == 200 and 'Content-Encoding' not in headers and plain == part,
                  f'gzip asked for: {status} {headers}')

        # OpenMetrics: the info family under its base name, and "# EOF" at the end.
        accept = {'Accept': 'application/openmetrics-text;version=1.0.0,text/plain;q=0.5'}
        _, _, om_whole = exporter.fetch(headers=accept)
        status, headers, om = exporter.fetch(query(NAMES), headers=accept)
        lib.check(status == 200 and headers.get('Content-Type', '').startswith(
            'application/openmetrics-text'), f'OpenMetrics: {status} {headers}')
        lib.check(om == oracle(om_whole, NAMES) and om.endswith('# EOF\n') and
                  '# TYPE nvitop info\n' in om, f'OpenMetrics filtered:\n{om}')

        # A name that matches nothing; an empty name[] (no filter); other arguments alone.
        status, _, nothing = exporter.fetch(query(['no_such_metric']))
        lib.check(status == 200 and nothing == '', f'no match: {status} {nothing!r}')
        _, _, om_nothing = exporter.fetch(query(['no_such_metric']), headers=accept)
        lib.check(om_nothing == '# EOF\n', f'no match, OpenMetrics: {om_nothing!r}')
        for path in ('/metrics?name%5B%5D=', '/metrics?debug=1'):
            status, _, body = exporter.fetch(path)
            lib.check(status == 200 and body == whole, f'{path}: {status}, {len(body)} bytes')

        # Too many names (a request line longer than libmicrohttpd holds is closed by it).
        status, _, body = exporter.fetch(query([f'n{i}' for i in range(257)]))
        lib.check(status == 400 and 'name[]' in body, f'257 names: {status} {body!r}')
        status, _, body = exporter.fetch(query([f'n{i}' for i in range(256)] + ['nvitop_info']))
        lib.check(status == 400, f'257 names with a real one: {status}')
        status, _, body = exporter.fetch(query([f'n{i}' for i in range(255)] + ['nvitop_info']))
        lib.check(status == 200 and body.startswith('# HELP nvitop_info'),
                  f'256 names: {status} {body[:80]!r}')

if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    lib.main_wrapper(main)
