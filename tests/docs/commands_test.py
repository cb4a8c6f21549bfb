#!/usr/bin/python3
"""Every command of README.md and docs/*.md still runs as written.

Each fenced shell block (sh, bash, shell, console) carries on the line before its fence one of
  <!-- runnable -->          fast and self-contained (seconds, no network, nothing installed,
                             output only under mktemp); this test runs it
  <!-- not-run: REASON -->   why it is not run (a synopsis, a full run, files of the reader's)
so that no new block escapes: a shell block with neither, a not-run without a reason, a marker
with no shell block after it and a fence that names no language all fail.

A runnable block runs with `bash -e -o pipefail` in a view of the repository root (every
top-level entry linked, build/ this build tree, TMPDIR a scratch folder), so build/seqconf is the
program under test and a block cannot write into the repository. A block fails with its file,
line, command and exit status, and also when it leaves a file in the current folder.

Every block, run or not: each --flag given to build/seqconf SUBCOMMAND, build/seqconf-bench,
tools/mutate or bench/ratios.py must be one that the program's --help lists.

  commands_test.py SOURCE_DIR BUILD_DIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SHELL = {"sh", "bash", "shell", "console", "zsh"}
FENCE = re.compile(r"^( *)(`{3,}|~{3,})\s*([^`\s]*)")
RUNNABLE = "<!-- runnable -->"
NOT_RUN = re.compile(r"^<!-- not-run:(.*)-->$")
MARKER = re.compile(r"^<!-- (runnable|not-run)\b")
# Programs whose flags are checked against their --help (seqconf per subcommand).
PROGRAMS = ("build/seqconf", "build/seqconf-bench", "tools/mutate", "bench/ratios.py")
BLOCK_TIMEOUT = 300


class Block:
    def __init__(self, rel, line, lang, marker, reason):
        self.rel, self.line, self.lang = rel, line, lang
        self.marker, self.reason = marker, reason
        self.lines = []  # (line number in the doc, text without the fence's indent)

    def commands(self):
        """Logical command lines: (first doc line, text), continuations joined, comments cut."""
        out, start, parts = [], None, []
        for n, text in self.lines:
            if start is None:
                start = n
            text = re.sub(r"(^|\s)#.*$", "", text)
            if text.endswith("\\"):
                parts.append(text[:-1])
                continue
            parts.append(text)
            joined = " ".join(p.strip() for p in parts).strip()
            if joined:
                out.append((start, joined))
            start, parts = None, []
        return out


def parse(root, path, failures):
    rel = os.path.relpath(path, root)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            nxt = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
            if MARKER.match(lines[i].strip()) and not (nxt and nxt.group(3).lower() in SHELL):
                failures.append("%s:%d: %s is not followed by a shell block" %
                                (rel, i + 1, lines[i].strip()))
            i += 1
            continue
        indent, fence, lang = len(m.group(1)), m.group(2), m.group(3).lower()
        before = lines[i - 1].strip() if i else ""
        marker, reason = None, None
        if before == RUNNABLE:
            marker = "runnable"
        elif NOT_RUN.match(before):
            marker, reason = "not-run", NOT_RUN.match(before).group(1).strip()
        if not lang:
            failures.append("%s:%d: a fenced block names no language (sh for commands)" %
                            (rel, i + 1))
        block = Block(rel, i + 1, lang, marker, reason)
        i += 1
        close = re.compile(r"^ *%s%s* *$" % (re.escape(fence), re.escape(fence[0])))
        while i < len(lines) and not close.match(lines[i]):
            block.lines.append((i + 1, lines[i][indent:] if lines[i][:indent].strip() == ""
                                else lines[i].lstrip()))
            i += 1
        i += 1
        if lang in SHELL:
            blocks.append(block)
            if marker is None:
                failures.append("%s:%d: a %s block without %s or <!-- not-run: REASON --> on "
                                "the line before" % (rel, block.line, lang, RUNNABLE))
            elif marker == "not-run" and not reason:
                failures.append("%s:%d: <!-- not-run: --> gives no reason" % (rel, block.line))
    return blocks


def make_view(root, build, scratch):
    """A folder that is the repository root but for build/, which is this build tree."""
    view = os.path.join(scratch, "root")
    os.mkdir(view)
    for entry in os.listdir(root):
        if entry != "build":
            os.symlink(os.path.join(root, entry), os.path.join(view, entry))
    os.symlink(os.path.abspath(build), os.path.join(view, "build"))
    return view


def invocations(command):
    """(program, subcommand, [flags]) for each checked program the command line calls."""
    tokens = command.split()
    out = []
    for i, tok in enumerate(tokens):
        prog = tok.lstrip("$(\"'`").rstrip(";")
        if prog.startswith("./"):
            prog = prog[2:]
        if prog not in PROGRAMS:
            continue
        sub, flags, depth = None, [], 0
        for j, arg in enumerate(tokens[i + 1:]):
            if depth == 0 and arg in (";", "&&", "||", "|"):
                break
            depth += arg.count("(") + arg.count("[") - arg.count(")") - arg.count("]")
            bare = arg.lstrip("[(\"'")
            m = re.match(r"--[A-Za-z0-9][\w-]*", bare)
            if m:
                flags.append(m.group(0))
            elif (prog == "build/seqconf" and j == 0 and re.match(r"^[a-z][a-z-]*$", arg)):
                sub = arg
            if depth < 0 or arg.endswith(";"):
                break  # the end of a $( ... ) or of a command
        out.append((prog, sub, flags))
    return out


def help_flags(view, prog, sub, cache, notes):
    key = (prog, sub)
    if key in cache:
        return cache[key]
    path = os.path.join(view, prog)
    if not os.path.exists(path):
        if prog == "build/seqconf-bench":  # not built without Google Benchmark
            notes.add("%s is not built: its flags are not checked" % prog)
            cache[key] = None
            return None
        cache[key] = "%s does not exist" % prog
        return cache[key]
    argv = ([sys.executable] if prog.endswith(".py") else []) + [path]
    argv += ([sub] if sub else []) + ["--help"]
    run = subprocess.run(argv, cwd=view, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, timeout=60)
    if run.returncode != 0:
        cache[key] = "`%s --help` exits %d: %s" % (" ".join([prog] + ([sub] if sub else [])),
                                                  run.returncode, run.stdout.strip()[-300:])
    else:
        cache[key] = set(re.findall(r"--[A-Za-z0-9][\w-]*", run.stdout))
    return cache[key]


def check_flags(view, blocks, failures, notes):
    cache, checked = {}, 0
    for b in blocks:
        for line, command in b.commands():
            for prog, sub, flags in invocations(command):
                known = help_flags(view, prog, sub, cache, notes)
                if known is None:
                    continue
                if isinstance(known, str):
                    failures.append("%s:%d: %s" % (b.rel, line, known))
                    continue
                checked += 1
                for flag in flags:
                    if flag not in known:
                        failures.append("%s:%d: %s%s has no %s (its --help): %s" % (
                            b.rel, line, prog, " " + sub if sub else "", flag, command))
    return checked


def run_block(b, view, tmp, failures):
    script = "\n".join(text for _, text in b.lines)
    err = os.path.join(tmp, "failed-command")
    trap = ("trap 'rc=$?; printf \"%s\\t%s\\t%s\\n\" \"$rc\" \"$LINENO\" \"$BASH_COMMAND\" "
            "> \"$SEQCONF_DOCS_FAILED\"' ERR\n")
    env = dict(os.environ, TMPDIR=tmp, SEQCONF_DOCS_FAILED=err)
    before = set(os.listdir(view))
    if os.path.exists(err):
        os.remove(err)
    started = time.time()
    try:
        run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", trap + script], cwd=view,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, timeout=BLOCK_TIMEOUT)
        rc, output = run.returncode, run.stdout
    except subprocess.TimeoutExpired as e:
        rc, output = "timeout after %d s" % BLOCK_TIMEOUT, e.output or ""
        if isinstance(output, bytes):
            output = output.decode("utf-8", "replace")
    seconds = time.time() - started
    if rc != 0:
        line, command = b.line, "(the block)"
        if os.path.exists(err):
            with open(err, encoding="utf-8") as f:
                fields = f.read().rstrip("\n").split("\t", 2)
            if len(fields) == 3:
                failed = " ".join(fields[2].split())
                command = failed
                # The doc line of the logical command the shell reports, else its line count.
                matches = [n for n, c in b.commands() if failed in " ".join(c.split())]
                line = matches[0] if matches else b.lines[0][0] + int(fields[1]) - 2
        failures.append("%s:%d: exit %s: %s\n%s" % (b.rel, line, rc, command, "\n".join(
            "    | " + l for l in output.rstrip("\n").split("\n")[-25:])))
    left = sorted(set(os.listdir(view)) - before)
    for entry in left:
        failures.append("%s:%d: the block wrote %s in the current folder (write under "
                        "$(mktemp -d))" % (b.rel, b.line, entry))
        path = os.path.join(view, entry)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.remove(path)
    return seconds


def main():
    root, build = sys.argv[1], sys.argv[2]
    failures, notes = [], set()
    files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs",
                                                                              "*.md")))
    blocks = []
    for path in files:
        blocks += parse(root, path, failures)
    scratch = tempfile.mkdtemp(prefix="seqconf-docs-")
    try:
        view = make_view(root, build, scratch)
        tmp = os.path.join(scratch, "tmp")
        os.mkdir(tmp)
        checked = check_flags(view, blocks, failures, notes)
        runnable = [b for b in blocks if b.marker == "runnable"]
        for b in runnable:
            seconds = run_block(b, view, tmp, failures)
            print("ran %s:%d (%d commands) in %.1f s" % (b.rel, b.line, len(b.commands()),
                                                         seconds))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for b in blocks:
        if b.marker == "not-run":
            print("not run %s:%d: %s" % (b.rel, b.line, b.reason))
    for n in sorted(notes):
        print("note:", n)
    for f in failures:
        print("FAIL", f)
    print("%d shell blocks in %d files: %d run, %d not run; flags of %d command lines checked; "
          "%d failures" % (len(blocks), len(files), len(runnable),
                           sum(b.marker == "not-run" for b in blocks), checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
