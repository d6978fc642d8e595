# SPDX-License-Identifier: Apache-2.0
"""The man pages say what the programs' --help says, as a reader sees them.

usage: check_man_pages.py INSPECT STUDIO MAN_DIR

- one page for hsdp-studio, one for hsdp-inspect and one per command that
  hsdp-inspect --help lists, and no other;
- each renders without a warning from man (groff), as lintian checks it;
- every line of each --help is in its rendered page (spaces and typography
  aside), so a help line the generator dropped or mangled fails here.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

# groff's typographic glyphs, as ASCII (quotes, dashes, minus)
GLYPHS = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                        "\u2010": "-", "\u2212": "-", "\u2013": "-", "\u2014": "-", "`": "'"})


def run(command, env=None):
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    return done.returncode, done.stdout, done.stderr


def normal(text):
    return " ".join(text.translate(GLYPHS).split())


def rendered(page):
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="200", MAN_KEEP_FORMATTING="")
    code, out, err = run(["man", "--warnings", "-E", "UTF-8", "-l", "-P", "cat", str(page)], env)
    return code, out, err.strip()


def help_lines(text):
    """The lines a reader must find: prefixes the page turns into headings dropped."""
    for line in text.splitlines():
        line = line.strip()
        if not line or re.fullmatch(r"[A-Za-z ]+:", line):  # "options:" -> OPTIONS
            continue
        line = re.sub(r"^(usage|exit status):\s*", "", line, flags=re.IGNORECASE)
        if line:
            yield line


def main():
    inspect, studio, man_dir = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    _, tool_help, _ = run([inspect, "--help"])
    listed = tool_help.split("\ncommands:\n", 1)[1].split("\n\n", 1)[0]
    commands = re.findall(r"^  ([a-z][a-z-]*)\b", listed, re.MULTILINE)
    helps = {"hsdp-inspect": tool_help, "hsdp-studio": run([studio, "--help"], env)[1]}
    for command in commands:
        helps[f"hsdp-inspect-{command}"] = run([inspect, command, "--help"], env)[1]

    failures = []
    pages = {p.name[: -len(".1.gz")] for p in man_dir.glob("*.1.gz")}
    if pages != set(helps):
        failures.append(f"pages {sorted(pages)} are not those of the helps {sorted(helps)}")
    for name, text in sorted(helps.items()):
        page = man_dir / f"{name}.1.gz"
        if not page.exists() or not text.strip():
            failures.append(f"{name}: no page or no help")
            continue
        code, out, warnings = rendered(page)
        if code != 0 or warnings:
            failures.append(f"{name}: man exited {code}: {warnings}")
        body = normal(out)
        missing = [line for line in help_lines(text) if normal(line) not in body]
        failures += [f"{name}: help line not in the page: {line}" for line in missing]
        print(f"{name}: {len(list(help_lines(text)))} help lines, {len(missing)} missing")
    for failure in failures:
        print("FAIL", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
