#!/usr/bin/env bash
# fuzz/run.sh SECONDS [TARGET...]
# Builds the libFuzzer targets (clang++-14, libstdc++, address + undefined sanitizers) into
# $SEQCONF_FUZZ_BUILD (default build-fuzz), seeds them from the sequence fixtures (ONNX backend
# test data, and fixtures/corpus when present), and runs each target in turn for SECONDS
# seconds (one at a time; 0 only builds and seeds). Targets: tensor_proto sequence_proto model ops
# diff (default: all). diff is differential: each input is a program of seqconf fuzz (encoded,
# difffuzz/encoding.h, as its structural custom mutator writes them and its seeds are; other bytes
# name one), run on the reference and on $SEQCONF_FUZZ_RUNTIME (a --runtime spec such as
# seeded=insert.at_length_goes_front or onnxruntime; unset: the reference itself), and a
# disagreement is a crash; `seqconf fuzz --replay ARTIFACT --runtime SPEC --out DIR` shrinks it
# into a fixture. SEQCONF_FUZZ_FLAGS adds libFuzzer flags (e.g. -fork=2).
# Inputs that crash, leak, break an invariant, time out (10 s) or allocate more than 256 MB at
# once are written to $BUILD/fuzz-artifacts/<target>/; the script then exits 1. To keep one as a
# regression test, copy it to fuzz/regressions/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 1 || ! "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: fuzz/run.sh SECONDS [TARGET...]" >&2
  exit 2
fi
seconds=$1
shift
targets=("$@")
((${#targets[@]})) || targets=(tensor_proto sequence_proto model ops diff)
build=${SEQCONF_FUZZ_BUILD:-build-fuzz}
jobs=${SEQCONF_FUZZ_BUILD_JOBS:-2}

flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
flags+=" -fno-omit-frame-pointer -gline-tables-only"
cmake -S . -B "$build" -DSEQCONF_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$flags" >/dev/null
build_targets=(fuzz_make_seeds)
for t in "${targets[@]}"; do build_targets+=("fuzz_$t"); done
cmake --build "$build" -j"$jobs" --target "${build_targets[@]}"

seeds="$build/fuzz-seeds"
rm -rf "$seeds"
corpus_root=fixtures/corpus
"$build/fuzz_make_seeds" "$seeds" "${SEQCONF_ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}" \
  "$corpus_root"

((seconds > 0)) || exit 0

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
found=0
for t in "${targets[@]}"; do
  corpus="$build/fuzz-corpus/$t"
  artifacts="$build/fuzz-artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  seed_dir="$seeds/$t"
  [[ -d "$seed_dir" ]] || seed_dir=""
  log="$build/fuzz-$t.log"
  echo "== fuzz_$t for ${seconds}s (log $log), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  set +e
  "$build/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=256 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" ${SEQCONF_FUZZ_FLAGS:-} "$corpus" $seed_dir >"$log" 2>&1
  rc=$?
  set -e
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$log" |
    sed "s/^/   $t /" || true
  echo "   $t load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "   $t exit $rc, corpus $(ls "$corpus" | wc -l) inputs, artifacts $(ls "$artifacts" | wc -l)"
  if ((rc != 0)) || [[ -n "$(ls -A "$artifacts")" ]]; then
    found=1
    grep -E "^==|ERROR|SUMMARY|invariant broken" "$log" | head -20 || true
  fi
done
exit "$found"
