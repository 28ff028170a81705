#!/usr/bin/env bash
# Makes the Python environment `make onnx` and bench/onnx.sh run in: a venv at $1 (default
# build/onnx-venv) over the system python3, with the pinned onnx and onnxruntime from PyPI (and
# NumPy, which they bring). Idempotent: an environment that imports both at these versions is kept.
# Fails loudly with one sentence when PyPI cannot be reached or a package does not install.
set -euo pipefail
venv=${1:-build/onnx-venv}
py=${PYTHON3:-/usr/bin/python3}
pins=(onnx==1.23.2 onnxruntime==1.32.0)
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c '
import onnx, onnxruntime, sys
sys.exit(0 if (onnx.__version__, onnxruntime.__version__) == ("1.23.2", "1.32.0") else 1)' 2>/dev/null; then
  exit 0
fi
"$py" -m venv "$venv" || { echo "onnx-venv: cannot create a venv at $venv with $py (Debian: apt-get install python3-venv)" >&2; exit 1; }
"$venv/bin/pip" install -q --disable-pip-version-check "${pins[@]}" \
  || { echo "onnx-venv: pip could not install ${pins[*]} from PyPI into $venv" >&2; exit 1; }
"$venv/bin/python" -c 'import onnx, onnxruntime' \
  || { echo "onnx-venv: onnx or onnxruntime does not import in $venv" >&2; exit 1; }
echo "onnx-venv: $venv has ${pins[*]}"
