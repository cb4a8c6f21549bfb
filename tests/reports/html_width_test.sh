#!/usr/bin/env bash
# The HTML pages fit the screen: a report with long case ids and rerun commands (the bits cases
# of the corpus on a seeded defect), the index of two runtimes, their diff and their history,
# each opened in headless Chromium at 1280 and 1920 px: the page is no wider than the viewport
# (document scrollWidth <= clientWidth; long ids and commands wrap inside their cells, wide
# tables scroll inside themselves).
#   html_width_test.sh SEQCONF CORPUS WORKDIR
# Exit 77 (ctest SKIP_RETURN_CODE) when chromium is not installed.
set -euo pipefail
seqconf="$1" corpus="$2" work="$3"
chromium_bin="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$chromium_bin" ]]; then
  echo "SKIP: chromium is not installed (Debian package chromium)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work"
filter='*values=bits*'
"$seqconf" run --runtime seeded=bits.negative_zero_lost --source corpus --corpus "$corpus" \
  --filter "$filter" --report defect.json --html report.html >/dev/null || true
"$seqconf" run --runtime reference --source corpus --corpus "$corpus" --filter "$filter" \
  --report reference.json >/dev/null
"$seqconf" merge reference.json defect.json --index index.html >/dev/null
"$seqconf" diff reference.json defect.json --html diff.html >/dev/null || true
"$seqconf" history reference.json defect.json --html history.html >/dev/null
status=0
for page in report index diff history; do
  [[ -s "$page.html" ]] || { echo "FAIL: $page.html was not written"; status=1; continue; }
  # Measures the rendered page into the DOM that --dump-dom prints.
  sed 's#</body>#<script>document.body.setAttribute("data-width", document.documentElement.scrollWidth + " " + document.documentElement.clientWidth)</script></body>#' \
    "$page.html" >"measured-$page.html"
  for width in 1280 1920; do
    dom="$(timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-quic \
      --no-first-run --disable-background-networking --disable-component-update --disable-sync \
      --user-data-dir="$work/profile" --window-size="$width,900" --dump-dom \
      "file://$work/measured-$page.html" 2>/dev/null || true)"
    measured="$(grep -o 'data-width="[0-9]* [0-9]*"' <<<"$dom" | head -n 1 | tr -dc '0-9 ')"
    read -r scroll client <<<"$measured" || true
    if [[ -z "${scroll:-}" || -z "${client:-}" ]]; then
      echo "FAIL: $page.html at $width px: not measured"
      status=1
    elif ((scroll > client)); then
      echo "FAIL: $page.html at $width px: the page is $scroll px wide, the viewport $client px"
      status=1
    else
      echo "ok: $page.html at $width px: $scroll px within $client px"
    fi
  done
done
exit $status
