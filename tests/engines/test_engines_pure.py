"""Every module under games/engines stays pure: it never imports Django.

Generic on purpose: it finds every ``.py`` file there, including engines
added later and sub-packages, and checks each one twice — statically (its
import statements) and dynamically (importing it in a fresh interpreter must
not load Django, also not through another module it imports).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ENGINES_DIR = PROJECT_ROOT / "games" / "engines"

ENGINE_FILES = sorted(path for path in ENGINES_DIR.rglob("*.py") if "__pycache__" not in path.parts)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_django(name: str | None) -> bool:
    return name is not None and (name == "django" or name.startswith("django."))


_IMPORT_FUNCTIONS = {"import_module", "__import__"}


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def django_imports(source: str) -> list[str]:
    """Django imports in a module's source, including ones inside functions."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if is_django(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and is_django(node.module):
            found.append(node.module)
        elif isinstance(node, ast.Call) and _called_name(node) in _IMPORT_FUNCTIONS:
            # importlib.import_module("django...") / __import__("django...")
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and is_django(str(first.value)):
                found.append(str(first.value))
    return found


def test_the_scan_finds_the_engines():
    names = {module_name(path) for path in ENGINE_FILES}
    assert {"games.engines", "games.engines.base", "games.engines.kaetzchen"} <= names


def test_the_static_check_catches_django_imports():
    # Guards against a checker that never fails.
    assert django_imports("import django") == ["django"]
    assert django_imports("def f():\n    from django.db import models") == ["django.db"]
    assert django_imports("import importlib\nimportlib.import_module('django.conf')") == [
        "django.conf"
    ]
    assert django_imports("import json\nfrom . import base\nfrom djangoish import x") == []
    assert django_imports("print('django.conf')") == []


@pytest.mark.parametrize("path", ENGINE_FILES, ids=module_name)
def test_engine_source_does_not_import_django(path):
    assert django_imports(path.read_text(encoding="utf-8")) == []


# One fresh interpreter per module: importing must not pull in Django.
_PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if m == "django" or m.startswith("django."))))
"""


def _clean_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    return env


def _django_modules_after_import(name: str) -> list[str]:
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE, name],
        cwd=PROJECT_ROOT,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("path", ENGINE_FILES, ids=module_name)
def test_importing_engine_does_not_load_django(path):
    loaded = _django_modules_after_import(module_name(path))
    assert loaded == [], f"{module_name(path)} loads Django: {loaded[:5]}"


def test_the_import_probe_sees_django():
    # Guards against a probe that never fails (Django is installed here).
    assert "django" in _django_modules_after_import("django")
