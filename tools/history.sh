#!/usr/bin/env bash
# Release history (./run.sh history): runs every case (--source all) on each ONNX Runtime
# release tools/setup-runtimes.sh installed under third_party/onnxruntime-releases/ (ORT_VERSIONS)
# and writes their departures side by side:
#   build/history/onnxruntime-<version>.{json,html,log}   one run per release
#   build/history/history.{html,json}                     seqconf history of those runs
# and prints the table. Expectations are not applied: every departure of every release shows.
#
# Exit status: 0 when every release ran to the end and the table was written, 1 otherwise.
# Environment: SEQCONF_BUILD (build tree, default build), SEQCONF_JOBS (worker threads per run,
# default: number of CPUs, at most 2), ORT_VERSIONS (only these of the installed releases).
set -uo pipefail
cd "$(dirname "$0")/.."

source tools/job-env.sh
out="$build/history"
releases="third_party/onnxruntime-releases"
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.html "$out"/*.log
find_corpus

versions=()
if [[ -n "${ORT_VERSIONS:-}" ]]; then
  read -r -a versions <<<"$ORT_VERSIONS"
else
  for dir in "$releases"/*/; do [[ -d "$dir" ]] && versions+=("$(basename "$dir")"); done
fi
if ((${#versions[@]} == 0)); then
  echo "history: no ONNX Runtime release in $releases" \
    "(ORT_VERSIONS=\"1.17.0 1.30.0\" tools/setup-runtimes.sh installs some)" >&2
  exit 1
fi

status=0
reports=()
for version in "${versions[@]}"; do
  lib="$releases/$version/libonnxruntime.so.1"
  if [[ ! -f "$lib" ]]; then
    echo "history: $lib is missing (ORT_VERSIONS=\"$version\" tools/setup-runtimes.sh)" >&2
    status=1
    continue
  fi
  stem="$out/onnxruntime-$version"
  echo "== onnxruntime $version: $seqconf run --runtime onnxruntime=$lib --source all"
  # Exit 1 (unexpected outcomes) is what a release with departures gives without expectations;
  # only a report that is missing or incomplete counts as a failure here.
  args=(run --runtime "onnxruntime=$lib" --source all --jobs "$jobs" --report "$stem.json"
    --html "$stem.html")
  [[ -n "$corpus" ]] && args+=(--corpus "$corpus")
  "$seqconf" "${args[@]}" >"$stem.log" 2>&1
  rc=$?
  if [[ ! -f "$stem.json" ]] || ((rc > 1)); then
    echo "history: the run of onnxruntime $version failed (exit $rc); see $stem.log" >&2
    status=1
  fi
  [[ -f "$stem.json" ]] && reports+=("$stem.json")
done

((${#reports[@]})) || exit 1
echo
"$seqconf" history "${reports[@]}" --html "$out/history.html" --json "$out/history.json" ||
  status=1
echo
echo "== pages: $out/history.html, $out/onnxruntime-<version>.html"
exit "$status"
