#!/usr/bin/python3
"""Check `nvitop --json` against docs/nvitop-json.schema.json for every bundled scenario.

usage: validate_json.py NVITOP_BINARY

A small validator for the JSON Schema keywords the schema uses (type, const, enum, properties,
required, additionalProperties: false, items, minItems, maxItems, minimum), written here
because the tests may not install packages.  Also checks that the device and process filters
apply to the document.  Exits 1 on any problem.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, '../../docs/nvitop-json.schema.json')
SCENARIOS = os.environ.get('NVT_SCENARIO_DIR', os.path.join(HERE, '../../sim/scenarios'))
TYPES = {
    'object': dict, 'array': list, 'string': str, 'boolean': bool, 'null': type(None),
    'integer': int, 'number': (int, float),
}


def type_ok(value, name):
    if name in ('integer', 'number') and isinstance(value, bool):
        return False
    return isinstance(value, TYPES[name])


def validate(value, schema, path, errors):
    if 'const' in schema and value != schema['const']:
        errors.append(f'{path}: {value!r} is not {schema["const"]!r}')
    if 'enum' in schema and value not in schema['enum']:
        errors.append(f'{path}: {value!r} not in {schema["enum"]!r}')
    if 'type' in schema:
        names = schema['type'] if isinstance(schema['type'], list) else [schema['type']]
        if not any(type_ok(value, name) for name in names):
            errors.append(f'{path}: {value!r} is not of type {names}')
            return
    if 'minimum' in schema and isinstance(value, (int, float)) and value < schema['minimum']:
        errors.append(f'{path}: {value} < {schema["minimum"]}')
    if isinstance(value, dict):
        for key in schema.get('required', []):
            if key not in value:
                errors.append(f'{path}: missing {key!r}')
        props = schema.get('properties', {})
        for key, item in value.items():
            if key in props:
                validate(item, props[key], f'{path}.{key}', errors)
            elif schema.get('additionalProperties') is False:
                errors.append(f'{path}: unexpected key {key!r}')
    if isinstance(value, list):
        if len(value) < schema.get('minItems', 0) or len(value) > schema.get('maxItems', 1 << 30):
            errors.append(f'{path}: {len(value)} items')
        for i, item in enumerate(value):
            validate(item, schema.get('items', {}), f'{path}[{i}]', errors)


def run(binary, scenario, *args):
    env = dict(os.environ, NVML_SIM_SCENARIO=os.path.join(SCENARIOS, scenario), NVML_SIM_TIME='1000')
    proc = subprocess.run([binary, '--json', *args], env=env, capture_output=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    return proc.returncode, json.loads(proc.stdout.decode('utf-8'))


def main():
    binary = sys.argv[1]
    with open(SCHEMA, encoding='utf-8') as f:
        schema = json.load(f)
    errors = []
    for name in sorted(os.listdir(SCENARIOS)):
        if not name.endswith('.json'):
            continue
        rc, doc = run(binary, name)
        if rc != 0:
            errors.append(f'{name}: exit status {rc}')
        validate(doc, schema, name, errors)
    # Filters apply to the document as to the report.
    _, doc = run(binary, 'workstation-2gpu.json', '-o', '1')
    if [d['index'] for d in doc['devices']] != [1] or {p['device']['index'] for p in doc['processes']} != {1}:
        errors.append('-o 1 did not restrict the document to GPU 1')
    _, doc = run(binary, 'workstation-2gpu.json', '-p', '4215418')
    if [p['pid'] for p in doc['processes']] != [4215418]:
        errors.append('-p 4215418 did not restrict the processes')
    _, doc = run(binary, 'a100-mig.json')
    if sum(1 for d in doc['devices'] if d['mig_index'] is not None) != 3:
        errors.append('a100-mig: expected 3 MIG devices')
    for error in errors:
        print(error)
    print(f'{len(errors)} problem(s)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
