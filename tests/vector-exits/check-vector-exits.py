#!/usr/bin/env python3
"""Every path out of Grove's 256-bit vector code clears the registers' upper halves.

    check-vector-exits.py BINARY...

Grove's AVX2 kernels (core/sampling, core/fields, core/math) are built for AVX2 alone
(__attribute__((target("avx2")))) and called from code built without it. Leaving one with the
ymm registers' upper halves in use makes every SSE instruction after it wait on them: when
ringAvx2 ended in a tail jump to the scalar loop, g++ 12 put no vzeroupper before the jump, and
the whole placement ran a quarter or more slower (BM_Whole/1024, three alternated runs:
1,334-1,357 ms against 1,011-1,054).

Reads each binary's disassembly (objdump) and, in every function that touches a ymm or zmm
register, follows its instructions in address order: after such a use, an exit (ret, a call, or
a jump out of the function) needs a vzeroupper (or vzeroall) first. Exits into vector code are
fine: a call or jump to a function that itself uses ymm registers, and the ret of a function
that only vector code calls (a helper that takes and returns a __m256d). Prints one line per
exit that breaks the rule, `binary: function: instruction`, and exits 1 if any.
"""
import re
import subprocess
import sys

FUNC = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
INSN = re.compile(r'^\s+([0-9a-f]+):\s+(.*)$')
TARGET = re.compile(r'^(?:call|jmp)\w*\s+([0-9a-f]+) <([^>+]+)')


def functions(binary):
    """{name: [(address, instruction)]} from objdump's disassembly."""
    text = subprocess.run(['objdump', '-d', '--no-show-raw-insn', binary], capture_output=True, text=True,
                          check=True).stdout
    found, current = {}, None
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            current = found.setdefault(m.group(2), [])
            continue
        m = INSN.match(line)
        if m and current is not None:
            current.append((int(m.group(1), 16), m.group(2).strip()))
    return found


def uses_vector(instructions):
    return any('%ymm' in i or '%zmm' in i for _, i in instructions)


def dirty_exits(binary):
    funcs = functions(binary)
    vector = {name for name, body in funcs.items() if uses_vector(body)}
    callers = {}
    for name, body in funcs.items():
        for _, ins in body:
            m = TARGET.match(ins)
            if m:
                callers.setdefault(m.group(2), set()).add(name)
    broken = []
    for name in sorted(vector):
        body = funcs[name]
        low, high = body[0][0], body[-1][0]
        only_vector_callers = bool(callers.get(name)) and callers[name] <= vector
        dirty = False
        for _, ins in body:
            op = ins.split()[0] if ins else ''
            if op in ('vzeroupper', 'vzeroall'):
                dirty = False
            elif '%ymm' in ins or '%zmm' in ins:
                dirty = True
            elif dirty and op.startswith('ret'):
                if not only_vector_callers:
                    broken.append(f'{binary}: {name}: {ins}')
            elif dirty and (op.startswith('call') or op.startswith('jmp')):
                m = TARGET.match(ins)
                inside = m and low <= int(m.group(1), 16) <= high
                if not inside and not (m and m.group(2) in vector):
                    broken.append(f'{binary}: {name}: {ins}')
    return broken


def main(binaries):
    if not binaries:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    broken = [line for b in binaries for line in dirty_exits(b)]
    for line in broken:
        print(line)
    print(f'{len(broken)} exit(s) from vector code with the upper halves in use')
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
