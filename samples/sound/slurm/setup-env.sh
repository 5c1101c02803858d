#!/bin/bash
# not a training launch: skipped quietly
set -euo pipefail
python -m pip install -r requirements.txt
mkdir -p "$HOME/checkpoints"
