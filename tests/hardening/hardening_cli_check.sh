#!/usr/bin/env bash
# hardening_cli_check.sh EXIT_CODES [--expect TEXT]... [--forbid TEXT]... -- COMMAND...
# Runs COMMAND (120 s at most) and checks that it ended normally with one of EXIT_CODES
# (comma-separated), not by a signal or a timeout, and that its output (stdout and stderr)
# holds every --expect TEXT and no --forbid TEXT.
set -uo pipefail
codes=",$1,"
shift
expect=()
forbid=()
while (($#)) && [[ "$1" != "--" ]]; do
  case "$1" in
    --expect) expect+=("$2") ;;
    --forbid) forbid+=("$2") ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done
shift
out=$(timeout -s KILL 120 "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
echo "-- exit code $rc"
status=0
if ((rc == 137)); then
  echo "FAILED: killed after 120 s (hang)"
  exit 1
fi
if ((rc > 128)); then
  echo "FAILED: ended by signal $((rc - 128))"
  exit 1
fi
if [[ "$codes" != *",$rc,"* ]]; then
  echo "FAILED: exit code $rc, expected one of ${codes:1:-1}"
  status=1
fi
for t in "${expect[@]}"; do
  if [[ "$out" != *"$t"* ]]; then
    echo "FAILED: the output does not contain: $t"
    status=1
  fi
done
for t in "${forbid[@]}"; do
  if [[ "$out" == *"$t"* ]]; then
    echo "FAILED: the output contains: $t"
    status=1
  fi
done
exit $status
