"""JUnit XML (ruff's ``junit``): one test suite per file, one failed test case per finding, for CI
test-report views (GitLab, Jenkins, Azure)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import groupby
from pathlib import PurePath

from mslint.diagnostics import Diagnostic

_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold, even escaped (a control character in a path or a message)."""


def render(diagnostics: list[Diagnostic]) -> str:
    failures = str(len(diagnostics))
    tests = str(max(1, len(diagnostics)))  # a run without findings is one passed test
    root = ET.Element("testsuites", name="mslint", tests=tests, failures=failures, errors="0")
    if not diagnostics:
        suite = ET.SubElement(root, "testsuite", name="mslint", tests="1", disabled="0", errors="0", failures="0")
        ET.SubElement(suite, "testcase", name="No problems found", classname="mslint")
    for path, group in groupby(diagnostics, key=lambda d: d.path):
        found = list(group)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=_xml(path),
            tests=str(len(found)),
            disabled="0",
            errors="0",
            failures=str(len(found)),
            package="org.mslint",
        )
        for d in found:
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"org.mslint.{d.code}",
                classname=_xml(str(PurePath(path).with_suffix(""))),
                line=str(d.line),
                column=str(d.column),
            )
            properties = ET.SubElement(case, "properties")
            for name, value in (("symbol", d.symbol), ("severity", str(d.severity))):
                ET.SubElement(properties, "property", name=name, value=value)
            failure = ET.SubElement(case, "failure", message=_xml(d.cell_message))
            failure.text = _xml(f"line {d.line}, col {d.column}, {d.cell_message}")
    ET.indent(root, space="    ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)
