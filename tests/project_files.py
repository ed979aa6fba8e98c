"""The project's own files as git knows them (tracked, or new and not ignored), for the
tests that read the source tree (import circles, shared code naming no game, own words)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def listed(*patterns: str) -> list[str]:
    """Paths relative to the repository root that exist in the working tree."""
    names = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *patterns],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [name for name in names if (ROOT / name).exists()]
