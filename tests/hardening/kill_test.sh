#!/usr/bin/env bash
# SIGKILL of seqconf during a run whose process runtime hangs: neither the runtime's process nor
# seqconf's forked workers outlive it by more than a few seconds (parent-death signal), and a
# report left at the same path by an earlier run is not touched (reports are replaced
# atomically, at the end).
#   kill_test.sh SEQCONF ADAPTER CORPUS WORKDIR
set -u
seqconf=$1 adapter=$2 corpus=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
echo '{"earlier": true}' >"$work/report.json"
marker="kill-test-$$-$RANDOM"
pattern="^/usr/bin/python3 [^ ]*runtime_process_adapter.py hang sequences $marker"
"$seqconf" run --runtime "process=/usr/bin/python3 $adapter hang sequences $marker" \
  --source corpus --corpus "$corpus" --report "$work/report.json" >"$work/out.log" 2>&1 &
pid=$!
for _ in $(seq 100); do pgrep -f "$pattern" >/dev/null && break; sleep 0.1; done
if ! pgrep -f "$pattern" >/dev/null; then
  echo "FAILED: the adapter never started"
  kill -9 "$pid"
  cat "$work/out.log"
  exit 1
fi
kill -9 "$pid"
wait "$pid" 2>/dev/null
# The adapter, and seqconf's own forked workers (the static-check sandbox), whose command lines
# hold the marker too.
for _ in $(seq 50); do pgrep -f "$marker" >/dev/null || break; sleep 0.1; done
if pgrep -f "$marker" >/dev/null; then
  echo "FAILED: processes of the run still exist 5 s after seqconf was killed:"
  pgrep -af "$marker"
  pkill -9 -f "$marker"
  exit 1
fi
if ! grep -q '"earlier": true' "$work/report.json"; then
  echo "FAILED: the earlier report was changed"
  exit 1
fi
echo "no adapter left after SIGKILL of seqconf; the earlier report is intact"
