"""Readers of what the MindSpore compiler writes: error locations, fallback dumps, IR shapes.

Every reader returns :class:`Problem` objects located in the user's files; locations in
MindSpore's own sources (or files that do not exist) are dropped by ``is_user_file``.
No MindSpore import here: the parent process reads ``--run`` logs with these too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from mslint.compiler_messages import PYTHON_EXCEPTION, TRACEBACK, has_words, informative_line
from mslint.verify.sources import binding_lines

ERROR, FALLBACK, DYNAMIC_SHAPE, UNTRACKED = "error", "fallback", "dynamic-shape", "untracked-parameters"
COMPILE_TIME = "compile-time"
"""Python the compiler ran once, while compiling, and folded into the graph as a constant: a
problem only for code that should run at every call (``random.random()``), never on its own."""
DIVERGENCE = "divergence"
"""A value graph mode left different from PyNative, running the compiled entry in both modes on
the same inputs: see :mod:`mslint.verify.divergence`."""
RUNTIME = "runtime"
"""A check of MindSpore's own that the user's code failed while it ran outside a compile
(network operators in a dataset ``map``): see :mod:`mslint.verify.runtime`."""
STOPPED = "stopped"
"""The exception that ended ``--run``'s command, on the line of the user's where it stopped
(building a Cell raised): see :mod:`mslint.verify.capture`."""

Location = tuple[str, int]
"""An absolute file path and a 1-based line."""

_LINE_DIGITS = 9
"""The longest line number a location may have: a longer one is no line of a file."""
_LONGEST_LINE = 65536
"""The longest line of a log that :func:`read_log` keeps whole."""
_IN_FILE = re.compile(r"In file (.+?):(\d+)(?:~\d+)?,")
_IR_LOCATION = re.compile(r"# In file (.+?):(\d+)(~\d+)?[,/]")
_SHAPE = re.compile(r"\((-?\d+(?:, -?\d+)*)\)")
_IR_OPERATOR = re.compile(r"= (\w+)\(")
_IR_BRANCHES = re.compile(r"FuncUnion\((@[^,()]+), (@[^,()]+)\)")
_IR_NODE_ID = re.compile(r"\s*%(\d+)\(")
_IR_OPERAND = re.compile(r"%(\d+)\b")
_IR_PARAMETER = re.compile(r"^(%para\d+_\S+): <Ref\[.*?ref_key=([^,>]+)[^>]*\bis_parameter\b", re.MULTILINE)
"""A Parameter of the graph; an input updated in place (``y = x; y += 1``) is a Ref too, ``is_inplace``."""


@dataclass(frozen=True)
class Problem:
    """One thing the compiler refused, interpreted or made dynamic, where it happened."""

    kind: str
    message: str
    locations: tuple[Location, ...]
    level: str = ""
    """The syntax level of the compile that showed it (``strict``/``lax``), or the run's own."""
    entry: str = ""
    """The Cell or function whose compile (or run) showed it, as diagnostics name entries
    (``Net.construct``); empty when nothing says which."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level,
            "message": self.message,
            "locations": [{"path": path, "line": line} for path, line in self.locations],
            "entry": self.entry or None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Problem:
        locations = tuple((str(loc["path"]), int(loc["line"])) for loc in data["locations"])
        return cls(
            str(data["kind"]), str(data["message"]), locations, str(data.get("level", "")), str(data.get("entry") or "")
        )


def user_file_filter(excluded_roots: Iterable[str]) -> Callable[[str], bool]:
    """A test for "this path is the user's code": it exists and is not under ``excluded_roots``."""
    roots = [Path(root).resolve() for root in excluded_roots]

    def is_user_file(path: str) -> bool:
        resolved = Path(path).resolve()
        return resolved.is_file() and not any(resolved.is_relative_to(root) for root in roots)

    return is_user_file


def error_locations(text: str, is_user_file: Callable[[str], bool]) -> tuple[Location, ...]:
    """User-file locations named by ``In file PATH:LINE`` in an exception or log, once each,
    outermost first: the innermost, where the error is, comes last."""
    found: dict[Location, None] = {}
    for line in _outermost_first(text.splitlines()):
        for match in _IN_FILE.finditer(line):
            if (location := _user_location(match, is_user_file)) is not None:
                found[location] = None
    return tuple(found)


def _outermost_first(lines: list[str]) -> Iterator[str]:
    """``lines`` with the ``In file`` lines of each "Function Call Stack" section reversed: MindSpore
    lists that stack innermost first (the failing node, then the functions around it), whereas
    its traceback of the construct code, like Python's, lists it outermost first."""
    stack: list[str] | None = None
    for line in lines:
        if stack is not None and _IN_FILE.search(line):
            stack.append(line)
            continue
        if stack:
            yield from reversed(stack)
            stack = None
        if line.startswith(_CALL_STACK):
            stack = []
        yield line
    yield from reversed(stack or [])


def _user_location(match: re.Match[str], is_user_file: Callable[[str], bool]) -> Location | None:
    """The location a ``PATH`` and ``LINE`` group name in a user's file; None for another file
    and for a name or number no file has (a NUL, a name too long, a line of thousands of digits)."""
    path, line = match.group(1), match.group(2)
    if len(line) > _LINE_DIGITS:
        return None
    try:
        return (str(Path(path).resolve()), int(line)) if is_user_file(path) else None
    except (OSError, RuntimeError, ValueError):  # RuntimeError: a link loop (Python 3.12 and older)
        return None


_CPP_ERROR = re.compile(r"^\[ERROR\] \w+\(.*?\] \w+\] (?:.*?failed info: )?(.*)$")
_CAUGHT = "- Caught exception:"
"""analyze_fail.ir's header of the message, on the line after the next rule of dashes."""
_PYTHON_FRAME = re.compile(r'^\s*File "(.+?)", line (\d+)')
_CALL_STACK = "- The Function Call Stack"
_MESSAGE_LINES = 40
"""How far below its exception's type a message that opens with a rule of dashes is looked for."""
_IR_DUMP = "# The following shows the IR"
_FALLBACK_HEADER = "Found unsupported syntax in graph mode"
_PARSER_PHASE, _OPTIMIZER_PHASE = "After Parser Phase", "After Optimizer Phase"
_RULE = "-----"
_LOG_MARKERS = re.compile("|".join(map(re.escape, ("In file ", _PARSER_PHASE, _OPTIMIZER_PHASE, TRACEBACK, _CAUGHT))))
_LOG_LINE_STARTS = re.compile(
    "|".join(
        f"(?:{pattern})"
        for pattern in (
            re.escape(_RULE),
            re.escape(_IR_DUMP),
            PYTHON_EXCEPTION.pattern,
            _CPP_ERROR.pattern,
            _PYTHON_FRAME.pattern,
        )
    )
)
"""What the readers of logs look for in a line, and at its start: :func:`read_log` keeps those lines."""
_LOG_BLOCK = 1 << 18


def error_problems(text: str, is_user_file: Callable[[str], bool]) -> list[Problem]:
    """The errors in a log a user kept: Python exceptions (a compile's message, its ``In file``
    lines), ``[ERROR]`` lines of MindSpore's C++ log and the message of ``analyze_fail.ir``,
    once each. An exception without ``In file`` lines (a Cell failing while being built) is
    located on the user's frames of its Python traceback, innermost last. A C++ ``[ERROR]`` line
    that names no line of the user's is left out: it is about the compiler's own state, and the
    exception that follows it carries the message."""
    lines = text.splitlines()
    starts: list[tuple[int, str, str, bool]] = []
    """(line index, exception type or "", message, whether it is a Python exception)"""
    for index, line in enumerate(lines):
        python, cpp = PYTHON_EXCEPTION.match(line), _CPP_ERROR.match(line)
        if python is not None:
            # "RuntimeError: " then a rule of dashes: the message is on a line below
            message = python.group(2)
            message = message if has_words(message) else informative_line(lines[index + 1 : index + _MESSAGE_LINES])
            starts.append((index, python.group(1), message, True))
        elif cpp is not None and _FALLBACK_HEADER not in line:
            starts.append((index, "", cpp.group(1), False))
        elif line.strip() == _CAUGHT:
            message = next((m for m in lines[index + 1 :] if m.strip() and not m.strip().startswith("---")), "")
            starts.append((index, "", message.strip(), False))
    ends = [start[0] for start in starts[1:]] + [len(lines)]
    located = [
        error_locations("\n".join(_until_ir(lines[start[0] : end])), is_user_file) for start, end in zip(starts, ends)
    ]
    by_compiler = {start[2].strip() for start, locations in zip(starts, located) if locations}
    """Messages whose ``In file`` lines the log shows (the C++ log prints them before the traceback)."""
    found: dict[tuple[str, tuple[Location, ...]], Problem] = {}
    for number, ((index, exception, message, is_python), locations) in enumerate(zip(starts, located)):
        if not locations and is_python and message.strip() not in by_compiler:
            before = "\n".join(lines[starts[number - 1][0] if number else 0 : index])
            locations = _frame_locations(before.rpartition(TRACEBACK)[2], is_user_file)
        if not locations and lines[index].strip() != _CAUGHT:
            continue  # located elsewhere in the log, or the C++ log's lines about its own state
        key = (message.strip(), locations)
        if key not in found or is_python:  # the Python exception names the error's type; the C++ log does not
            found[key] = Problem(ERROR, f"{exception}: {message}" if exception else message, locations)
    return list(found.values())


def _until_ir(lines: list[str]) -> list[str]:
    """The lines before analyze_fail.ir's IR dump, whose every node names a line of the user's."""
    for index, line in enumerate(lines):
        if line.startswith(_IR_DUMP):
            return lines[:index]
    return lines


def _frame_locations(traceback_text: str, is_user_file: Callable[[str], bool]) -> tuple[Location, ...]:
    found: dict[Location, None] = {}
    for line in traceback_text.splitlines():
        match = _PYTHON_FRAME.match(line)
        if match is not None and (location := _user_location(match, is_user_file)) is not None:
            found[location] = None
    return tuple(found)


def fallback_problems(log: str, is_user_file: Callable[[str], bool], level: str = "") -> list[Problem]:
    """Lines under "After Optimizer Phase" of ``MS_DEV_FALLBACK_DUMP_NODE=1`` dumps: code that
    really runs in the Python interpreter (parser-phase candidates are often folded away)."""
    _, optimizer = _fallback_dump_lines(log, is_user_file)
    message = "listed by the fallback dump after the optimizer phase (runs in the Python interpreter)"
    return [Problem(FALLBACK, message, (loc,), level) for loc in optimizer]


def compile_time_problems(log: str, is_user_file: Callable[[str], bool], level: str = "") -> list[Problem]:
    """Lines the fallback dump lists after the parser phase but not after the optimizer phase:
    the interpreter ran them once, while compiling, and the graph keeps only their result."""
    parser, optimizer = _fallback_dump_lines(log, is_user_file)
    message = "run by the Python interpreter once, while compiling; the graph keeps the result as a constant"
    return [Problem(COMPILE_TIME, message, (loc,), level) for loc in parser if loc not in optimizer]


def _fallback_dump_lines(
    log: str, is_user_file: Callable[[str], bool]
) -> tuple[dict[Location, None], dict[Location, None]]:
    """User lines of the fallback dumps in ``log``: (after the parser phase, after the optimizer phase)."""
    parser: dict[Location, None] = {}
    optimizer: dict[Location, None] = {}
    section: dict[Location, None] | None = None
    rules = 0
    """Rules of dashes since the section's title: the first closes the title, the second the section."""
    for line in log.splitlines():
        if _PARSER_PHASE in line:
            section, rules = parser, 0
        elif _OPTIMIZER_PHASE in line:
            section, rules = optimizer, 0
        elif section is not None and line.startswith(_RULE):
            rules += 1
            section = None if rules == 2 else section
        elif section is not None:
            match = _IN_FILE.search(line)
            if match is not None and (location := _user_location(match, is_user_file)) is not None:
                section[location] = None
    return parser, optimizer


def read_log(path: Path) -> str:
    """The lines of a log on disk (the whole stderr of a program) that the readers of logs here
    look at: fallback dumps, errors and their locations, without what else the program printed
    (a training log can take gigabytes)."""
    kept: list[str] = []
    awaiting_message = False
    """After analyze_fail.ir's header: its message is the next line that is neither blank nor a rule."""
    with path.open(encoding="utf-8", errors="replace") as stream:
        for line in _lines(stream):
            if awaiting_message or _LOG_MARKERS.search(line) or _LOG_LINE_STARTS.match(line):
                kept.append(line)
                stripped = line.strip()
                awaiting_message = stripped == _CAUGHT or (
                    awaiting_message and (not stripped or stripped.startswith("---"))
                )
    return "\n".join(kept)


def _lines(stream: TextIO) -> Iterator[str]:
    """The lines of ``stream`` as ``str.splitlines`` splits them (the readers do), read a block at
    a time, each cut after :data:`_LONGEST_LINE` characters."""
    cut = ""
    """The start of the line the last block ended in."""
    while block := stream.read(_LOG_BLOCK):
        lines = (cut + block).splitlines()
        ends_line = block[-1].splitlines() == [""]  # the block's last character is a line break
        cut = "" if ends_line else lines.pop()[:_LONGEST_LINE]
        for line in lines:
            yield line[:_LONGEST_LINE]
    if cut:
        yield cut


def dynamic_shape_problems(ir_text: str, is_user_file: Callable[[str], bool], level: str = "") -> list[Problem]:
    """IR nodes whose inputs have static shapes and whose output shape is unknown.

    MindSpore builds some such nodes without a source location (``ArgMaxWithValue`` for
    ``ops.max(x, axis)``, ``NonZeroExt`` for ``mint.where(cond)``, a Tensor method called with
    keywords): they are located on the user's line of the first node that uses them, and on the
    lines that bound the names that line reads (``rows = mint.where(c)`` for ``return rows``)."""
    found: dict[tuple[Location, ...], str] = {}
    unlocated: dict[str, str] = {}
    """Node id (``%12``) -> operator, for dynamic nodes waiting for a located user."""
    for node in re.split(r"\n(?=  %\d+\(|  Return\()", ir_text):
        header = node.split("\n", 1)[0]
        if "PyExecute" in header:
            continue
        own_lines = [
            location
            for m in _IR_LOCATION.finditer(node)
            if m.group(3) is None and (location := _user_location(m, is_user_file)) is not None
        ]
        operands = header.partition(" = ")[2] or header  # `Return(%3)` has no own id
        used = [unlocated.pop(i) for i in _IR_OPERAND.findall(operands) if i in unlocated]
        if own_lines and used:
            found.setdefault(_producers(own_lines[-1]), used[0])
        shapes = re.search(r"\n\s+: \((.*)\) -> \((.*)\)\n", node)
        if shapes is None:
            continue
        inputs, outputs = shapes.groups()
        if not _has_dynamic_dim(outputs) or _has_dynamic_dim(inputs):
            continue
        operator = _IR_OPERATOR.search(header)
        producer = operator.group(1) if operator else "an operator"
        if not own_lines:
            own_lines = _branch_join_line(node, outputs, ir_text, is_user_file)
            if own_lines:
                producer = "the join of an `if`'s branches"
            elif (own := _IR_NODE_ID.match(header)) is not None:
                unlocated[own.group(1)] = producer
        if own_lines:
            found.setdefault((own_lines[-1],), producer)
    return [
        Problem(DYNAMIC_SHAPE, f"{producer} produces an output of data-dependent shape", locations, level)
        for locations, producer in found.items()
    ]


def kernel_locations(ir_text: str, kernel: str, is_user_file: Callable[[str], bool]) -> tuple[Location, ...]:
    """Where the user's code calls the operator ``kernel`` (``Chunk``) that the device has no
    kernel for: the line of its node in the IR, or, for a node MindSpore builds without a
    location (``x.chunk(2, dim=1)``, ``x.cumsum(dim=1)``: a Tensor method called with keywords),
    the line of the first node that uses it (``a, b = ...``, ``return ...``). The message names
    the kernel but no line: the Python frame of the first run is MindSpore's, and no "In file"
    line follows the error."""
    operator = re.compile(rf"= (?:PrimFunc_)?{re.escape(kernel)}\(")
    for subgraph in ir_text.split("\nsubgraph @")[1:]:
        waiting: set[str] = set()
        """The ids of the operator's unlocated nodes (``%1``), local to the subgraph."""
        for node in re.split(r"\n(?=  %\d+\(|  Return\()", subgraph):
            header = node.split("\n", 1)[0]
            is_kernel = operator.search(header) is not None
            operands = header.partition(" = ")[2] or header
            if not is_kernel and not waiting.intersection(_IR_OPERAND.findall(operands)):
                continue
            own = [
                location
                for m in _IR_LOCATION.finditer(node)
                if m.group(3) is None and (location := _user_location(m, is_user_file)) is not None
            ]
            if own:
                return (own[-1],)
            if is_kernel and (own_id := _IR_NODE_ID.match(header)) is not None:
                waiting.add(own_id.group(1))
    return ()


def _producers(use: Location) -> tuple[Location, ...]:
    """Where a value used at ``use`` may come from: the lines binding what it reads, then itself."""
    path, line = use
    return (*((path, bound) for bound in binding_lines(path, line)), use)


def _branch_join_line(node: str, outputs: str, ir_text: str, is_user_file: Callable[[str], bool]) -> list[Location]:
    """The ``if`` line of a node that joins the results of an ``if``'s branches when each branch
    has a static shape: the join, not an operator, made the shape unknown (branches that differ
    in shape). The IR locates the join only on the whole ``if`` statement (``7~10``). A join of
    type ``Any`` is one the compile failed on (different dtypes): its error is the evidence."""
    branches = _IR_BRANCHES.search(node.split("\n", 1)[0])
    if branches is None or "Any(" in outputs:
        return []
    if any(_returns_dynamic_shape(ir_text, name) for name in branches.groups()):
        return []
    spans = [
        location
        for m in _IR_LOCATION.finditer(node)
        if m.group(3) is not None and (location := _user_location(m, is_user_file)) is not None
    ]
    return spans[-1:]


def _returns_dynamic_shape(ir_text: str, subgraph: str) -> bool:
    """Whether the IR subgraph ``subgraph`` (``@12_3_name``) returns an unknown shape (or is not found)."""
    body = re.search(rf"\nsubgraph {re.escape(subgraph)}\(.*?\n  Return\(.*?\n\s+: \((.*?)\)\n", ir_text, re.DOTALL)
    return body is None or _has_dynamic_dim(body.group(1))


def _has_dynamic_dim(shapes: str) -> bool:
    """Whether a tensor shape, or a shape inside a ``TupleShape``, has an unknown dimension or rank."""
    return any(dim.strip() in ("-1", "-2") for match in _SHAPE.finditer(shapes) for dim in match.group(1).split(","))


def unowned_parameter_problems(
    ir_text: str, owned: set[str], is_user_file: Callable[[str], bool], level: str = ""
) -> list[Problem]:
    """Parameters the compiled graph uses that are not among ``owned`` (the names of the compiled
    Cell's parameters), at the user lines that use them: a Cell built in graph code creates its
    Parameters while compiling, and the IR locates their uses on the line that built it."""
    foreign = {var: name for var, name in _IR_PARAMETER.findall(ir_text) if name not in owned}
    found: dict[str, dict[Location, None]] = {name: {} for name in foreign.values()}
    for subgraph in ir_text.split("\nsubgraph @")[1:]:
        loads = dict(foreign)  # the parameters, and the nodes that load them (local to each subgraph)
        for node in re.split(r"\n(?=  %\d+\(|  Return\()", subgraph):
            header = node.split("\n", 1)[0]
            used = [name for var, name in loads.items() if re.search(re.escape(var) + r"(?![\w.])", header)]
            if not used:
                continue
            if " = Load(" in header:
                loads[header.split("(", 1)[0].strip()] = used[0]
                continue
            for match in _IR_LOCATION.finditer(node):
                if match.group(3) is None and (location := _user_location(match, is_user_file)) is not None:
                    for name in used:
                        found[name][location] = None
    return [
        Problem(
            UNTRACKED,
            f"the graph uses Parameter '{name}', which the Cell does not own (never trained)",
            (*lines,),
            level,
        )
        for name, lines in found.items()
    ]
