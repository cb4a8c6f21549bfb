#!/usr/bin/env bash
# The main job of ./run.sh: runs every case (--source all) on the reference and on every other
# runtime `seqconf runtimes` lists, writes build/reports/<runtime>.{json,xml,html},
# build/reports/ambiguities.{json,md,html} (what the spec leaves open, on the same runtimes) and
# build/reports/index.html (the runtimes side by side), and prints each summary.
#
# Exit status: 0 when the reference has no unexpected outcome, 1 when it has (or could not
# run). Unexpected outcomes of the other runtimes are reported, not fatal.
#
# Environment: SEQCONF_BUILD (build tree, default build), SEQCONF_JOBS (worker threads per run, default: number of CPUs, at most 2),
# SEQCONF_RUNTIMES (space-separated runtime specs to run instead of asking `seqconf runtimes`).
set -uo pipefail
cd "$(dirname "$0")/.."

source tools/job-env.sh
out="$build/reports"
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.xml "$out"/*.html "$out"/ambiguities.md
find_corpus

# Runtimes: the reference first, then every other runtime `seqconf runtimes --json` reports
# as available, except the further ONNX Runtime releases (tools/history.sh runs those).
runtimes=(reference)
if [[ -n "${SEQCONF_RUNTIMES:-}" ]]; then
  read -r -a runtimes <<<"$SEQCONF_RUNTIMES"
elif listed="$("$seqconf" runtimes --json 2>/dev/null)"; then
  while read -r spec; do
    [[ -n "$spec" && "$spec" != reference ]] && runtimes+=("$spec")
  done < <(/usr/bin/python3 -c '
import json, sys
for r in json.load(sys.stdin):
    if r.get("available") and not r.get("release"):
        print(r["spec"])' <<<"$listed" 2>/dev/null)
  echo "== runtimes: ${runtimes[*]}"
fi

# File name of a runtime spec: its name (before '='), made safe.
stem_of() {
  local name="${1%%=*}"
  printf '%s' "${name//[^A-Za-z0-9_.-]/_}"
}

reference_status=0
declare -A run_status=()
jsons=()
for spec in "${runtimes[@]}"; do
  stem="$(stem_of "$spec")"
  args=(run --runtime "$spec" --source all --jobs "$jobs"
    --report "$out/$stem.json" --junit "$out/$stem.xml" --html "$out/$stem.html")
  [[ -n "$corpus" ]] && args+=(--corpus "$corpus")
  expectations="expectations/$stem.json"
  [[ -f "$expectations" ]] && args+=(--expectations "$expectations")
  echo
  echo "== $spec: $seqconf ${args[*]}"
  "$seqconf" "${args[@]}" >"$out/$stem.log" 2>&1
  rc=$?
  # The log holds one line per non-passing case; show its end (the summary table).
  tail -n 12 "$out/$stem.log"
  run_status[$spec]=$rc
  [[ -f "$out/$stem.json" ]] && jsons+=("$out/$stem.json")
  if [[ "$spec" == reference && $rc -ne 0 ]]; then reference_status=1; fi
done

# What the spec leaves open: the open questions' smallest cases on the reference under each
# policy and on the same runtimes, written as ambiguities.{json,md,html} (the .md reads as issues
# for the spec's maintainers).
amb_args=(ambiguities --out "$out" --jobs "$jobs")
[[ -n "$corpus" ]] && amb_args+=(--corpus "$corpus")
for spec in "${runtimes[@]}"; do
  [[ "$spec" != reference ]] && amb_args+=(--runtime "$spec")
done
echo
echo "== open questions: $seqconf ${amb_args[*]}"
if ! "$seqconf" "${amb_args[@]}" >"$out/ambiguities.log" 2>&1; then
  echo "== could not write $out/ambiguities.* (see $out/ambiguities.log)" >&2
fi
tail -n 40 "$out/ambiguities.log"

if ((${#jsons[@]})); then
  index_args=(merge "${jsons[@]}" --index "$out/index.html")
  [[ -f "$out/ambiguities.html" ]] && index_args+=(--ambiguities "$out/ambiguities.html")
  "$seqconf" "${index_args[@]}" >/dev/null ||
    echo "== could not write $out/index.html" >&2
fi

echo
echo "== reports in $out/"
for spec in "${runtimes[@]}"; do
  stem="$(stem_of "$spec")"
  rc="${run_status[$spec]}"
  case "$rc" in
    0) verdict="no unexpected outcome" ;;
    1) verdict="UNEXPECTED outcomes" ;;
    *) verdict="did not run (exit $rc, see $out/$stem.log)" ;;
  esac
  line=""
  if [[ -f "$out/$stem.json" ]]; then
    line="$(/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
print("{} {}: {} cases, {} passed, {} failed, {} errored, {} not supported, {} crashed, "
      "{} timed out, {} skipped; {} expected failures, {} unexpected failures, "
      "{} unexpected passes{}".format(
          r["runtime"]["name"], r["runtime"]["version"], s["total"], s["passed"], s["failed"],
          s["errored"], s["not_supported"], s["crashed"], s["timed_out"], s["skipped"],
          s["expected_failures"], s["unexpected_failures"], s["unexpected_passes"],
          "" if r["complete"] else " (INCOMPLETE)"))' "$out/$stem.json" 2>/dev/null)"
  fi
  echo "  $spec: $verdict"
  [[ -n "$line" ]] && echo "    $line"
  for ext in json xml html log; do
    [[ -f "$out/$stem.$ext" ]] && echo "    $out/$stem.$ext"
  done
done
[[ -f "$out/index.html" ]] && echo "  side by side: $out/index.html"
[[ -f "$out/ambiguities.html" ]] && echo "  open questions of the spec: $out/ambiguities.{json,md,html}"

if ((reference_status)); then
  echo "== the reference has unexpected outcomes: failing the job" >&2
  exit 1
fi
exit 0
