# SPDX-License-Identifier: Apache-2.0
"""Writes hsdp-inspect's bash completion from the built program's own --help
texts: the commands hsdp-inspect --help lists, each command's options as its
--help lists them, and for a value or an argument what it names (a file, a
folder, a cluster preset, or something to type). The build runs it after
linking hsdp-inspect, so a new command or option completes with no one
touching it.

usage: bash_completion.py --inspect PATH --presets "NAME ..." --out FILE
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import help_text  # noqa: E402

OPTION_IN_TEXT = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def value_kind(metavar):
    """What completes an option's value, from the name its help gives it."""
    if not metavar:
        return "flag"
    if "DIR" in metavar:
        return "dir"
    if "NAME" in metavar and "FILE" in metavar:
        return "preset"  # --cluster NAME|FILE
    if any(word in metavar for word in ("FILE", "SCENARIO", "CONFIG", "JSON")):
        return "file"
    return "typed"  # N, SIZE, MODE, R:K ...: the user types it


class Command:
    def __init__(self, name, text):
        self.name = name
        self.help = help_text.parse(text)
        self.options = {}  # name -> metavar ("" for a flag, None: not given here)
        for item in self.help.items("options"):
            if item.term == "--":
                self.options["--"] = ""
            named = help_text.options_of(item.term)
            # "--mode, --timeout, ...  as for run": values the help gives elsewhere.
            elsewhere = sum(o.startswith("--") for o, _ in named) > 1 and not any(
                m for _, m in named)
            for option, metavar in named:
                self.options[option] = None if elsewhere else metavar
            # An option a description names is one of this command's too
            # (worker: "--merge ... with --json and --trace FILE as for run").
            for option in OPTION_IN_TEXT.findall(item.text()):
                self.options.setdefault(option, None)
        self.positional = "dir" if self._first_argument() == "DIR" else "file"

    def _first_argument(self):
        """The usage's first argument that is not an option's value."""
        words = " ".join(self.help.usage).replace("[", " ").replace("]", " ").split()
        words = words[2:]  # "hsdp-inspect COMMAND"
        for i, word in enumerate(words):
            if word.isupper() and (i == 0 or not words[i - 1].startswith("-")):
                return word
        return ""


def metavars(commands):
    """Every option's value name across the commands, for the commands whose
    help names an option without it (worker: "--mode, --timeout ... as for run")."""
    known = {}
    for command in commands:
        for option, metavar in command.options.items():
            if metavar is not None:
                known.setdefault(option, metavar)
    return known


def script(commands, tool_options, presets):
    known = metavars(commands)
    cases, values = [], {"preset": [], "file": [], "dir": [], "typed": []}
    for command in commands:
        positional = "; positional=dir" if command.positional == "dir" else ""
        cases.append(f'        {command.name}) options="{" ".join(command.options)}"{positional} ;;')
        for option, metavar in command.options.items():
            kind = value_kind(metavar if metavar is not None else known.get(option, ""))
            if kind != "flag":
                values[kind].append(f'"{command.name} {option}"')

    def pattern(kind):
        return " | ".join(values[kind]) or '"-"'

    return f"""# SPDX-License-Identifier: Apache-2.0
# bash completion for hsdp-inspect: its commands, each command's options, and
# files, folders or cluster presets where an argument or option takes one.
# Generated from hsdp-inspect's --help texts by packaging/bash_completion.py:
# do not edit.

_hsdp_inspect_presets="{" ".join(presets)}"

# Adds the files (or with "dir", the folders) starting with $2 to COMPREPLY.
_hsdp_inspect_paths() {{
    local IFS=$'\\n'
    compopt -o filenames 2>/dev/null
    if [[ $1 == dir ]]; then
        COMPREPLY+=($(compgen -d -- "$2"))
    else
        COMPREPLY+=($(compgen -f -- "$2"))
    fi
}}

_hsdp_inspect() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD - 1]}}
    COMPREPLY=()
    # "--trace=FILE": readline splits the word at "=".
    if [[ $cur == = ]]; then
        cur=""
    elif [[ $prev == = && COMP_CWORD -gt 2 ]]; then
        prev=${{COMP_WORDS[COMP_CWORD - 2]}}
    fi
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "{" ".join(c.name for c in commands)} {" ".join(tool_options)}" -- "$cur"))
        return
    fi
    local command=${{COMP_WORDS[1]}} options="" positional=file i
    case $command in
{chr(10).join(cases)}
        *) return ;;
    esac
    for ((i = 2; i < COMP_CWORD; i++)); do
        if [[ ${{COMP_WORDS[i]}} == -- ]]; then  # only arguments after "--"
            _hsdp_inspect_paths $positional "$cur"
            return
        fi
    done
    case "$command $prev" in
        {pattern("preset")})
            COMPREPLY=($(compgen -W "$_hsdp_inspect_presets" -- "$cur"))
            _hsdp_inspect_paths file "$cur"
            return ;;
        {pattern("file")})
            _hsdp_inspect_paths file "$cur"
            return ;;
        {pattern("dir")})
            _hsdp_inspect_paths dir "$cur"
            return ;;
        {pattern("typed")})
            return ;;  # a number, a size, a mode...: typed, not completed
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        _hsdp_inspect_paths $positional "$cur"
    fi
}}
complete -F _hsdp_inspect hsdp-inspect
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inspect", required=True)
    parser.add_argument("--presets", required=True, help="the cluster presets' names")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    tool = help_text.parse(help_text.run_help([args.inspect, "--help"]))
    names = [item.term.split()[0] for item in tool.items("commands")]
    if not names:
        raise SystemExit("bash_completion.py: hsdp-inspect --help lists no commands")
    commands = [Command(n, help_text.run_help([args.inspect, n, "--help"])) for n in names]
    tool_options = [o for item in tool.items("options") for o, _ in help_text.options_of(item.term)]
    Path(args.out).write_text(script(commands, tool_options, args.presets.split()))


if __name__ == "__main__":
    main()
