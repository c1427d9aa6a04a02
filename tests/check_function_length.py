#!/usr/bin/env python3
"""No function of the library is longer than 200 lines (issue 12).

A function body runs from its opening `{` at column 0 to the next `}` at
column 0 (the project's style: nothing else in a .c file opens or closes
at column 0), both lines counted.  Every *.c of translator/, passes/,
merge/ and emit/ is read, except the parsers and lexers bison and flex
generate (a .c beside a .y or .l of the same name).  Past the limit a
function is hard to review whole and its cases hide each other, so it is
split along the structure it already has (one function per family of
opcodes, per step).

SConscript runs this check on every build (a long function fails the
build); tests/run_tests.sh runs it and its self-test as a suite.

usage: check_function_length.py ROOT     check the tree at ROOT
       check_function_length.py --self-test
"""
import os
import re
import sys
import tempfile

STAGES = ('translator', 'passes', 'merge', 'emit')
LIMIT = 200
NAME = re.compile(r'([A-Za-z_]\w*)\s*\(')
# a definition whose `{` ends its head line would escape the count
BRACE_ON_HEAD = re.compile(r'^[A-Za-z_][^;=]*\)\s*\{\s*$')


def library_sources(root):
    for stage in STAGES:
        for d, dirs, files in os.walk(os.path.join(root, stage)):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith('.c'):
                    continue
                base = os.path.join(d, f[:-2])
                if os.path.exists(base + '.y') or os.path.exists(base + '.l'):
                    continue
                yield os.path.join(d, f)


def function_name(lines, brace):
    """The name and 0-based line of the definition whose `{` is at brace,
    or (None, brace) when the lines above are no function head (an
    initializer, say)."""
    k = brace - 1
    head = []
    while k >= 0 and lines[k].strip() and not lines[k].startswith(('}', '#')) and \
            not lines[k].rstrip().endswith((';', '*/')):
        head.insert(0, lines[k])
        k -= 1
    text = ' '.join(head)
    if '(' not in text or '=' in text.split('(')[0]:
        return None, brace
    m = NAME.search(text)
    if not m:
        return None, brace
    # the line the name is on
    for n, ln in enumerate(head):
        if re.search(r'\b%s\s*\(' % re.escape(m.group(1)), ln):
            return m.group(1), k + 1 + n
    return m.group(1), k + 1


def long_functions(root, limit=LIMIT):
    """'file:line: message' strings, one per function over limit lines, per
    `{` at column 0 that no `}` at column 0 closes and per function head that
    ends in its `{` (whose body this check would not see)."""
    errors = []
    for path in library_sources(root):
        with open(path, encoding='utf-8', errors='replace') as fh:
            lines = fh.read().split('\n')
        rel = os.path.relpath(path, root)
        i = 0
        while i < len(lines):
            if BRACE_ON_HEAD.match(lines[i]):
                errors.append('%s:%d: put the `{` of a function body on a line of its own'
                              % (rel, i + 1))
            if not lines[i].startswith('{'):
                i += 1
                continue
            j = i + 1
            while j < len(lines) and not lines[j].startswith('}'):
                j += 1
            name, at = function_name(lines, i)
            if j == len(lines):
                errors.append('%s:%d: the `{` at column 0 here has no `}` at column 0 after it'
                              % (rel, i + 1))
                break
            n = j - i + 1
            if name and n > limit:
                errors.append('%s:%d: %s is %d lines long (at most %d): split it along its '
                              'structure' % (rel, at + 1, name, n, limit))
            i = j + 1
    return errors


def self_test():
    """The check on a made-up tree whose answer is known; returns failures."""
    def fn(name, body_lines):
        # signature, {, body, }: body_lines + 2 lines from { to }
        return ['static int %s(int a,' % name, '               int b)', '{'] + \
               ['    a += b;' if k % 7 else '    {' if k % 14 == 0 else '    }'
                for k in range(body_lines)] + ['}', '']
    failures = []
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'emit', 'sub'))
        os.makedirs(os.path.join(root, 'translator'))
        os.makedirs(os.path.join(root, 'tests'))
        src = ['/* a file */', '#include <x.h>', '',
               'static const int table[] =', '{'] + ['    %d,' % k for k in range(300)] + \
              ['};', ''] + fn('just_fits', LIMIT - 2) + fn('one_too_many', LIMIT - 1) + \
              ['int', 'outer_name(void)', '{', '    return 0;', '}', '']
        with open(os.path.join(root, 'emit', 'sub', 'a.c'), 'w') as fh:
            fh.write('\n'.join(src))
        # a generated parser: skipped however long
        with open(os.path.join(root, 'translator', 'gram.y'), 'w') as fh:
            fh.write('%%\n')
        with open(os.path.join(root, 'translator', 'gram.c'), 'w') as fh:
            fh.write('\n'.join(fn('yyparse', 5000)))
        # outside the stages: not read
        with open(os.path.join(root, 'tests', 't.c'), 'w') as fh:
            fh.write('\n'.join(fn('test_long', 5000)))
        got = long_functions(root)
        line = src.index('static int one_too_many(int a,') + 1
        want = ['emit/sub/a.c:%d: one_too_many is %d lines long (at most %d): split it along '
                'its structure' % (line, LIMIT + 1, LIMIT)]
        if got != want:
            failures.append('long functions: got %r, want %r' % (got, want))
        with open(os.path.join(root, 'translator', 'open.c'), 'w') as fh:
            fh.write('int g(void) { return 1; }\nvoid h(void) {\n    return;\n}\n'
                     'void f(void)\n{\n    return;\n')
        got = [e for e in long_functions(root) if e.startswith('translator/open.c')]
        want = ['translator/open.c:2: put the `{` of a function body on a line of its own',
                'translator/open.c:6: the `{` at column 0 here has no `}` at column 0 after it']
        if got != want:
            failures.append('brace style: got %r, want %r' % (got, want))
    return failures


def main(argv):
    if len(argv) > 1 and argv[1] == '--self-test':
        failures = self_test()
        for f in failures:
            print('function length self-test: ' + f, file=sys.stderr)
        return 1 if failures else 0
    root = os.path.abspath(argv[1] if len(argv) > 1 else '.')
    errors = long_functions(root)
    for e in errors:
        print('function length: ' + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
