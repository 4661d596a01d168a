#!/usr/bin/env bash
# Print the path of a Python >= 3.12 interpreter that really runs, or exit 1.
# pyenv shims for python3.12 fail unless that version is enabled, so each
# candidate is executed, not just looked up.
set -u
candidates=()
[ -n "${PYTHON312:-}" ] && candidates+=("$PYTHON312")
candidates+=(python3.12 python3.13)
if command -v pyenv >/dev/null 2>&1; then
  root=$(pyenv root 2>/dev/null)
  for d in "$root"/versions/3.12* "$root"/versions/3.13*; do
    [ -x "$d/bin/python3" ] && candidates+=("$d/bin/python3")
  done
fi
for d in /usr/local/bin /usr/bin; do
  for v in 3.12 3.13; do [ -x "$d/python$v" ] && candidates+=("$d/python$v"); done
done
for c in "${candidates[@]}"; do
  out=$("$c" -c 'import sys, venv; print(sys.executable) if sys.version_info >= (3, 12) else sys.exit(1)' 2>/dev/null) || continue
  [ -n "$out" ] && { echo "$out"; exit 0; }
done
exit 1
