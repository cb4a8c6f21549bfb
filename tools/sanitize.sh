#!/usr/bin/env bash
# tools/sanitize.sh: the whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer,
# then valgrind memcheck on the CLI.
#  1. Builds with clang++-14 -fsanitize=address,undefined (libstdc++) into $SEQCONF_ASAN_BUILD
#     (default build-asan) and runs every ctest test there (ASAN_OPTIONS=detect_leaks=1,
#     UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1); JUnit XML in build-asan/ctest-junit.xml.
#  2. Builds the CLI without sanitizers in $SEQCONF_VALGRIND_BUILD (default build) and runs
#     `seqconf run --runtime reference --source onnx-backend` under valgrind memcheck. Memory
#     errors and definite or indirect leaks fail; "still reachable" blocks (protobuf's
#     descriptor pool and other process-lifetime singletons) are not counted.
# Exit 0 when both are clean. Prints the time each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
asan=${SEQCONF_ASAN_BUILD:-build-asan}
vg=${SEQCONF_VALGRIND_BUILD:-build}
jobs=${SEQCONF_SANITIZE_JOBS:-$(nproc)}
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0)) s"; }

flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
echo "== ASan+UBSan build into $asan"
cmake -S . -B "$asan" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$asan" -j"$jobs"
echo "== built in $(elapsed)"

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
echo "== ctest under ASan+UBSan"
(cd "$asan" && ctest --output-on-failure -j"$jobs" --output-junit ctest-junit.xml) || status=1
echo "== ctest done at $(elapsed)"
unset ASAN_OPTIONS UBSAN_OPTIONS

echo "== valgrind memcheck: seqconf run --runtime reference --source onnx-backend"
cmake -S . -B "$vg" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$vg" -j"$jobs" --target seqconf
log="$asan/valgrind.log"
set +e
valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
  --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --log-file="$log" \
  "$vg/seqconf" run --runtime reference --source onnx-backend
rc=$?
set -e
grep -E "ERROR SUMMARY|definitely lost|indirectly lost|still reachable" "$log" || true
if ((rc == 99)); then
  echo "valgrind: memory errors or definite/indirect leaks (see $log)"
  status=1
elif ((rc != 0 && rc != 1)); then
  echo "valgrind: seqconf run ended with exit code $rc (see $log)"
  status=1
fi
echo "== sanitize.sh finished in $(elapsed): $([[ $status == 0 ]] && echo clean || echo FAILED)"
exit $status
