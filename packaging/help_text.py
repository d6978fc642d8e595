# SPDX-License-Identifier: Apache-2.0
"""The --help text of a built program, parsed into what its man page and its
shell completion are made of, so that neither can drift from the help.

The shape every program's help follows (hsdp-inspect's commands, and Qt's
QCommandLineParser for hsdp-studio):

    usage: PROGRAM ...            the synopsis (indented lines continue it)

    Paragraphs of prose.          an indented line keeps its line breaks

    options:                      a list: a heading ending in ':' alone on
      -o, --output FILE  what     its line, then items, each a term and its
                         more     description (two spaces apart, or on the
      --json             what     following, deeper indented lines)

    exit status: ...              a paragraph like any other
"""

import re
import subprocess
from dataclasses import dataclass, field

HEADING = re.compile(r"^([A-Za-z][A-Za-z ]*):$")
OPTION = re.compile(r"^(-{1,2}[A-Za-z0-9][A-Za-z0-9-]*)(?:[ =](\S+))?$")


@dataclass
class Item:
    """One entry of a list: a command or an option and what it does."""

    term: str
    description: list = field(default_factory=list)  # lines, stripped

    def text(self):
        return " ".join(self.description)


@dataclass
class Block:
    """A paragraph (lines as printed) or a list (heading and items)."""

    lines: list = field(default_factory=list)
    heading: str = ""
    items: list = field(default_factory=list)

    def is_list(self):
        return bool(self.heading)

    def is_preformatted(self):
        """Lines laid out by hand (indented): their breaks are meant."""
        return any(line.startswith(" ") for line in self.lines)


@dataclass
class Help:
    usage: list  # the synopsis lines, "usage:" removed
    blocks: list

    def lists(self, heading):
        return [b for b in self.blocks if b.heading.lower() == heading]

    def items(self, heading):
        return [item for block in self.lists(heading) for item in block.items]

    def first_sentence(self):
        """The help's first sentence of prose: the man page's NAME line."""
        for block in self.blocks:
            if not block.is_list() and not block.is_preformatted():
                text = " ".join(block.lines)
                end = re.search(r"[.;](\s|$)", text)
                return text[: end.start()] if end else text
        return ""


def run_help(command, env=None):
    """The help text `command` prints (it must exit 0)."""
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def parse(text):
    lines = text.rstrip().splitlines()
    usage = []
    if lines and lines[0].lower().startswith("usage:"):
        usage.append(lines.pop(0)[len("usage:"):].strip())
        while lines and lines[0].startswith(" ") and lines[0].strip():
            usage.append(lines.pop(0).strip())
    return Help(usage=usage, blocks=_blocks(lines))


def _blocks(lines):
    blocks, current = [], []
    for line in lines + [""]:
        if line.strip():
            current.append(line.rstrip())
            continue
        if current:
            blocks.append(_block(current))
            current = []
    return blocks


def _block(lines):
    heading = HEADING.match(lines[0])
    if not heading or len(lines) == 1:
        return Block(lines=lines)
    return Block(heading=heading.group(1), items=_items(lines[1:]))


def _items(lines):
    """A list's items: a line at the list's own indentation starts one."""
    indent = _indent(lines[0])
    items = []
    for line in lines:
        if _indent(line) <= indent or not items:
            term, description = _split_term(line.strip())
            items.append(Item(term=term))
            line = description
        if line.strip():
            items[-1].description.append(line.strip())
    return items


def _split_term(line):
    """An item's first line as term and description: two spaces apart, or
    for an option whose description starts one space after its value
    ("--cluster NAME|FILE also predict ..."), after the longest term that
    names options."""
    term, _, description = line.partition("  ")
    if term.startswith("-") and not options_of(term):
        words = term.split(" ")
        for n in range(len(words) - 1, 0, -1):
            if options_of(" ".join(words[:n])):
                return " ".join(words[:n]), " ".join(words[n:]) + "  " + description
    return term.strip(), description


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def options_of(term):
    """The options an option list's term names and what each takes:
    "-o, --output FILE" -> [("-o", "FILE"), ("--output", "FILE")];
    "--procs N, --proc I" -> [("--procs", "N"), ("--proc", "I")];
    "--screenshot <DIR>" -> [("--screenshot", "DIR")]. A name without a value
    of its own before a comma shares the next one's ("-o, --output FILE")."""
    named = []
    for part in term.split(", "):
        match = OPTION.match(part.strip())
        if not match:
            return []  # not an option list's term
        named.append([match.group(1), (match.group(2) or "").strip("<>")])
    for i in range(len(named) - 2, -1, -1):
        if not named[i][1] and named[i][0].startswith("-") and not named[i][0].startswith("--"):
            named[i][1] = named[i + 1][1]
    return [tuple(n) for n in named]
