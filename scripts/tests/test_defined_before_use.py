# SPDX-License-Identifier: GPL-2.0
"""Every shell function a script's top-level code calls is defined above
the call, and so is every function it calls in turn: bash resolves a
name when the call runs, so a function defined further down fails only
when that line is reached (make bench once stopped at "idle_configs:
command not found" after building every kernel, a path no unit test,
each of which extracts the functions it tests, could reach)."""
import glob
import os
import re
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEF = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\(\) \{")
# a word where a command starts: a line's first, or after ; & | ( ) { !
# $( (a case arm's ")") or a keyword that a command follows (a word
# inside a message is not a call; nor is a function's name passed to
# another as an argument, which this does not follow)
CMD = re.compile(r"(?:^|[;&|(){!]|\$\(|\b(?:then|do|else|elif|if|while|until)\b)\s*"
                 r"([A-Za-z_][A-Za-z0-9_]*)")


# a file sourced by path: the guest's (/guest/X, guest/X here) and the
# harness's (lib.sh and what it sources); its functions count as defined
# where the source line stands
SOURCED = (re.compile(r'^\. /guest/([\w/.-]+)$'), "guest"), \
    (re.compile(r'^\. "\$\(dirname "\$0"\)/([\w/.-]+)"$'), "scripts"), \
    (re.compile(r'^\. "\$ROOT/scripts/([\w/.-]+)"$'), "scripts"), \
    (re.compile(r'^\. "\$\(dirname "\$\(readlink -f "\$\{BASH_SOURCE\[0\]\}"\)"\)/([\w/.-]+)"$'), "scripts")


def inlined(path, root=ROOT, depth=0):
    """the script's text with each file it sources in place of the line
    that sources it (a call into a sourced file is then checked against
    where that file is sourced)"""
    with open(path) as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        for pattern, where in SOURCED:
            m = pattern.match(line.strip())
            if m and depth < 4 and os.path.isfile(os.path.join(root, where, m.group(1))):
                out.append("# " + line)
                out.extend(inlined(os.path.join(root, where, m.group(1)), root, depth + 1).splitlines())
                break
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def code(line):
    """the line without a comment that takes the whole line"""
    return "" if line.lstrip().startswith("#") else line


def functions(lines):
    """name -> (first line, last line, the body's lines) of each function
    defined at column 0 (a function of one line, f() { ...; }, is its
    first line's rest)"""
    defs = {}
    i = 0
    while i < len(lines):
        m = DEF.match(lines[i])
        if not m:
            i += 1
            continue
        if lines[i].rstrip().endswith("}"):
            defs[m.group(1)] = (i, i, [lines[i][m.end():]])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != "}":
            j += 1
        defs[m.group(1)] = (i, j, lines[i + 1:j])
        i = j + 1
    return defs


def late_calls(text):
    """(line number, function, the function called before its definition)
    for each top-level call that would reach a function not yet defined"""
    lines = text.splitlines()
    defs = functions(lines)
    calls = {f: {w for line in body for w in CMD.findall(code(line)) if w in defs and w != f}
             for f, (_, _, body) in defs.items()}
    inside = {k for a, b, _ in defs.values() for k in range(a, b + 1)}
    late = []
    for n, line in enumerate(lines):
        if n in inside:
            continue
        for f in sorted({w for w in CMD.findall(code(line)) if w in defs}):
            seen, todo = set(), [f]
            while todo:
                g = todo.pop()
                if g in seen:
                    continue
                seen.add(g)
                if defs[g][0] > n:
                    late.append((n + 1, f, g))
                todo.extend(calls[g])
    return late


class DefinedBeforeUse(unittest.TestCase):
    def test_the_harness_and_guest_scripts(self):
        paths = glob.glob(os.path.join(ROOT, "scripts", "*.sh"))
        paths += glob.glob(os.path.join(ROOT, "scripts", "lib", "*.sh"))
        paths += glob.glob(os.path.join(ROOT, "guest", "jobs", "*.sh"))
        paths += glob.glob(os.path.join(ROOT, "guest", "bench", "*.sh"))
        paths += [os.path.join(ROOT, "guest", "init"), os.path.join(ROOT, "guest", "lib.sh")]
        self.assertGreater(len(paths), 20)
        for path in sorted(paths):
            late = late_calls(inlined(path))
            with self.subTest(script=os.path.relpath(path, ROOT)):
                self.assertEqual(late, [], "line, function called, defined below the call")

    def test_a_call_above_its_definition_is_found(self):
        text = "a() {\n\tb\n}\nx=$(a)\nb() {\n\ttrue\n}\n"
        self.assertEqual(late_calls(text), [(4, "a", "b")])

    def test_a_call_below_every_definition_passes(self):
        text = "b() {\n\ttrue\n}\na() {\n\tb\n}\nx=$(a)\n"
        self.assertEqual(late_calls(text), [])

    def test_a_function_may_call_one_defined_after_it(self):
        # (resolved when it runs, which is after both are defined)
        text = "a() {\n\tb\n}\nb() {\n\ttrue\n}\na\n"
        self.assertEqual(late_calls(text), [])

    def test_a_call_in_a_command_substitution_is_found(self):
        text = 'msg "$(a) done" || true\na() {\n\ttrue\n}\n'
        self.assertEqual(late_calls(text), [(1, "a", "a")])

    def test_a_word_in_a_message_is_not_a_call(self):
        text = 'fail "the table does not parse"\ntable() {\n\ttrue\n}\n'
        self.assertEqual(late_calls(text), [])

    def test_a_function_of_one_line(self):
        # (its closing brace is on its line: the code below it is top level)
        text = "a() { b; }\nx=$(a)\nb() {\n\ttrue\n}\n"
        self.assertEqual(late_calls(text), [(2, "a", "b")])

    def test_a_call_in_a_case_arm(self):
        text = "case $1 in\nx) a ;;\nesac\na() {\n\ttrue\n}\n"
        self.assertEqual(late_calls(text), [(2, "a", "a")])

    def sourcing(self, main):
        """late_calls of main, a script that may source /guest/bench/f.sh (f())"""
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "guest", "bench"))
            with open(os.path.join(tmp, "guest", "bench", "f.sh"), "w") as f:
                f.write("f() {\n\ttrue\n}\n")
            with open(os.path.join(tmp, "main.sh"), "w") as f:
                f.write(main)
            return late_calls(inlined(os.path.join(tmp, "main.sh"), tmp))

    def test_a_call_into_a_file_sourced_below_it_is_found(self):
        self.assertEqual(self.sourcing("f\n. /guest/bench/f.sh\n"), [(1, "f", "f")])

    def test_a_call_into_a_file_sourced_above_it_passes(self):
        self.assertEqual(self.sourcing(". /guest/bench/f.sh\nf\n"), [])

    def test_a_comment_is_not_a_call(self):
        text = "# a, b\nb() {\n\ttrue\n}\n"
        self.assertEqual(late_calls(text), [])


if __name__ == "__main__":
    unittest.main()
