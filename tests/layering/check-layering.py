#!/usr/bin/env python3
"""The house rules, checked: which file may include which, and how long a file may grow.

    check-layering.py [ROOT]

Reads each subsystem's allowed uses from the grove_subsystem(NAME PREFIX P USES ...) calls in
core/*/CMakeLists.txt and app/editor/*/CMakeLists.txt (the only place they are written), then
checks every source file under core/, nodes/, app/, tests/ and docs/:

  qt-in-core        core/ includes no Qt header
  core-upward       core/ includes nothing from app/, nodes/ or tests/
  core-full-path    core/ includes core headers by their full path (core/<subsystem>/X.h)
  subsystem-uses    a subsystem includes only itself and what its USES reach (transitively)
  nodes-upward      nodes/ includes nothing from app/ or tests/
  shipped-tests     core/, nodes/ and app/ include nothing that lives under tests/
  file-size         no source or test file passes 600 lines

Prints one line per broken rule, `path:line: [rule] what, and why`, and exits 1 if any.
"""
import os
import re
import sys

MAX_LINES = 600
SOURCE = ('.h', '.hpp', '.cpp', '.c')
SIZED = SOURCE + ('.py', '.sh', '.js', '.mjs', '.cs', '.cmake')
SKIP_DIRS = {'.git', 'node_modules', '_build', '__pycache__', 'formats', 'data', 'bad-input'}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SUBSYSTEM = re.compile(r'grove_subsystem\(\s*(\w+)\s+PREFIX\s+(\w+)(.*?)\)', re.S)
QT = re.compile(r'^(Q[A-Z]\w*|Qt\w*/)')


def subsystems(root, folder):
    """{name: set of names it uses} from the grove_subsystem calls under root/folder."""
    uses = {}
    base = os.path.join(root, folder)
    if not os.path.isdir(base):
        return uses
    for name in sorted(os.listdir(base)):
        cmake = os.path.join(base, name, 'CMakeLists.txt')
        if not os.path.isfile(cmake):
            continue
        text = re.sub(r'#.*', '', open(cmake, encoding='utf-8').read())
        for m in SUBSYSTEM.finditer(text):
            words = m.group(3).split()
            listed = []
            if 'USES' in words:
                for w in words[words.index('USES') + 1:]:
                    if w.isupper():
                        break
                    listed.append(w)
            uses[m.group(1)] = set(listed)
    return uses


def reach(uses):
    """Each subsystem's transitive uses, itself included."""
    out = {}
    for name in uses:
        seen, todo = {name}, [name]
        while todo:
            for u in uses.get(todo.pop(), ()):
                if u not in seen:
                    seen.add(u)
                    todo.append(u)
        out[name] = seen
    return out


def files(root):
    for top in ('core', 'nodes', 'app', 'tests', 'docs'):
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith('build'))
            for n in sorted(names):
                yield os.path.relpath(os.path.join(d, n), root).replace(os.sep, '/')


def lives_under_tests(root, path, target):
    """True when a quoted include from `path` resolves only to a file under tests/."""
    here = os.path.dirname(path)
    found = []
    for base in (here, '', 'app/editor', 'app/cli', 'app/capi', 'nodes', 'tests', 'tests/bench'):
        p = os.path.normpath(os.path.join(base, target)).replace(os.sep, '/')
        if os.path.isfile(os.path.join(root, p)):
            found.append(p)
    return bool(found) and all(p.startswith('tests/') for p in found)


def check(root):
    core = reach(subsystems(root, 'core'))
    editor = reach(subsystems(root, 'app/editor'))
    problems = []

    def say(path, line, rule, text):
        problems.append(f'{path}:{line}: [{rule}] {text}')

    for path in files(root):
        if not path.endswith(SIZED):
            continue
        try:
            lines = open(os.path.join(root, path), encoding='utf-8').read().split('\n')
        except UnicodeDecodeError:
            continue
        count = len(lines) - (1 if lines and lines[-1] == '' else 0)
        if count > MAX_LINES:
            say(path, MAX_LINES + 1, 'file-size',
                f'{count} lines; a source or test file stays within {MAX_LINES}: split it by what its parts own')
        if not path.endswith(SOURCE):
            continue
        parts = path.split('/')
        in_core = parts[0] == 'core' and len(parts) > 2
        in_editor = parts[:2] == ['app', 'editor'] and len(parts) > 3
        shipped = parts[0] in ('core', 'nodes', 'app')
        for number, text in enumerate(lines, 1):
            m = INCLUDE.match(text)
            if not m:
                continue
            quoted, target = m.group(1) == '"', m.group(2)
            first = target.split('/')[0]
            if parts[0] == 'core' and QT.match(target):
                say(path, number, 'qt-in-core', f'includes <{target}>: core stays Qt-free (Qt belongs in app/editor)')
            if not quoted:
                continue
            if parts[0] == 'core' and first in ('app', 'nodes', 'tests'):
                say(path, number, 'core-upward', f'includes "{target}": core never includes {first}/')
            if parts[0] == 'nodes' and first in ('app', 'tests'):
                say(path, number, 'nodes-upward', f'includes "{target}": nodes never include {first}/')
            if shipped and first != 'tests' and lives_under_tests(root, path, target):
                say(path, number, 'shipped-tests', f'includes "{target}", which lives under tests/: shipped code never includes test code')
            elif shipped and first == 'tests':
                say(path, number, 'shipped-tests', f'includes "{target}": shipped code never includes test code')
            if in_core:
                mine = parts[1]
                if first == 'core':
                    used = target.split('/')[1] if target.count('/') >= 2 else None
                    if used is None:
                        say(path, number, 'core-full-path', f'includes "{target}": name core headers as core/<subsystem>/X.h')
                    elif mine in core and used not in core[mine]:
                        allowed = ', '.join(sorted(core[mine] - {mine})) or 'nothing'
                        say(path, number, 'subsystem-uses',
                            f'includes "{target}": core/{mine} may use {allowed} (USES in core/{mine}/CMakeLists.txt), not {used}')
                elif '/' not in target and not os.path.isfile(os.path.join(root, 'core', mine, target)):
                    pass  # a system header in quotes; not Grove's
                elif '/' not in target:
                    say(path, number, 'core-full-path', f'includes "{target}": name core headers as core/{mine}/{target}')
            if in_editor and first in editor:
                mine = parts[2]
                if mine in editor and first not in editor[mine]:
                    allowed = ', '.join(sorted(editor[mine] - {mine})) or 'nothing'
                    say(path, number, 'subsystem-uses',
                        f'includes "{target}": app/editor/{mine} may use {allowed} (USES in app/editor/{mine}/CMakeLists.txt), not {first}')
    return core, editor, problems


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..'))
    core, editor, problems = check(root)
    if not core:
        print(f'check-layering: no grove_subsystem() calls found under {root}/core', file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    print(f'check-layering: {len(core)} core and {len(editor)} editor subsystems; '
          f'{len(problems)} broken rule{"s" if len(problems) != 1 else ""}')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
