#!/usr/bin/env bash
# Installs the third-party runtimes the suite can drive, from the npm registry, into the
# gitignored folder third_party/. Idempotent: returns at once when everything is present.
#
#   third_party/onnxruntime/include/   ONNX Runtime C API headers (onnxruntime_c_api.h, ...)
#   third_party/onnxruntime/lib/       libonnxruntime.so.1 (CPU build, from onnxruntime-node)
#   third_party/npm/node_modules/      onnxruntime-node (library only) and onnxruntime-web (WASM),
#                                      the latter used by adapters/onnxruntime-web/
#
# Versions can be overridden: ORT_VERSION (default 1.30.0), ORT_HEADERS_PACKAGE.
set -euo pipefail
cd "$(dirname "$0")/.."

ort_version="${ORT_VERSION:-1.30.0}"
# No ORT npm package for Node ships the C headers; this one (MIT) carries the official ones.
headers_package="${ORT_HEADERS_PACKAGE:-com.github.asus4.onnxruntime@0.4.9}"

root="$PWD/third_party"
ort="$root/onnxruntime"
npm_dir="$root/npm"
stamp="$root/.runtimes-$ort_version"

if [[ -f "$stamp" && -f "$ort/include/onnxruntime_c_api.h" && -f "$ort/lib/libonnxruntime.so.1" &&
  -d "$npm_dir/node_modules/onnxruntime-web" ]]; then
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "== installing nodejs and npm (Debian)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends nodejs npm
fi

mkdir -p "$ort/include" "$ort/lib" "$npm_dir"

# The library and the WASM build. onnxruntime-node's postinstall downloads CUDA libraries from
# a host outside the npm registry; ONNXRUNTIME_NODE_INSTALL=skip keeps the CPU build only.
if [[ ! -f "$npm_dir/node_modules/onnxruntime-node/package.json" ||
  ! -d "$npm_dir/node_modules/onnxruntime-web" ]] ||
  ! grep -q "\"version\": \"$ort_version\"" "$npm_dir/node_modules/onnxruntime-node/package.json"; then
  echo "== npm: onnxruntime-node@$ort_version onnxruntime-web@$ort_version"
  [[ -f "$npm_dir/package.json" ]] || echo '{"private": true}' >"$npm_dir/package.json"
  (cd "$npm_dir" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund \
    --loglevel=error "onnxruntime-node@$ort_version" "onnxruntime-web@$ort_version")
fi
lib="$npm_dir/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"
[[ -f "$lib" ]] || {
  echo "setup-runtimes: $lib missing after npm install" >&2
  exit 1
}
cp -f "$lib" "$ort/lib/libonnxruntime.so.1"

# The C headers: only the Headers/ folder of one framework slice is kept.
if [[ ! -f "$ort/include/onnxruntime_c_api.h" ]]; then
  echo "== npm pack $headers_package (headers only)"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --loglevel=error "$headers_package" >/dev/null)
  tgz="$(ls "$tmp"/*.tgz)"
  tar tzf "$tgz" >"$tmp/members"
  member="$(grep -m1 '/Headers/onnxruntime_c_api.h$' "$tmp/members")"
  headers_dir="$(dirname "$member")"
  tar xzf "$tgz" -C "$tmp" --wildcards "$headers_dir/*.h"
  cp -f "$tmp/$headers_dir"/*.h "$ort/include/"
fi

rm -f "$root"/.runtimes-*
touch "$stamp"
echo "== ONNX Runtime $ort_version in $ort; onnxruntime-web in $npm_dir/node_modules"
