#!/usr/bin/env bash
# tools/sanitize.sh [all|asan|valgrind]: the whole test suite under AddressSanitizer and
# UndefinedBehaviorSanitizer, then valgrind memcheck on the CLI (default: both).
#  asan:     builds with clang++-14 -fsanitize=address,undefined (libstdc++) into
#            $SEQCONF_ASAN_BUILD (default build-asan) and runs every ctest test there but
#            labels bench-gate (ratios are not for sanitized builds), mutation-smoke (it judges
#            the tests, not memory), external (what it judges runs outside seqconf's C++),
#            memcheck (valgrind cannot run a sanitized program) and embedding, and the test
#            CrashFindings.TwoCrashDefectsAreTwoDepartures (a default-budget crash campaign) and
#            selftest.cli.cases (every case on the reference and 35 seeded defects),
#            OrtExpectations.EveryNonPassIsListedWithItsStatus,
#            runtime_tool_expectations.attribution and
#            DiffFuzz.OnnxRuntimeFindingsAreExpectedAndReproduce (ONNX Runtime against its
#            expectations), selftest.cli.fuzz (a campaign per seeded defect),
#            runtime_machinery_attribution (a Python backend over the corpus four times) and
#            example_ci_workflow (the example workflow's steps),
#            with ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigfpe=0, leaks inside ONNX
#            Runtime suppressed by tools/sanitize-lsan.supp,
#            UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1;
#            JUnit XML in $SEQCONF_ASAN_BUILD/ctest-junit.xml.
#  valgrind: builds the CLI without sanitizers (and with glibc's malloc, not tcmalloc) in
#            $SEQCONF_VALGRIND_BUILD (default build) and runs `seqconf run --runtime reference --source all` (every ONNX backend fixture
#            and corpus case) under valgrind memcheck. Memory errors and definite or indirect leaks fail; "still reachable"
#            blocks (protobuf's descriptor pool and other process-lifetime singletons) are not
#            counted. The log is $SEQCONF_VALGRIND_BUILD/valgrind.log.
# $SEQCONF_SANITIZE_JOBS (default nproc) sets the build and ctest parallelism.
# Exit 0 when every step run is clean. Prints each step's wall-clock and CPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-all}
case "$steps" in all | asan | valgrind) ;; *)
  echo "usage: tools/sanitize.sh [all|asan|valgrind]" >&2
  exit 2
  ;;
esac
asan=${SEQCONF_ASAN_BUILD:-build-asan}
vg=${SEQCONF_VALGRIND_BUILD:-build}
jobs=${SEQCONF_SANITIZE_JOBS:-$(nproc)}
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0)) s"; }
TIMEFORMAT="   took %0R s wall, %0U s user + %0S s sys CPU"
status=0

if [[ $steps != valgrind ]]; then
  flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  echo "== ASan+UBSan build into $asan ($jobs jobs)"
  cmake -S . -B "$asan" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" -DSEQCONF_EMBEDDING_TESTS=OFF \
    >/dev/null
  time cmake --build "$asan" -j"$jobs"
  echo "== built at $(elapsed)"

  # handle_segv=0, handle_sigfpe=0: the isolation tests crash a worker with SIGSEGV on purpose,
  # and ONNX's own (uninstrumented) shape inference divides by zero on
  # fixtures/onnx_crashes in the static-check sandbox; the tests check that the worker died from
  # that signal, which ASan's own handler would turn into exit status 1.
  # Memory errors are still reported by ASan's checks before any access can fault.
  supp="$PWD/tools/sanitize-lsan.supp"  # leaks inside ONNX Runtime's prebuilt library
  echo "== ctest under ASan+UBSan ($jobs jobs)"
  echo "   excluded: label embedding (it installs the sanitized static libraries and builds a"
  echo "   separate consumer project with its own, unsanitized flags, which cannot link them; its"
  echo "   tests are not built here, SEQCONF_EMBEDDING_TESTS=OFF) and"
  echo "   label bench-gate (benchmark ratios: the sanitizers slow the reference, not ONNX Runtime)"
  echo "   and label mutation-smoke (it rebuilds mutants to judge the tests, not the code's memory;"
  echo "   run serially, it held the stage for minutes alone) and label external (what it judges"
  echo "   runs outside seqconf's C++: the Python backend adapter, the repro.js scripts on Node,"
  echo "   onnxruntime-web, the model tools, the pages in a browser; the C++ those tests go"
  echo "   through is run under the sanitizers by other tests) and label memcheck (valgrind"
  echo "   cannot run a sanitized program: they would only be skipped), and the test"
  echo "   CrashFindings.TwoCrashDefectsAreTwoDepartures (a whole default campaign whose programs"
  echo "   crash the worker some 1,300 times: 543 s of a 1,057 s stage; the crash findings' code it"
  echo "   goes through runs sanitized in the other CrashFindings and DiffFuzz crash tests), and"
  echo "   selftest.cli.cases (the reference and 35 seeded defects, each on every case: 132 s of"
  echo "   the normal stage, the same interpreter 36 times over; the seeded kernels run sanitized"
  echo "   in seeded_tests and selftest.cli.gap, the reference on every case in the run tests),"
  echo "   and OrtExpectations.EveryNonPassIsListedWithItsStatus and"
  echo "   runtime_tool_expectations.attribution (ONNX Runtime on every case against its"
  echo "   expectations: what they judge is ONNX Runtime; seqconf's binding and attribution code run"
  echo "   sanitized in the other onnxruntime and Attribution tests), and"
  echo "   DiffFuzz.OnnxRuntimeFindingsAreExpectedAndReproduce (ONNX Runtime's findings against its"
  echo "   expectations, for the same reason: the findings' code runs sanitized in the other DiffFuzz"
  echo "   tests), selftest.cli.fuzz (a campaign per seeded defect: the campaign code runs sanitized"
  echo "   in the DiffFuzz tests, the seeded kernels in seeded_tests and selftest.cli.gap),"
  echo "   runtime_machinery_attribution (a Python backend over the corpus four times: the attribution"
  echo "   it judges runs sanitized in the Attribution tests, the process protocol in ProcessRuntime)"
  echo "   and example_ci_workflow (it keeps examples/ci/seqconf.yml working; the run, merge, diff"
  echo "   and history it drives run sanitized in Merge, Diff, History and report_cli_end_to_end);"
  echo "   these four cost 213 s of a 705 s stage"
  # The longest tests first: ctest orders by the times in CTestCostData.txt, which a fresh
  # build tree does not have yet; those of the normal build's last run stand in for them.
  costs=build/Testing/Temporary/CTestCostData.txt
  if [[ -f $costs && ! -f $asan/Testing/Temporary/CTestCostData.txt ]]; then
    mkdir -p "$asan/Testing/Temporary" && cp "$costs" "$asan/Testing/Temporary/"
  fi
  time (cd "$asan" &&
    SEQCONF_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigfpe=0 \
      LSAN_OPTIONS=suppressions="$supp":print_suppressions=0 \
      UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      ctest --output-on-failure -j"$jobs" -LE 'embedding|bench-gate|mutation-smoke|external|memcheck' \
        -E '^(CrashFindings\.TwoCrashDefectsAreTwoDepartures|selftest\.cli\.(cases|fuzz)|OrtExpectations\.EveryNonPassIsListedWithItsStatus|runtime_tool_expectations\.attribution|runtime_machinery_attribution|example_ci_workflow|DiffFuzz\.OnnxRuntimeFindingsAreExpectedAndReproduce)$' \
        --output-junit ctest-junit.xml) ||
    status=1
  echo "== ctest done at $(elapsed)"
fi

if [[ $steps != asan ]]; then
  # --no-host: the subject is seqconf's own code; the host (ONNX Runtime, dlopen'ed) is not, and
  # the dynamic loader's reading of its rpath is an error to memcheck. The 49 exported models
  # that need a host are not judged in this run; the host's code path runs under ASan in ctest.
  echo "== valgrind memcheck: seqconf run --runtime reference --source all --no-host"
  # memcheck replaces malloc with its own and does not follow tcmalloc's: the CLI is linked
  # with glibc's malloc for this check (only the link changes), and with tcmalloc again after.
  cmake -S . -B "$vg" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSEQCONF_TCMALLOC=OFF >/dev/null
  time cmake --build "$vg" -j"$jobs" --target seqconf
  log="$vg/valgrind.log"
  set +e
  time valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
    --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --log-file="$log" \
    "$vg/seqconf" run --runtime reference --source all --no-host >"$vg/valgrind-run.txt"
  rc=$?
  set -e
  cmake -S . -B "$vg" -DSEQCONF_TCMALLOC=ON >/dev/null
  cmake --build "$vg" -j"$jobs" --target seqconf >/dev/null
  tail -1 "$vg/valgrind-run.txt"
  grep -E "ERROR SUMMARY|definitely lost|indirectly lost|still reachable" "$log" || true
  if ((rc == 99)); then
    echo "valgrind: memory errors or definite/indirect leaks (see $log)"
    status=1
  elif ((rc != 0 && rc != 1)); then
    echo "valgrind: seqconf run ended with exit code $rc (see $log)"
    status=1
  fi
  echo "== valgrind done at $(elapsed)"
fi
echo "== sanitize.sh $steps finished in $(elapsed): $([[ $status == 0 ]] && echo clean || echo FAILED)"
exit $status
