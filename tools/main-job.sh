#!/usr/bin/env bash
# The main job of ./run.sh: the conformance runs and their reports.
set -euo pipefail
cd "$(dirname "$0")/.."
build/seqconf --help
