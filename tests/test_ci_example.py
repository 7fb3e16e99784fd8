"""The example CI workflow (docs/examples/matador-ci.yml) works: its shell steps, run in
order against the reference engine, leave every report it uploads and a job summary."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

WORKFLOW = Path(__file__).resolve().parents[1] / "docs" / "examples" / "matador-ci.yml"


def _steps() -> list[dict[str, Any]]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    steps: list[dict[str, Any]] = data["jobs"]["conformance"]["steps"]
    return steps


def test_the_workflow_uploads_what_it_draws_and_fails_on_a_deviation() -> None:
    steps = _steps()
    uploaded = next(step for step in steps if step.get("uses", "").startswith("actions/upload"))
    paths = set(uploaded["with"]["path"].split())
    assert paths == {"matador.jsonl", "matador.html", "matador.xml", "matador-badge.json"}
    last = steps[-1]["run"]
    assert last.startswith("exit ") and "steps.conform.outputs.status" in last


@pytest.mark.skipif(shutil.which("matador") is None, reason="the matador command is not installed")
def test_its_shell_steps_run_against_the_reference(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "ENGINE": "matador engine",
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
    }
    for step in _steps():
        script = step.get("run", "")
        if not script or "pip install" in script or "${{" in script:
            continue  # the install is the workflow's own; GitHub evaluates ${{ }}
        subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, check=True)
    assert (tmp_path / "output").read_text(encoding="utf-8").strip() == "status=0"
    for name in ("matador.jsonl", "matador.html", "matador.xml", "matador-badge.json"):
        assert (tmp_path / name).stat().st_size > 0, name
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "| variant |" in summary and "passed" in summary
