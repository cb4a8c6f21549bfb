#!/usr/bin/env bash
# Opens report pages in headless Chromium: the screenshot must be a non-empty PNG and the
# rendered DOM must hold the expected matrix cells.
#   html_chromium_test.sh PAGE.html 'SELECTOR-LIKE STRING'...
# Each further argument is a string the rendered DOM must contain (e.g. data-op="SequenceAt").
# Exit 77 (ctest SKIP_RETURN_CODE) when chromium is not installed.
set -euo pipefail
page="$1"
shift
chromium_bin="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$chromium_bin" ]]; then
  echo "SKIP: chromium is not installed (Debian package chromium)"
  exit 77
fi
[[ -s "$page" ]] || { echo "FAIL: $page is missing or empty"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --user-data-dir="$work/profile" --window-size=1200,900)
url="file://$(realpath "$page")"

timeout 120 "$chromium_bin" "${flags[@]}" --screenshot="$work/shot.png" "$url" >"$work/shot.log" 2>&1 || true
if [[ ! -s "$work/shot.png" ]]; then
  echo "FAIL: no screenshot"
  cat "$work/shot.log"
  exit 1
fi
if [[ "$(head -c 8 "$work/shot.png" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]]; then
  echo "FAIL: the screenshot is not a PNG"
  exit 1
fi
echo "screenshot: $(stat -c %s "$work/shot.png") bytes"

timeout 120 "$chromium_bin" "${flags[@]}" --dump-dom "$url" >"$work/dom.html" 2>"$work/dom.log" || true
if [[ ! -s "$work/dom.html" ]]; then
  echo "FAIL: no DOM dump"
  cat "$work/dom.log"
  exit 1
fi
status=0
for want in "$@"; do
  if grep -qF -- "$want" "$work/dom.html"; then
    echo "found: $want"
  else
    echo "FAIL: the rendered DOM lacks: $want"
    status=1
  fi
done
exit $status
