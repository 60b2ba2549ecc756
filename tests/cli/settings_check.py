#!/usr/bin/python3
"""The settings files seen from the command line: every kind of bad file gives "file:line: message"
warnings on stderr (and the report still prints, exit status 0), --no-config reads no file, the
argument errors of --config and --no-config, and nvitop-collect's [collect] defaults under its
options.

usage: settings_check.py NVITOP [NVITOP_COLLECT]
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.environ.get('NVT_SCENARIO_DIR', os.path.join(HERE, '../../sim/scenarios'))
FAILURES = []


def run(program, args, env_extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith('NVITOP_')}
    env['NVML_SIM_SCENARIO'] = os.path.join(SCENARIOS, 'workstation-2gpu.json')
    env.update(env_extra)
    done = subprocess.run([program] + args, env=env, capture_output=True, text=True, timeout=30,
                          check=False)
    return done.returncode, done.stdout, done.stderr


def expect(name, got, want):
    if got != want:
        FAILURES.append(f'{name}:\n  got:  {got!r}\n  want: {want!r}')


def check_collect(collect, env, user):
    """[collect] gives nvitop-collect's defaults; its options win; bad keys are warned about."""
    with open(user, 'w', encoding='utf-8') as f:
        f.write('[collect]\nformat = jsonl\ntag = from-file\nevery = 0.5\nstatistics = often\n')
    status, out, err = run(collect, ['--', 'true'], env)
    expect('collect: status', status, 0)
    expect('collect: warning', err,
           f"{user}:5: statistics: invalid value 'often' (expected one of: window, cumulative)\n")
    expect('collect: JSON Lines with the tag of the file', out.startswith('{"from-file/'), True)
    status, out, err = run(collect, ['-t', 'cli', '-f', 'csv', '--', 'true'], env)
    expect('collect: options win: status', status, 0)
    expect('collect: options win: a CSV header with the tag of -t', out.startswith('cli/'), True)


def main():
    program = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix='nvt-settings-cli.') as work:
        config = os.path.join(work, 'config')
        os.makedirs(os.path.join(config, 'nvitop'))
        user = os.path.join(config, 'nvitop', 'nvitop.conf')
        system = os.path.join(work, 'system.conf')
        env = {'XDG_CONFIG_HOME': config, 'NVITOP_SYSTEM_CONFIG': system}

        # Every kind of bad line, in the user file, with the good keys around them.
        with open(user, 'w', encoding='utf-8') as f:
            f.write('# bad on purpose\n'
                    'mode = full\n'
                    '[monitor]\n'
                    'colour = plain\n'
                    'mode = sideways\n'
                    'gpu-util-thresh = 5\n'
                    'just words\n'
                    '[panels]\n'
                    'host = hide\n'
                    '[layout\n'
                    'theme = light\n')
        status, out, err = run(program, ['-1'], env)
        expect('bad user file: status', status, 0)
        expect('bad user file: report printed', 'NVITOP' in out, True)
        expect('bad user file: warnings', err,
               f"{user}:2: unknown key 'mode' (keys go under [monitor], [layout], [collect] or "
               "[cluster])\n"
               f"{user}:4: unknown key 'colour' in [monitor]\n"
               f"{user}:5: mode: invalid value 'sideways' (expected one of: auto, full, "
               "compact)\n"
               f"{user}:6: gpu-util-thresh: invalid value '5' (expected two integers from 1 "
               "to 99)\n"
               f"{user}:7: expected 'key = value'\n"
               f"{user}:8: unknown section [panels] (expected [monitor], [layout], [collect] or "
               "[cluster])\n"
               f"{user}:10: expected a section header like [monitor]\n")

        # --no-config reads neither file: no warning.
        with open(system, 'w', encoding='utf-8') as f:
            f.write('[monitor]\nmode = nope\n')
        status, out, err = run(program, ['-1', '--no-config'], env)
        expect('--no-config: status', status, 0)
        expect('--no-config: stderr', err, '')

        # The system file is read too (before the user file).
        os.unlink(user)
        status, out, err = run(program, ['-1'], env)
        expect('system file: warnings', err,
               f"{system}:2: mode: invalid value 'nope' (expected one of: auto, full, "
               "compact)\n")

        # --config FILE: missing, a directory, binary junk; the default files are not read.
        missing = os.path.join(work, 'missing.conf')
        status, out, err = run(program, ['-1', '--config', missing], env)
        expect('--config missing: status', status, 0)
        expect('--config missing: warning', err, f'{missing}: No such file or directory\n')
        status, out, err = run(program, ['-1', '--config', work], env)
        expect('--config directory: warning', err, f'{work}: Is a directory\n')
        junk = os.path.join(work, 'junk.conf')
        with open(junk, 'wb') as f:
            f.write(b'[monitor]\nmode = f\x00ull\n\xff\xfe = 1\n\x1b[31mred = 1\n')
        status, out, err = run(program, ['-1', '--config', junk], env)
        expect('--config junk: status', status, 0)
        expect('--config junk: warnings', err,
               f'{junk}:2: line contains a NUL byte\n'
               f"{junk}:3: unknown key '??' in [monitor]\n"
               f"{junk}:4: unknown key '?[31mred' in [monitor]\n")
        big = os.path.join(work, 'big.conf')
        with open(big, 'w', encoding='utf-8') as f:
            f.write('#' * 70000 + '\n')
        status, out, err = run(program, ['-1', '--config', big], env)
        expect('--config big: warning', err, f'{big}: too large for a settings file (ignored)\n')

        # Argument errors.
        status, out, err = run(program, ['--config', 'a', '--no-config'], env)
        expect('--config with --no-config: status', status, 2)
        expect('--config with --no-config: message', err.splitlines()[-1:],
               ['nvitop: error: argument --no-config: not allowed with argument --config'])
        status, out, err = run(program, ['--config'], env)
        expect('--config without FILE: status', status, 2)
        expect('--config without FILE: message', err.splitlines()[-1:],
               ['nvitop: error: argument --config: expected one argument'])
        if len(sys.argv) > 2:
            os.unlink(system)
            check_collect(sys.argv[2], env, user)
    for failure in FAILURES:
        print('FAIL:', failure)
    return 1 if FAILURES else 0


if __name__ == '__main__':
    sys.exit(main())
