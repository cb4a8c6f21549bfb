#!/usr/bin/env bash
# The report pages read at a glance: in headless Chromium at 1280 px,
#   (a) the page needs no horizontal scroll (scrollWidth <= clientWidth), nor do the summary and
#       departures tables within themselves;
#   (b) no count, version or id is broken across lines: every numeric cell (td.n, td.cell) and
#       every element marked .nb is on one line;
#   (c) each row of a departures table (tr[data-departure]) is one line high, at most two line
#       heights, with its details closed;
#   (d) a page whose file name holds "exported" shows the exported-models section: the three
#       verdicts (table#exported) and rows in both the end-to-end and the exporter departures
#       tables, measured by (b) and (c) like the others.
#   html_glance_test.sh SEQCONF CORPUS WORKDIR   a report with departures, the reference on the
#       exported models (exported-reference.html, whether or not ONNX Runtime is installed) and
#       the index page: ONNX Runtime on the SequenceAt corpus and the exported models when it is
#       installed (attribution evidence, end-to-end and exporter departures), else a seeded
#       runtime on the whole corpus
#   html_glance_test.sh --pages PAGE.html...     those pages only
# Exit 77 (ctest SKIP_RETURN_CODE) when chromium is not installed.
set -euo pipefail
chromium_bin="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$chromium_bin" ]]; then
  echo "SKIP: chromium is not installed (Debian package chromium)"
  exit 77
fi
pages=()
if [[ "${1:-}" == "--pages" ]]; then
  shift
  for p in "$@"; do pages+=("$(realpath "$p")"); done
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
else
  seqconf="$(realpath "$1")" corpus="$(realpath "$2")" work="$3"
  rm -rf "$work" && mkdir -p "$work"
  cd "$work"
  # The exporter's departures are judged on the reference: the exported-models section is on
  # this page with or without ONNX Runtime.
  "$seqconf" run --runtime reference --source exported -j 2 --report exported-reference.json \
    --html exported-reference.html >/dev/null || true
  pages+=("$work/exported-reference.html")
  # `seqconf runtimes` lists ONNX Runtime as "unavailable" when its library does not load.
  if "$seqconf" runtimes 2>/dev/null | awk -F'\t' '$1 == "onnxruntime" && $2 != "unavailable" { ok = 1 } END { exit !ok }'; then
    "$seqconf" run --runtime onnxruntime --source corpus --corpus "$corpus" -j 2 \
      --filter 'corpus/SequenceAt/*' --report ort.json --html ort.html >/dev/null || true
    "$seqconf" run --runtime onnxruntime --source exported -j 2 --report exported.json \
      --html exported.html >/dev/null || true
    pages+=("$work/ort.html" "$work/exported.html")
    reports=(ort.json)
  else
    echo "note: ONNX Runtime is not installed: seeded runtimes instead"
    reports=()
  fi
  # Losing an empty tensor's shape departs from the spec in 14 ways over the whole corpus (the
  # index only needs its SequenceAt cases when ONNX Runtime's pages are checked).
  only=()
  [[ ${#reports[@]} -eq 0 ]] || only=(--filter 'corpus/SequenceAt/*')
  "$seqconf" run --runtime seeded=value.empty_tensor_shape_lost --source corpus \
    --corpus "$corpus" -j 2 "${only[@]}" --report seeded.json --html seeded.html >/dev/null || true
  if [[ ${#reports[@]} -eq 0 ]]; then
    pages+=("$work/seeded.html")
    "$seqconf" run --runtime seeded=at.position_of_any_shape --source corpus --corpus "$corpus" \
      -j 2 --filter 'corpus/SequenceAt/*' --report at.json >/dev/null || true
    reports+=(at.json)
  fi
  reports+=(seeded.json)
  "$seqconf" merge "${reports[@]}" --index index.html >/dev/null || true
  pages+=("$work/index.html")
fi

# Measures the page where it is rendered and writes one line per failed check (or "ok ...")
# into <pre id="glance">, which --dump-dom prints.
read -r -d '' measure <<'EOF' || true
<script>
(function () {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth)
    out.push("FAIL (a) the page is " + root.scrollWidth + " px wide, the viewport " +
             root.clientWidth + " px");
  for (const t of document.querySelectorAll("table.departures, table.summary, table.index-summary"))
    if (t.scrollWidth > t.clientWidth + 1)
      out.push("FAIL (a) table " + (t.id || t.className) + " scrolls within itself: " +
               t.scrollWidth + " px in " + t.clientWidth + " px");
  const lineHeight = parseFloat(getComputedStyle(document.body).lineHeight);
  const name = (el) => {
    const row = el.closest("tr");
    const key = row && (row.dataset.departure || row.dataset.runtime || row.dataset.caseId);
    return (el.closest("table") ? "#" + (el.closest("table").id || el.closest("table").className) + " " : "") +
           (key ? "[" + key + "] " : "") + JSON.stringify(el.textContent.trim().slice(0, 60));
  };
  let lines = 0, broken = 0;
  for (const el of document.querySelectorAll("td.n, td.cell, .nb")) {
    if (!(el.checkVisibility ? el.checkVisibility() : el.getClientRects().length)) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set();
    for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    ++lines;
    if (tops.size > 1) {
      ++broken;
      if (broken <= 20) out.push("FAIL (b) on " + tops.size + " lines: " + name(el));
    }
  }
  if (broken > 20) out.push("FAIL (b) ... and " + (broken - 20) + " more on several lines");
  let rows = 0, tall = 0;
  for (const tr of document.querySelectorAll("tr[data-departure]")) {
    const h = tr.getBoundingClientRect().height;
    ++rows;
    if (h > 2 * lineHeight) {
      ++tall;
      if (tall <= 20) out.push("FAIL (c) row " + tr.dataset.departure + " is " + Math.round(h) +
                               " px high, more than two lines (" + Math.round(2 * lineHeight) + " px)");
    }
  }
  if (tall > 20) out.push("FAIL (c) ... and " + (tall - 20) + " more rows too high");
  let exported = "";
  if (window.glanceExported) {
    const verdicts = document.querySelectorAll("table#exported tr[data-verdict]").length;
    const endToEnd = document.querySelectorAll("#end-to-end-departures tr[data-departure]").length;
    const exporter = document.querySelectorAll("#exporter-departures tr[data-departure]").length;
    if (verdicts != 3 || !endToEnd || !exporter)
      out.push("FAIL (d) the exported-models section has " + verdicts + " of 3 verdicts, " +
               endToEnd + " end-to-end and " + exporter + " exporter departure rows");
    exported = "; exported models: " + verdicts + " verdicts, " + endToEnd + " end-to-end and " +
               exporter + " exporter departure rows";
  }
  out.push((out.length ? "measured: " : "ok: ") + root.scrollWidth + " px within " + root.clientWidth + " px; " + lines +
           " numbers and ids, " + broken + " broken; " + rows + " departure rows, " + tall +
           " higher than two lines" + exported);
  const pre = document.createElement("pre");
  pre.id = "glance";
  pre.textContent = out.join("\n");
  document.body.appendChild(pre);
})();
</script>
EOF

status=0
for page in "${pages[@]}"; do
  name="$(basename "$page")"
  [[ -s "$page" ]] || { echo "FAIL: $name was not written"; status=1; continue; }
  measured="$work/glance-$name"
  python3 - "$page" "$measured" "$measure" <<'EOF'
import os
import sys
page, out, script = sys.argv[1:4]
text = open(page, encoding="utf-8").read()
at = text.rfind("</body>")
# (d) applies to the pages named for the exported models.
flag = "<script>window.glanceExported = %s;</script>" % (
    "true" if "exported" in os.path.basename(page) else "false")
open(out, "w", encoding="utf-8").write(text[:at] + flag + script + text[at:])
EOF
  dom="$(timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --window-size=1280,900 --dump-dom "file://$measured" \
    2>/dev/null || true)"
  result="$(python3 -c '
import html, re, sys
m = re.search(r"<pre id=\"glance\">(.*?)</pre>", sys.stdin.read(), re.S)
print(html.unescape(m.group(1)) if m else "FAIL: not measured")' <<<"$dom")"
  while IFS= read -r line; do
    echo "$name at 1280 px: $line"
    [[ "$line" == FAIL* ]] && status=1
  done <<<"$result"
done
exit $status
