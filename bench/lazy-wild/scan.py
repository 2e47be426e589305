#!/usr/bin/env python3
"""Finds candidate wild lazy snippets in fetched mirrors (issue 30, sixth pass).

A candidate is a commit (not a merge) in which a code file that existed in the parent commit
gained a lazy marker line (a comment such as `// ... existing code ...`), while the parent's file
had none. The committed file is then the model's lazy snippet written whole over the file and the
parent's file is the original. A later commit that removes the marker again is recorded as the
repair (a hint of the intended merge, not an expectation).

    python3 bench/lazy-wild/scan.py [--per-commit] MIRROR_GIT_DIR... > candidates.jsonl

Prints one JSON object a line: repo, commit, parent, path, marker (the first), markers (how many),
repair (or null), tool (v0, lovable or unknown, from the commit's author), licence, sizes; and on
stderr how many candidates each later rule left out. The selection rules were fixed here before
any engine output was seen (README.md).

Absent objects: some fetched snapshots lack blobs (a partial clone's promisor pack), and one
`git log -G` over the whole history stops at the first it needs (`unable to read <blob>`). Then the
history is read again commit by commit: every commit whose changed blobs are all present goes
through the same `-G` (`git diff-tree --stdin`), and in a commit that changed an absent blob each
code file whose two versions are present is tested alone; only the file versions that cannot be
read are skipped. Rules 1-6 are the same; stderr names each such repository with how many
changed code-file blobs could not be read (`unreadable REPO: ...`). --per-commit reads every
repository that way (to check that it finds what the one `git log -G` finds).
"""
import collections
import hashlib
import json
import os
import re
import subprocess
import sys

# A marker line: a comment (any common comment opener) whose text starts with an ellipsis and a
# word (`// ... existing code ...`, `{/* ... keep existing code (form) */}`, `# ... rest of`), or
# starts with a word that says "the code that was here" and goes on to say it stays
# (`// Rest of the component remains the same`, `// existing code ...`). A comment that only
# contains an ellipsis somewhere (`// pass status=... directly`) is not a marker.
COMMENT = r'^\s*(//+|#+|/\*+|<!--|\{\s*/\*+|--|;+|%+|\'|\*)\s*\(?\s*'
MARKER = re.compile(
    COMMENT + r'(\.\.\.|…)\s*\(?\s*[A-Za-z]'
    r'|' + COMMENT + r'(existing|rest of|remaining|keep existing|unchanged|previous|other)\b.*'
    r'(code|same|unchanged|as before|here|intact|\.\.\.|…)', re.I)
GREP = r'(//|#|/\*|<!--|--)[[:space:]]*\(?[[:space:]]*(\.\.\.|…)|existing code|rest of (the|your)|remains? (the )?same|keep existing'

# Code files only: documentation, data and notebooks are skipped.
SKIP_EXT = {'.md', '.mdx', '.markdown', '.txt', '.rst', '.adoc', '.json', '.lock', '.ipynb', '.csv',
            '.svg', '.log', '.org', '.tex', '.yml', '.yaml', '.toml', '.ini', '.cfg', '.env', '.xml',
            '.snap', '.map', '.min.js', '.patch', '.diff'}
MAX_BYTES = 200_000


def git(gd, *args):
    """git's output as text, or None when it fails (a path absent at that commit)."""
    r = subprocess.run(['git', '--git-dir', gd, *args], capture_output=True)
    return r.stdout.decode('utf-8', 'replace') if r.returncode == 0 else None


def git_run(gd, *args, stdin=None):
    """git's completed process (output, errors and status as bytes), for callers that must tell a
    failure's cause."""
    return subprocess.run(['git', '--git-dir', gd, *args], input=stdin, capture_output=True)


ABSENT = re.compile(rb'unable to read|missing blob|bad object|could not read|not our ref|promisor', re.I)


# Not markers though they start like one: prose continuing the previous comment line
# (`// ...and the bar still counts`) and commented-out code spreading an object (`//   ...options,`).
CONTINUATION = re.compile(COMMENT + r'(\.\.\.|…)\s*(and|or|but|unless|which|so|then|while|because|if|until|e|et|y|and/or)\b', re.I)
SPREAD = re.compile(COMMENT + r'\.\.\.[A-Za-z_$][\w$.]*\s*[,)\]}]?\s*$')


def is_marker(line):
    return bool(MARKER.search(line)) and not CONTINUATION.search(line) and not SPREAD.search(line)


def markers(text):
    return [l for l in text.split('\n') if is_marker(l)]


def is_code(path):
    low = path.lower()
    base = os.path.basename(low)
    if any(low.endswith(e) for e in SKIP_EXT):
        return False
    if '.' not in base:
        return base in ('makefile', 'dockerfile', 'rakefile', 'gemfile')
    if re.search(r'(^|/)(docs?|prompts?|\.cursor|\.github|\.claude)/', low):
        return False
    return True


def licence(gd):
    """The licence the repository states at its newest commit: a LICENSE/COPYING file's first line,
    or package.json's "license"; 'none stated' otherwise."""
    names = (git(gd, 'ls-tree', '--name-only', 'HEAD') or '').split('\n')
    for n in names:
        if re.match(r'(licen[cs]e|copying)(\.|$)', n, re.I):
            text = git(gd, 'show', f'HEAD:{n}') or ''
            first = next((l.strip() for l in text.split('\n') if l.strip()), '')
            return f'{n}: {first[:60]}'
    pkg = git(gd, 'show', 'HEAD:package.json')
    if pkg:
        try:
            lic = json.loads(pkg).get('license')
            if lic:
                return f'package.json: {lic}'
        except ValueError:
            pass
    return 'none stated'


def repo_name(gd):
    """OWNER/NAME from a mirror's git dir, OWNER+NAME/repo (or OWNER+NAME/repo/.git, a work tree's)."""
    g = os.path.abspath(gd)
    if os.path.basename(g) == '.git':
        g = os.path.dirname(g)
    d = os.path.basename(os.path.dirname(g))
    return d.replace('+', '/', 1)


def parse_name_log(log):
    """(commit, parents, path) for each path of a `--format=@@%H %P --name-only` listing, in order."""
    commit = parents = None
    for line in log.split('\n'):
        if line.startswith('@@'):
            parts = line[2:].split()
            commit, parents = parts[0], parts[1:]
            continue
        path = line.strip()
        if path and commit:
            yield commit, parents, path


def listing_whole(gd):
    """The paths `git log -G` lists over the whole history, or None (with git's error) when it fails."""
    r = git_run(gd, 'log', '--no-merges', '--format=@@%H %P', '--name-only', '-E', '-i', f'-G{GREP}', 'HEAD')
    if r.returncode != 0:
        return None, r.stderr
    return list(parse_name_log(r.stdout.decode('utf-8', 'replace'))), b''


def listing_by_commit(gd, repo):
    """The same listing read commit by commit, skipping the file versions that cannot be read.
    Returns the listing and a report: commits, commits with an absent changed blob, absent objects
    in the history, unreadable changed code-file blobs skipped (the set of their ids)."""
    absent = {l[1:].strip() for l in (git(gd, 'rev-list', '--objects', '--missing=print', 'HEAD') or '').split('\n')
              if l.startswith('?')}
    raw = git(gd, 'log', '--no-merges', '--raw', '--no-renames', '--no-abbrev', '--format=@@%H %P', 'HEAD')
    if raw is None:
        return None, {'error': 'git log --raw failed (a commit or tree cannot be read)', 'absent': len(absent)}
    order, changes, parents_of = [], {}, {}
    commit = None
    for line in raw.split('\n'):
        if line.startswith('@@'):
            parts = line[2:].split()
            commit = parts[0]
            order.append(commit)
            parents_of[commit] = parts[1:]
            changes[commit] = []
        elif line.startswith(':') and commit:
            meta, _, path = line.partition('\t')
            f = meta.split()
            changes[commit].append((f[0][1:], f[1], f[2], f[3], path))
    whole, partial = [], []
    for c in order:
        if len(parents_of[c]) != 1:
            continue
        if any(o in absent or n in absent for _, _, o, n, _ in changes[c]):
            partial.append(c)
        else:
            whole.append(c)
    found = {}
    # Commits whose changed blobs are all present: the same -G, in one process.
    if whole:
        r = git_run(gd, 'diff-tree', '--stdin', '-r', '--name-only', '--format=@@%H %P', '-E', '-i',
                    f'-G{GREP}', stdin=('\n'.join(whole) + '\n').encode())
        if r.returncode == 0:
            for c, ps, path in parse_name_log(r.stdout.decode('utf-8', 'replace')):
                found.setdefault(c, []).append(path)
        else:  # an absent object the listing did not show: test these commits one by one too
            partial = whole + partial
    zero = '0' * 40
    unreadable = set()
    for c in partial:
        for om, nm, o, n, path in changes[c]:
            if o == zero or n == zero or om == '160000' or nm == '160000' or not is_code(path):
                continue  # added, deleted or a submodule: not a case (rule 1); not code: rule 3
            gone = {x for x in (o, n) if x in absent}
            if not gone:
                r = git_run(gd, '--literal-pathspecs', 'diff-tree', '-r', '--name-only', '-E', '-i', f'-G{GREP}',
                            parents_of[c][0], c, '--', path)
                if r.returncode == 0:
                    if r.stdout.strip():
                        found.setdefault(c, []).append(path)
                    continue
                if not ABSENT.search(r.stderr):
                    continue
                gone = {o, n}
            unreadable |= gone
    listing = [(c, parents_of[c], p) for c in order for p in found.get(c, [])]
    return listing, {'commits': len(order), 'partial': len(partial), 'absent': len(absent), 'unreadable': unreadable}


def scan(gd, per_commit=False):
    repo = repo_name(gd)
    listing, err = (None, b'(--per-commit)') if per_commit else listing_whole(gd)
    if listing is None:
        if not per_commit and not ABSENT.search(err):
            # Not absent objects (an empty repository, no HEAD): nothing to scan, and said so.
            print(f'failed {repo}: {err.decode("utf-8", "replace").strip().splitlines()[-1:]}', file=sys.stderr)
            return
        listing, report = listing_by_commit(gd, repo)
        if listing is None:
            print(f'failed {repo}: {report["error"]} ({report["absent"]} absent objects)', file=sys.stderr)
            return
        if not per_commit or report['unreadable']:
            print(f'unreadable {repo}: {len(report["unreadable"])} changed code-file blobs skipped '
                  f'({report["absent"]} absent objects in the history; {report["partial"]} of {report["commits"]} '
                  f'commits read file by file)', file=sys.stderr)
    for commit, parents, path in listing:
        if len(parents) != 1 or not is_code(path):
            continue
        parent = parents[0]
        new = git(gd, 'show', f'{commit}:{path}')
        old = git(gd, 'show', f'{parent}:{path}')
        if new is None or old is None or not old.strip():
            continue
        if len(new) > MAX_BYTES or len(old) > MAX_BYTES or '\0' in new or '\0' in old:
            continue
        got = markers(new)
        if not got or markers(old):
            continue
        # The marker must stand for something: some line of the original is not in the snippet.
        kept = {l.strip() for l in new.split('\n')}
        if all(l.strip() in kept for l in old.split('\n')):
            skipped['marker stands for nothing (every line of the original is in the snippet)'] += 1
            continue
        # A revert writes back an earlier version of the file: not a new snippet over the parent.
        blob = (git(gd, 'rev-parse', f'{commit}:{path}') or '').strip()
        earlier = git(gd, 'log', '--format=', '--raw', '--no-abbrev', parent, '--', path) or ''
        if blob and blob in earlier:
            skipped['the commit writes back an earlier version of the file (a revert)'] += 1
            continue
        pair = hashlib.sha256((old + '\0' + new).encode()).hexdigest()
        if pair in seen_pairs:
            skipped['same original and snippet as an earlier case'] += 1
            continue
        seen_pairs.add(pair)
        # The repair: the first later commit on this path after which the file has no marker.
        repair = None
        later = git(gd, 'log', '--format=%H', '--reverse', f'{commit}..HEAD', '--', path) or ''
        for c in later.split():
            t = git(gd, 'show', f'{c}:{path}')
            if t is None:
                if git(gd, 'rev-parse', '--verify', '-q', f'{c}:{path}') is not None:
                    print(f'unreadable {repo}: {c}:{path} (a later version, skipped looking for the repair)',
                          file=sys.stderr)
                    continue  # the version is there but its blob is absent: look on
                break
            if not markers(t):
                repair = c
                break
        author = (git(gd, 'show', '-s', '--format=%an', commit) or '').strip()
        tool = ('v0' if author.startswith('v0') else 'lovable' if re.search(r'lovable|gpt-engineer', author, re.I)
                else 'unknown')
        print(json.dumps({'repo': repo, 'commit': commit, 'parent': parent, 'path': path,
                          'marker': got[0].strip(), 'markers': len(got), 'repair': repair,
                          'tool': tool, 'licence': licence(gd), 'orig_bytes': len(old), 'snippet_bytes': len(new)}), flush=True)


skipped = collections.Counter()
seen_pairs = set()

if __name__ == '__main__':
    args = sys.argv[1:]
    per_commit = '--per-commit' in args
    for gd in (a for a in args if a != '--per-commit'):
        scan(gd, per_commit)
    for reason, n in skipped.items():
        print(f'skipped {n}: {reason}', file=sys.stderr)
