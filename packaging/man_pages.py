# SPDX-License-Identifier: Apache-2.0
"""Writes the man pages of the built programs from their own --help output:
hsdp-studio(1), hsdp-inspect(1) and hsdp-inspect-COMMAND(1) for every command
hsdp-inspect --help lists. The build runs it after linking the programs, so a
changed help, option or command changes the pages with no one touching them.

usage: man_pages.py --inspect PATH --studio PATH --version V --date YYYY-MM-DD
                    --docdir DIR --datadir DIR --out DIR
Writes DIR/<page>.1.gz (gzip -9n: reproducible, as Debian wants them).
"""

import argparse
import gzip
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import help_text  # noqa: E402


def escape(text):
    """Roff text: backslashes and hyphens escaped (so options copy as typed)."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def roff_lines(lines):
    """Source lines for roff; a line starting with '.' or "'" is text, not a request."""
    out = []
    for line in lines:
        line = escape(line)
        out.append("\\&" + line if line.startswith((".", "'")) else line)
    return out


def styled_term(term, first_bold=False):
    """Options and commands bold, the values they take italic."""
    words = []
    for i, word in enumerate(term.split(" ")):
        core, comma = (word[:-1], ",") if word.endswith(",") else (word, "")
        bold = core.startswith("-") or (first_bold and i == 0)
        words.append(f"\\f{'B' if bold else 'I'}{escape(core)}\\fR{comma}")
    return " ".join(words)


class Page:
    def __init__(self, name, summary, version, date):
        self.name = name
        self.lines = [
            f".\\\" Generated from the program's --help by packaging/man_pages.py: do not edit.",
            f'.TH "{escape(name.upper())}" 1 "{date}" "hsdp\\-studio {escape(version)}" '
            '"HSDP Studio"',
            ".nh",
            ".ad l",
            ".SH NAME",
            f"{escape(name)} \\- {escape(summary)}",
        ]

    def section(self, title):
        self.lines.append(f'.SH "{title}"')

    def paragraph(self, lines, preformatted=False):
        if not self.lines[-1].startswith(".SH"):
            self.lines.append(".PP")
        if preformatted:
            self.lines += [".nf"] + roff_lines(lines) + [".fi"]
        else:
            self.lines += roff_lines([line.strip() for line in lines])

    def item(self, term, description, see=None):
        self.lines += [".TP", term] + roff_lines(description or [""])
        if see:  # on a line of its own
            self.lines += [".br", f"See \\fB{escape(see)}\\fR(1)."]

    def write(self, folder):
        path = folder / f"{self.name}.1.gz"
        with open(path, "wb") as raw:
            # No name and no time in the gzip header: the same pages give the same bytes.
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
                gz.write(("\n".join(self.lines) + "\n").encode())
        return path


def synopsis(page, help_, program_words):
    """The usage lines, the program (and command) in bold."""
    page.section("SYNOPSIS")
    page.lines.append(".nf")
    for i, line in enumerate(help_.usage):
        if i == 0 and line.startswith(program_words):
            rest = line[len(program_words):]
            page.lines.append(f"\\fB{escape(program_words)}\\fR{escape(rest)}")
        else:
            page.lines += roff_lines([line])
    page.lines.append(".fi")


def body(page, help_, commands_see_also=None):
    """Prose as DESCRIPTION, each list as its own section, then EXIT STATUS."""
    prose = [b for b in help_.blocks if not b.is_list() and not is_exit_status(b)]
    page.section("DESCRIPTION")
    for block in prose:
        page.paragraph(block.lines, block.is_preformatted())
    for block in help_.blocks:
        if not block.is_list():
            continue
        page.section(block.heading.upper())
        commands = block.heading.lower() == "commands"
        for item in block.items:
            see = None
            if commands and commands_see_also:
                see = commands_see_also + item.term.split()[0]
            page.item(styled_term(item.term, first_bold=commands), item.description, see)
    for block in help_.blocks:
        if is_exit_status(block):
            page.section("EXIT STATUS")
            text = block.lines[0].split(":", 1)[1].strip()
            page.paragraph(([text] if text else []) + block.lines[1:])


def is_exit_status(block):
    return not block.is_list() and block.lines[0].lower().startswith("exit status:")


def see_also(page, pages, help_text_all, docdir):
    page.section("SEE ALSO")
    others = [p for p in pages if p != page.name]
    page.lines.append(", ".join(f"\\fB{escape(p)}\\fR(1)" for p in others))
    if "docs/" in help_text_all:
        page.paragraph([
            f"The documents this page names (docs/...) are installed in {docdir}/docs/,",
            f"with the README in {docdir}/.",
        ])


def files(page, datadir):
    page.section("FILES")
    page.item(f"\\fI{escape(datadir)}/hsdp\\-studio/samples/\\fR",
              ["Sample scenarios, model configs and a diff pair (the README's Samples)."])
    page.item(f"\\fI{escape(datadir)}/hsdp\\-studio/clusters/\\fR",
              ["The cluster presets for --cluster as files (the programs have them built in)."])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("inspect", "studio", "version", "date", "docdir", "datadir", "out"):
        parser.add_argument(f"--{name}", required=True)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.1.gz"):  # a command that went away takes its page along
        stale.unlink()

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    tool_text = help_text.run_help([args.inspect, "--help"])
    tool = help_text.parse(tool_text)
    commands = [(item.term.split()[0], item.text()) for item in tool.items("commands")]
    if not commands:
        raise SystemExit("man_pages.py: hsdp-inspect --help lists no commands")
    names = ["hsdp-studio", "hsdp-inspect"] + [f"hsdp-inspect-{c}" for c, _ in commands]

    def page_of(name, summary, text, program_words, see_also_prefix=None):
        help_ = help_text.parse(text)
        page = Page(name, summary, args.version, args.date)
        synopsis(page, help_, program_words)
        body(page, help_, see_also_prefix)
        if name in ("hsdp-studio", "hsdp-inspect"):
            files(page, args.datadir)
        see_also(page, names, text, args.docdir)
        return page.write(out)

    studio_text = help_text.run_help([args.studio, "--help"], env)
    page_of("hsdp-studio", help_text.parse(studio_text).first_sentence(), studio_text,
            "hsdp-studio")
    page_of("hsdp-inspect", tool.first_sentence(), tool_text, "hsdp-inspect", "hsdp-inspect-")
    for command, summary in commands:
        text = help_text.run_help([args.inspect, command, "--help"], env)
        page_of(f"hsdp-inspect-{command}", summary, text, f"hsdp-inspect {command}")
    print(f"man_pages.py: {len(names)} pages in {out}")


if __name__ == "__main__":
    main()
