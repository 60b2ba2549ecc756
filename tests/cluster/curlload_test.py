"""libcurl is loaded only by the cluster view: nvitop has no libcurl among its NEEDED entries,
`nvitop -1` and the running monitor (local GPUs) never map it, `nvitop -1 --hosts` does, and a
missing or unusable libcurl (NVITOP_LIBCURL_LIBRARY, a test hook) is one line and exit code 1."""
import os
import sys

from cluster_lib import check, main_wrapper, refusing_port, run_nvitop, scenario_path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../support'))
from loaded_libs import loaded_libs, monitor_maps, needed  # noqa: E402

LOADED = 'libcurl.so'
DRAWN = b'Driver Version: 570.86.15'  # the 8-GPU scenario's driver, in the header


def test(argv):
    nvitop = argv[0]
    scenario = scenario_path('h100-8gpu')
    check(not any(LOADED in n for n in needed(nvitop)), f'NEEDED: {needed(nvitop)}')

    code, out, opened = loaded_libs(nvitop, ['-1'], scenario)
    check(code == 0 and 'H100' in out, f'nvitop -1: exit {code}\n{out}')
    check(not any(LOADED in o for o in opened), f'nvitop -1 loaded libcurl: {opened}')
    code, out, opened = loaded_libs(nvitop, ['--version'])
    check(code == 0 and not any(LOADED in o for o in opened), f'--version loaded: {opened}')

    maps = monitor_maps(nvitop, scenario, DRAWN, check)
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
