#!/usr/bin/env python3
"""The error messages ssdlab can print, read from its C sources.

Finds the format strings given to the functions that report errors
(fprintf to stderr, cli_usage_error, the err/what buffers of the library,
the config and sweep loaders' and the trace readers' helpers), and turns
each into a template: every printf conversion becomes '…', and the
prefixes that only say where (the command, 'FILE:LINE:COL: ', '--set ...: ')
are dropped, as docs/errors.md lists messages without them.

  scripts/error_messages.py            every template, with where it is
  scripts/error_messages.py --missing  templates docs/errors.md lacks, and
                                       entries it has that the code lacks

tests/cli/test_errors.py uses it to hold docs/errors.md to the code."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# call pattern -> how the message is built from the call's string literals
CALLS = {
    'stderr': r'fprintf\(\s*stderr\s*,',
    'usage': r'cli_usage_error\(\s*"[^"]*"\s*,',
    'buffer': r'snprintf\(\s*(?P<buffer>[A-Za-z_>.-]*(?:err|what))\s*,\s*[^,]+,',
    'fail': r'\bfail\(\s*err\s*,\s*[^,]+,',
    'add_error': r'\badd_error\(\s*[^,]+,',
    'problem': r'\bproblem\(\s*[^,]+,[^,]+,[^,]+,',
    'where': r'\bwhere_error\(\s*[^,]+,[^,]+,[^,]+,\s*(?=")',
    'bad': r'\b(?:reader_)?bad\(\s*[^,]+,',
}
# Output on stderr that is not an error: progress lines and notes.
NOT_ERRORS = ('engine/cli/progress.c',)
NOT_ERROR_TEMPLATES = (re.compile(r'^…sweep: …/… done'), re.compile(r'^note: '), re.compile(r'^\(point …'))

LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
PRI = re.compile(r'\s*PRI[diouxX](?:8|16|32|64|MAX|PTR)\s*')
CONVERSION = re.compile(r'%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:hh|h|ll|l|z|j|t)?[diouxXeEfgGcsp]')


def literal_groups(src, pos):
    """The string literals of a call's arguments from pos to its closing
    parenthesis, adjacent literals joined (a PRIu64 between them too)."""
    depth, i, groups, current, last_end = 1, pos, [], None, None
    while i < len(src) and depth:
        c = src[i]
        if c == '"':
            m = LITERAL.match(src, i)
            if current is not None and src[last_end:i].strip() == '':
                current += m.group(1)
            else:
                if current is not None:
                    groups.append(current)
                current = m.group(1)
            last_end = i = m.end()
            pri = PRI.match(src, i)
            if pri and current.endswith('%'):  # "from %" PRIu64 " to %" PRIu64
                current += 'llu'
                last_end = i = pri.end()
            continue
        if c == "'":
            i = src.index("'", i + (3 if src[i + 1] == '\\' else 2)) + 1
            continue
        depth += c == '('
        depth -= c == ')'
        i += 1
    if current is not None:
        groups.append(current)
    return groups


# Buffers that describe a bad value, which the loaders wrap as
# "key 'KEY': WHAT; expected WHAT THE KEY TAKES".
VALUE_CHECKERS = {'engine/config/config_schema.c': 'what', 'engine/config/units.c': 'err'}


def template(kind, groups, rel, buffer):
    if not groups:
        return None
    if kind == 'where':
        return "key '%s': " + groups[0] + '; expected ' + (groups[1] if len(groups) >= 2 else '%s')
    if kind == 'bad':
        return groups[0] + '; expected ' + groups[1] if len(groups) >= 2 else None
    if kind == 'problem':
        return "key '%s': " + groups[0]
    if kind == 'buffer' and VALUE_CHECKERS.get(rel) == buffer:
        return "key '%s': " + groups[0] + '; expected %s'
    return groups[0]


def normalise(text, printf=True):
    """A format string (or, printf=False, a documented message) -> the
    comparable template."""
    t = text.replace('\\n', ' ').replace('\\t', ' ')
    if printf:
        t = CONVERSION.sub('…', t.replace('%%', '\0')).replace('\0', '%')
    t = re.sub(r'<[^<>]+>', '…', t)  # docs write placeholders as <name>
    t = t.replace("Try 'ssdlab --help'.", '')
    t = re.sub(r"^ssdlab( [a-z-]+| …)*: ", '', t.strip())
    t = re.sub(r"^(…:…:…|…:…|…:record …|…:0:0|…:1|…|--set '…'): (?=key |[a-z'(])", '', t)
    return re.sub(r'\s+', ' ', t).strip()


def passes_through(t):
    """Templates that only wrap a message made elsewhere ('ssdlab …: …')."""
    return re.sub(r'…|\b(ssdlab|phase|Try|key|expected)\b|--help|[^A-Za-z]', '', t) == ''


def code_messages(root=ROOT):
    """{template: [file:line, ...]} for every error message in the sources."""
    found = {}
    files = sorted(list(root.glob('engine/**/*.c')) + list(root.glob('traces/*.c')))
    for f in files:
        rel = str(f.relative_to(root))
        if rel in NOT_ERRORS:
            continue
        src = f.read_text()
        for kind, pattern in CALLS.items():
            for m in re.finditer(pattern, src):
                raw = template(kind, literal_groups(src, m.end()), rel, m.groupdict().get('buffer'))
                if raw is None:
                    continue
                t = normalise(raw)
                if passes_through(t) or any(p.search(t) for p in NOT_ERROR_TEMPLATES):
                    continue
                found.setdefault(t, []).append('%s:%d' % (rel, src.count('\n', 0, m.start()) + 1))
    return found


DOC_ROW = re.compile(r'^\| `(?P<message>[^`]+)` \| (?P<why>.+?) \| (?P<example>`[^`]+`|—[^|]*) \|$')


def doc_messages(path=ROOT / 'docs' / 'errors.md'):
    """[(template, message as written, example command or None, line)]."""
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = DOC_ROW.match(line)
        if m:
            ex = m.group('example')
            rows.append((normalise(m.group('message'), printf=False), m.group('message'), ex[1:-1] if ex.startswith('`') else None, n))
    return rows


def main(argv):
    code = code_messages()
    if '--missing' in argv:
        docs = {t for t, *_ in doc_messages()}
        for t in sorted(set(code) - docs):
            print('not in docs/errors.md: %s  (%s)' % (t, ', '.join(code[t])))
        for t in sorted(docs - set(code)):
            print('in docs/errors.md, not in the code: %s' % t)
        return 0
    for t in sorted(code):
        print('%s\t%s' % (t, ', '.join(code[t])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
