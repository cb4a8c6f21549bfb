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
#
# Release history: ORT_VERSIONS="1.14.0 1.17.0 1.17.3 1.20.1 1.30.0" also installs each of those
# ONNX Runtime releases (the CPU library only) into its own folder,
#   third_party/onnxruntime-releases/<version>/libonnxruntime.so.1
# which `seqconf runtimes` lists as onnxruntime=<that library> (tools/history.sh runs them all).
set -euo pipefail
cd "$(dirname "$0")/.."

# One release into third_party/onnxruntime-releases/<version>/: npm install without the
# package's scripts (its postinstall fetches GPU libraries), then the library copied out.
install_release() {
  local version="$1" dir="$PWD/third_party/onnxruntime-releases/$1"
  [[ -f "$dir/libonnxruntime.so.1" ]] && return 0
  [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || {
    echo "setup-runtimes: ORT_VERSIONS: '$version' is not a release number like 1.17.0" >&2
    return 1
  }
  echo "== npm: onnxruntime-node@$version (library only) into $dir"
  mkdir -p "$dir/npm"
  [[ -f "$dir/npm/package.json" ]] || echo '{"private": true}' >"$dir/npm/package.json"
  (cd "$dir/npm" && ONNXRUNTIME_NODE_INSTALL=skip npm install --ignore-scripts --no-audit \
    --no-fund --loglevel=error "onnxruntime-node@$version")
  # napi-v3 up to 1.17, napi-v6 later; the file is libonnxruntime.so.1 or .so.<version>.
  local lib
  lib="$(find "$dir/npm/node_modules/onnxruntime-node/bin" -path '*/linux/x64/*' \
    -name 'libonnxruntime.so*' -type f | sort | head -n 1)"
  [[ -n "$lib" ]] || {
    echo "setup-runtimes: no linux/x64 libonnxruntime.so in onnxruntime-node@$version" >&2
    return 1
  }
  cp -f "$lib" "$dir/libonnxruntime.so.1.tmp" && mv -f "$dir/libonnxruntime.so.1.tmp" "$dir/libonnxruntime.so.1"
}

ort_version="${ORT_VERSION:-1.30.0}"
# No ORT npm package for Node ships the C headers; this one (MIT) carries the official ones.
headers_package="${ORT_HEADERS_PACKAGE:-com.github.asus4.onnxruntime@0.4.9}"

root="$PWD/third_party"
ort="$root/onnxruntime"
npm_dir="$root/npm"
stamp="$root/.runtimes-$ort_version"

if [[ -n "${ORT_VERSIONS:-}" ]]; then
  command -v npm >/dev/null 2>&1 || {
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm
  }
  for version in $ORT_VERSIONS; do install_release "$version"; done
fi

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
