#!/usr/bin/env bash
# ./run.sh        install what is missing, build, run the conformance job
# ./run.sh test   install what is missing, build, run the whole test suite (ctest)
# ./run.sh build  install what is missing and build, nothing more (CI jobs that run seqconf)
# ./run.sh history  also install the ONNX Runtime releases of $ORT_VERSIONS, run each, and
#                   write their departures side by side (tools/history.sh)
set -euo pipefail
cd "$(dirname "$0")"

mode="${1:-main}"
case "$mode" in main | test | build | history) ;; *)
  echo "usage: ./run.sh [test | build | history]" >&2
  exit 2
  ;;
esac

# Debian packages the build, the tests and the reports use.
packages=(g++ cmake make pkg-config
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev libssl-dev
  python3 python3-jsonschema python3-onnx python3-yaml chromium
  clang-14 libclang-rt-14-dev lld valgrind libtcmalloc-minimal4)

# ./run.sh test also regenerates the exported models with torch.onnx (tests/exported).
if [[ "$mode" == test ]]; then packages+=(python3-torch); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Optional runtimes (ONNX Runtime from the npm registry); a failure here leaves the
# reference usable and the runtime tests report skipped. Under CI=true it fails the run: a CI
# without the runtimes would pass with their tests skipped.
if [[ "$mode" == history ]]; then
  export ORT_VERSIONS="${ORT_VERSIONS:-1.14.0 1.17.0 1.17.3 1.20.1 1.30.0}"
fi
# ./run.sh test: a bundle's repro.js against the release with a defect and the one that fixed it
# (tests/bundle).
if [[ "$mode" == test ]]; then export ORT_VERSIONS="${ORT_VERSIONS:-1.17.0 1.17.3}"; fi
if [[ -x tools/setup-runtimes.sh ]]; then
  if ! tools/setup-runtimes.sh; then
    if [[ "${CI:-}" == true ]]; then
      echo "== runtime setup failed (CI=true: the runtime tests would only be skipped)" >&2
      exit 1
    fi
    echo "== runtime setup failed; continuing with the reference only" >&2
  fi
fi

echo "== building into build/"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSEQCONF_TCMALLOC=ON >/dev/null
build_start=$(date +%s)
cmake --build build -j"$(nproc)"
echo "== built in $(($(date +%s) - build_start)) s"

if [[ "$mode" == test ]]; then
  cd build
  exec ctest --output-on-failure -j"$(nproc)" --output-junit ctest-junit.xml
fi

[[ "$mode" == build ]] && exit 0
[[ "$mode" == history ]] && exec tools/history.sh
exec tools/main-job.sh
