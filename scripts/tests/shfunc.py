# SPDX-License-Identifier: GPL-2.0
"""A shell script's function, cut out of its text, for the tests that run
one function of a script on its own (the harness's functions open with
NAME() { on a line and close with } at the start of a line)."""
import re


def shell_function(text, name, where):
    """NAME's definition in TEXT (WHERE: the file, for the error)"""
    m = re.search(r"^%s\(\) \{\n.*?^\}\n" % re.escape(name), text, re.M | re.S)
    if not m:
        raise AssertionError("%s has no function %s()" % (where, name))
    return m.group(0)
