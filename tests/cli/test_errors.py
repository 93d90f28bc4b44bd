#!/usr/bin/python3
"""docs/errors.md against the code: every error message in the sources is
listed, every listed message is in the sources, and every example command
prints its message and exits with a non-zero status.

Usage: test_errors.py SSDLAB_BINARY PROJECT_DIR"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

binary, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(source, 'scripts'))
import error_messages  # noqa: E402

failures = []


def fail(text):
    failures.append(text)


def pattern(message):
    """The documented message as a regular expression: placeholders match
    anything on the line."""
    parts = re.split(r'<[^<>]+>', message)
    return re.compile('.*?'.join(re.escape(p) for p in parts))


def run_example(row):
    template, message, example, line, warning = row
    with tempfile.TemporaryDirectory(prefix='ssdlab-errors-') as tmp:
        bindir = os.path.join(tmp, '.bin')
        os.mkdir(bindir)
        os.symlink(binary, os.path.join(bindir, 'ssdlab'))
        env = dict(os.environ, PATH=bindir + ':' + os.environ['PATH'], SRC=source)
        env.pop('SSDLAB_MODELS', None)
        p = subprocess.run(['bash', '-c', example], cwd=tmp, env=env, capture_output=True, text=True,
                           errors='replace', timeout=600)
    output = p.stdout + p.stderr
    problems = []
    if p.returncode == 0 and not warning:
        problems.append('exited 0')
    # messages that list problems on the lines below them match across lines
    if not pattern(message).search(re.sub(r'\s+', ' ', output)):
        problems.append('did not print the message')
    if problems:
        return 'docs/errors.md:%d: `%s`: %s; output:\n%s' % (line, example, ', '.join(problems), output[-2000:])
    return None


code = error_messages.code_messages()
rows = error_messages.doc_messages()
documented = {t for t, *_ in rows}
for t in sorted(set(code) - documented):
    fail('in the code, not in docs/errors.md: %s (%s)' % (t, ', '.join(code[t])))
for t in sorted(documented - set(code)):
    fail('in docs/errors.md, not in the code: %s' % t)
seen = set()
for t, message, example, line in rows:
    if t in seen:
        fail('docs/errors.md:%d: listed twice: %s' % (line, message))
    seen.add(t)

# A message without an example must say why none can be given.
text = open(os.path.join(source, 'docs', 'errors.md')).read().splitlines()
for t, message, example, line in rows:
    if example is None and not re.search(r'\| — (cannot be produced on purpose|a bug if it appears|needs memory to run out)',
                                         text[line - 1]):
        fail('docs/errors.md:%d: no example and no reason: %s' % (line, message))

# Warnings (the cause says so) may leave the exit status 0.
examples = [r + (text[r[3] - 1].split(' | ')[1].startswith('A warning'),) for r in rows if r[2]]
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    for result in pool.map(run_example, examples):
        if result:
            fail(result)

# The count is part of what is checked: a table the parser stops reading
# would otherwise pass.
if len(rows) != len(code):
    fail('%d rows in docs/errors.md, %d messages in the code' % (len(rows), len(code)))
print('%d messages in the code, %d documented, %d examples run' % (len(code), len(rows), len(examples)))
for f in failures:
    print('FAIL', f)
sys.exit(1 if failures else 0)
