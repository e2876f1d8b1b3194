"""The values shell scripts give a program's command-line option: ``configs/x.yaml`` of
``python train.py --config configs/x.yaml`` in ``scripts/run_train.sh``.

Projects often name the configuration a run uses only in their launch scripts, and declare the
option with no default. The scripts are read, never run: each line (backslash continuations
joined) is split as the shell splits words (:mod:`shlex`, comments dropped), and a line runs the
program where a word that names a Python interpreter (``python``, ``python3.9``, after ``nohup``,
``mpirun -n 8`` or ``msrun ...``) comes before the program's file name (``train.py``,
``../tools/train.py``). The option's value is the word after it (``--config x``) or after its
``=`` (``--config=x``). The scripts read are the ``*.sh`` files of the program's folder and of the
folders above it up to its import root, and of a ``scripts`` folder in any of these.

The values are known only where every line that runs the program gives the option a literal
(no ``$VAR``, no substitution): a line that leaves it out, or gives what the shell works out,
says the program may be run with anything.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from mslint.model.module import ModuleInfo
from mslint.model.project import Project
from mslint.source import read_regular_file

_LARGEST = 256 * 1024
"""Bytes: a larger script is not read (a launch script is a few kilobytes)."""
_SHELL_WORKS_OUT = ("$", "`", "*", "?", "~")
"""Characters of a word the shell expands: what the word gives is not written."""


def option_values(project: Project, module: ModuleInfo, options: list[str]) -> list[tuple[str, Path]] | None:
    """Each value the project's launch scripts give one of ``options`` (``--config``, ``-c``) of the
    program ``module``, with the folder of the script that gives it, in order; None where no
    script runs the program or one runs it without a literal value for the option (module doc)."""
    found: list[tuple[str, Path]] = []
    for script in _scripts(project, module):
        for words in _command_lines(script):
            arguments = _arguments(words, module.path.name)
            if arguments is None:
                continue
            value = _value(arguments, options)
            if value is None:
                return None
            found.append((value, script.parent))
    return found or None


def option_given(project: Project, module: ModuleInfo, options: list[str]) -> bool:
    """Whether a command line of the launch scripts ``module`` sees (module doc) gives one of
    ``options`` to any Python program it runs, with any value."""
    for script in _scripts(project, module):
        for words in _command_lines(script):
            interpreter = _interpreter(words)
            given = [] if interpreter is None else words[interpreter + 1 :]
            if any(word.partition("=")[0] in options for word in given):
                return True
    return False


def _scripts(project: Project, module: ModuleInfo) -> list[Path]:
    """The ``*.sh`` files of the folders a program's launch scripts are kept in (module doc)."""
    folders: list[Path] = []
    folder = module.path.parent
    while True:
        folders += [folder, folder / "scripts"]
        if folder == module.root or module.root not in folder.parents:
            break
        folder = folder.parent
    found = []
    for where in dict.fromkeys(folders):
        try:
            scripts = sorted(p for p in where.glob("*.sh") if p.is_file())
        except OSError:
            continue
        project.probed.update(scripts)
        found += scripts
    return found


def _command_lines(script: Path) -> list[list[str]]:
    """The words of each command line of ``script``; none where it cannot be read."""
    try:
        text = read_regular_file(script, _LARGEST).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    lines = []
    for line in text.replace("\\\n", " ").splitlines():
        try:
            lines.append(shlex.split(line, comments=True))
        except ValueError:  # an unclosed quote: a line the shell reads on with the next
            continue
    return lines


def _arguments(words: list[str], program: str) -> list[str] | None:
    """The words after ``program`` where the words run it with a Python interpreter named before
    it; None where they do not run it."""
    interpreter = _interpreter(words)
    if interpreter is None:
        return None
    at = next((i for i, w in enumerate(words) if i > interpreter and Path(w).name == program), None)
    return None if at is None else words[at + 1 :]


def _interpreter(words: list[str]) -> int | None:
    """Where the first word that names a Python interpreter is; None where none does."""
    return next((i for i, w in enumerate(words) if Path(w).name.startswith("python")), None)


def _value(words: list[str], options: list[str]) -> str | None:
    """The literal value the words give one of ``options``; None where they give none."""
    for index, word in enumerate(words):
        name, equals, attached = word.partition("=")
        if name not in options:
            continue
        value = attached if equals else words[index + 1] if index + 1 < len(words) else None
        if value is None or any(c in value for c in _SHELL_WORKS_OUT):
            return None
        return value
    return None
