"""A document's path and display name from its URI."""

from __future__ import annotations

from pathlib import Path

from pygls.uris import to_fs_path


def display_name(path: Path | None, uri: str) -> str:
    """The name findings and verify commands use: relative to the folder the editor
    started the server in when the file is inside it (``src/model.py``), else absolute."""
    if path is None:
        return uri
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def path_of(uri: str) -> Path | None:
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return Path(path) if path else None
