# SPDX-License-Identifier: Apache-2.0
"""hsdp-inspect's bash completion offers what its --help lists, and only
what the program accepts, driven through bash as readline drives it.

usage: check_bash_completion.py INSPECT COMPLETION CLUSTERS_DIR

- `hsdp-inspect <TAB>`: exactly the commands and options hsdp-inspect --help lists;
- `hsdp-inspect CMD -<TAB>`: every option the command's --help lists, and
  every option offered is one the command's parser knows;
- files where a command takes a scenario, folders where it takes a folder
  (run --dump, collect), the cluster presets and files for --cluster,
  nothing for a value to type (--timeout), files after "--" and "--trace=".
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Options the programs answer before parsing a command's options.
ANSWERED_FIRST = {"-h", "--help", "--version", "--"}


def options_in(help_text, heading="options:"):
    """The options the help's option list names (its items' terms)."""
    if f"\n{heading}\n" not in help_text:
        return set()
    block = help_text.split(f"\n{heading}\n", 1)[1].split("\n\n", 1)[0]
    found = set()
    for line in block.splitlines():
        term = re.match(r"^ {1,4}(-\S.*?)(?: {2,}|$)", line)
        if term:
            found |= set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*|--(?=\s|$))", term.group(1)))
    return found


def known_to(run, command, option):
    """Whether the command's parser knows the option, asked so that it stops
    at a usage error before doing anything: a long option given an empty
    value and followed by an unknown one (a flag refuses the value, a value
    option takes it and stops at the unknown one), a short one given none."""
    if option.startswith("--"):
        said = run(command, f"{option}=", "--zz-no-such-option").stderr
        return "takes no value" in said or "unknown option '--zz-no-such-option'" in said
    return "needs a value" in run(command, option).stderr


class Completion:
    def __init__(self, script, cwd):
        self.script, self.cwd = script, cwd
        spec = self._bash(f'source "{script}"; complete -p hsdp-inspect')
        match = re.search(r"-F (\S+)", spec)
        if not match:
            raise SystemExit(f"{script} registers no completion function for hsdp-inspect: {spec}")
        self.function = match.group(1)

    def _bash(self, code):
        done = subprocess.run(["bash", "--norc", "--noprofile", "-c", code], cwd=self.cwd,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"bash failed ({done.returncode}): {done.stderr}")
        return done.stdout

    def __call__(self, *words):
        """What <TAB> offers after `words` (the last one being completed)."""
        quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
        out = self._bash(f'source "{self.script}"; COMP_WORDS=({quoted}); '
                         f"COMP_CWORD={len(words) - 1}; {self.function}; "
                         'printf "%s\\n" "${COMPREPLY[@]}"')
        return {line for line in out.splitlines() if line}


def main():
    inspect, script, clusters = sys.argv[1], str(Path(sys.argv[2]).resolve()), Path(sys.argv[3])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")

    def run(*args):
        return subprocess.run([inspect, *args], capture_output=True, text=True, env=env,
                              timeout=60, check=False)

    failures = []

    def expect(what, got, want=None, contains=None, excludes=None):
        ok = (want is None or got == want) and (contains is None or contains <= got) and (
            excludes is None or not (excludes & got))
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {sorted(got)}")
        if not ok:
            failures.append(f"{what}: got {sorted(got)}, wanted {sorted(want or contains or [])}"
                            + (f" without {sorted(excludes)}" if excludes else ""))

    with tempfile.TemporaryDirectory() as cwd:
        (Path(cwd) / "teaching_2x2.json").write_text("{}")
        (Path(cwd) / "runs").mkdir()
        complete = Completion(script, cwd)

        tool_help = run("--help").stdout
        listed = tool_help.split("\ncommands:\n", 1)[1].split("\n\n", 1)[0]
        commands = re.findall(r"^  ([a-z][a-z-]*)\b", listed, re.MULTILINE)
        expect("hsdp-inspect <TAB>", complete("hsdp-inspect", ""),
               want=set(commands) | options_in(tool_help))

        for command in commands:
            offered = complete("hsdp-inspect", command, "-")
            expect(f"hsdp-inspect {command} -<TAB>", offered,
                   contains=options_in(run(command, "--help").stdout))
            for option in sorted(offered - ANSWERED_FIRST):
                if not known_to(run, command, option):
                    failures.append(f"{command} {option}: offered, but the command does not know it")

        presets = {p.stem for p in clusters.glob("*.json")}
        expect("plan te<TAB> (files)", complete("hsdp-inspect", "plan", "te"),
               want={"teaching_2x2.json"})
        expect("run --dump <TAB> (folders)", complete("hsdp-inspect", "run", "--dump", ""),
               want={"runs"})
        expect("collect <TAB> (folders)", complete("hsdp-inspect", "collect", ""), want={"runs"})
        expect("plan --cluster <TAB> (presets and files)",
               complete("hsdp-inspect", "plan", "--cluster", ""),
               contains=presets | {"teaching_2x2.json"})
        expect("run --timeout <TAB> (typed)", complete("hsdp-inspect", "run", "--timeout", ""),
               want=set())
        expect("run --trace=te<TAB>", complete("hsdp-inspect", "run", "--trace", "=", "te"),
               want={"teaching_2x2.json"})
        expect("plan -- -<TAB> (arguments only)", complete("hsdp-inspect", "plan", "--", "-"),
               excludes={"--json"})
        expect("plan --js<TAB>", complete("hsdp-inspect", "plan", "--js"), want={"--json"})
    for failure in failures:
        print("FAIL", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
