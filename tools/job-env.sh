# What the job scripts (main-job.sh, history.sh) share; sourced, not run.
#   build    the build tree ($SEQCONF_BUILD, default build)
#   seqconf  the CLI in it
#   jobs     worker threads per run ($SEQCONF_JOBS, default: number of CPUs, at most 2)
#   corpus   after find_corpus: the committed corpus when present, else one generated afresh
#            into the build tree; empty when generation failed (then only the ONNX backend
#            cases run)
build="${SEQCONF_BUILD:-build}"
seqconf="$build/seqconf"
jobs="${SEQCONF_JOBS:-$(($(nproc) < 2 ? $(nproc) : 2))}"

find_corpus() {
  corpus=fixtures/corpus
  [[ -d "$corpus" ]] && return 0
  corpus="$build/corpus"
  echo "== generating the corpus into $corpus"
  if ! "$seqconf" generate --out "$corpus" --force --quiet; then
    echo "== corpus generation failed; running the ONNX backend cases only" >&2
    corpus=""
  fi
}
