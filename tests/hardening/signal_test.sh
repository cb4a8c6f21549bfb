#!/usr/bin/env bash
# A signal to seqconf during a run whose process runtime hangs (the adapter never answers).
#   KILL: neither the runtime's process nor seqconf's forked workers outlive seqconf by more than
#         a few seconds (parent-death signal), and a report an earlier run left at the same path
#         is not touched (reports are replaced atomically, at the end).
#   TERM, INT: seqconf stops within 10 s with exit code 1 and a report marked complete: false,
#         and leaves no process of the run behind.
#   signal_test.sh SIGNAL SEQCONF ADAPTER CORPUS WORKDIR
set -u
sig=$1 seqconf=$2 adapter=$3 corpus=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
echo '{"earlier": true}' >"$work/report.json"
marker="signal-test-$$-$RANDOM"
pattern="^/usr/bin/python3 [^ ]*runtime_process_adapter.py hang sequences $marker"
"$seqconf" run --runtime "process=/usr/bin/python3 $adapter hang sequences $marker" \
  --source corpus --corpus "$corpus" --report "$work/report.json" >"$work/out.log" 2>&1 &
pid=$!
for _ in $(seq 100); do pgrep -f "$pattern" >/dev/null && break; sleep 0.1; done
if ! pgrep -f "$pattern" >/dev/null; then
  echo "FAILED: the adapter never started"
  kill -9 "$pid"
  exit 1
fi
sleep 0.5 # the request is on its way; the adapter never answers it
start=$(date +%s)
kill -s "$sig" "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  echo "FAILED: seqconf still runs 10 s after SIG$sig"
  kill -9 "$pid"
  pkill -9 -f "$marker"
  exit 1
fi
wait "$pid"
rc=$?
cat "$work/out.log"
echo "seqconf ended with exit code $rc, $(($(date +%s) - start)) s after SIG$sig"
if [[ $sig == KILL ]]; then
  grep -q '"earlier": true' "$work/report.json" || { echo "FAILED: the earlier report changed"; exit 1; }
else
  [[ $rc == 1 ]] || { echo "FAILED: exit code $rc, expected 1"; exit 1; }
  grep -q '"complete": false' "$work/report.json" || { echo "FAILED: no complete: false report"; exit 1; }
fi
# The adapter, and seqconf's own forked workers (the static-check sandbox), whose command lines
# hold the marker too.
for _ in $(seq 50); do pgrep -f "$marker" >/dev/null || break; sleep 0.1; done
if pgrep -f "$marker" >/dev/null; then
  echo "FAILED: processes of the run still exist 5 s after it ended:"
  pgrep -af "$marker"
  pkill -9 -f "$marker"
  exit 1
fi
echo "no process of the run left"
