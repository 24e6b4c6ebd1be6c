#!/usr/bin/env bash
# The runs of issue 47's acceptance ("every output unchanged, before vs after"): the sample under
# every preset, the sample through --provider http against `lme serve`, and LoCoMo conv-26 under the
# evidence convention. Run it once with the release before the change and once with the code after
# it, into two folders, then compare them:
#
#   scripts/equivalence-runs.sh "node <repo>/packages/benchmark/bin/lme.js" ../equiv/after
#   node scripts/compare-run-outputs.mjs ../equiv/before ../equiv/after
#
# Arguments: the lme command (one string, split on spaces) and the parent folder of the run folders.
# Environment: LME_EQUIV_MODEL_DIR (default ~/.cache/lme-ci/models, where .ci/run puts them),
# LME_EQUIV_CACHE_DIR (the embedding cache shared by both sides; default <output folder>/../cache),
# LME_EQUIV_LOCOMO (the conv-26 file; default ../shared/datasets/locomo/locomo10-conv26.json beside
# the repository), LME_EQUIV_ONLY (space-separated
# run ids to run, default all). Each run's wall time goes to <out>/times.tsv.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: scripts/equivalence-runs.sh \"<lme command>\" <output folder>" >&2
  exit 2
fi
read -r -a LME <<<"$1"
OUT=$2
MODEL_DIR=${LME_EQUIV_MODEL_DIR:-$HOME/.cache/lme-ci/models}
CACHE_DIR=${LME_EQUIV_CACHE_DIR:-$(dirname "$OUT")/cache}
LOCOMO=${LME_EQUIV_LOCOMO:-$(cd "$(dirname "$0")/.." && pwd)/../shared/datasets/locomo/locomo10-conv26.json}
ONLY=${LME_EQUIV_ONLY:-}

mkdir -p "$OUT" "$CACHE_DIR"
COMMON=(--model-dir "$MODEL_DIR" --cache-dir "$CACHE_DIR" --out "$OUT" --quiet)

wanted() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }

# timed <run id> <lme arguments...>: one run, refused if its folder already exists (a stale run
# would be compared as if it were new).
timed() {
  local id=$1
  shift
  wanted "$id" || return 0
  if [ -e "$OUT/$id" ]; then
    echo "$OUT/$id exists: remove it first" >&2
    exit 1
  fi
  local start end
  start=$(date +%s.%N)
  "${LME[@]}" run "$@" --run-id "$id" "${COMMON[@]}" >"$OUT/$id.stdout" 2>"$OUT/$id.stderr" || {
    echo "$id failed, see $OUT/$id.stderr" >&2
    tail -5 "$OUT/$id.stderr" >&2
    exit 1
  }
  end=$(date +%s.%N)
  printf '%s\t%.1f\n' "$id" "$(echo "$end - $start" | bc)" | tee -a "$OUT/times.tsv"
}

# Every preset of configs/presets/ but those that name a reader model (they need an API key; said,
# not silently left out).
for file in "$(dirname "$0")"/../configs/presets/*.json; do
  preset=$(basename "$file" .json)
  if grep -q '"readerModel"' "$file"; then
    echo "$preset: names a reader model, not run" | tee -a "$OUT/skipped.txt"
    continue
  fi
  timed "$preset" --dataset sample --preset "$preset"
done

# The sample through the HTTP provider against lme's own server (BM25, stemmed words: the bm25
# preset's pipeline), on a free loopback port read from the URL the server prints.
if wanted http-serve; then
  SERVE_LOG="$OUT/http-serve.server.log"
  "${LME[@]}" serve --port 0 --host 127.0.0.1 --retriever bm25 --tokenizer words 2>"$SERVE_LOG" &
  SERVER=$!
  trap 'kill "$SERVER" 2>/dev/null || true' EXIT
  URL=
  for _ in $(seq 1 600); do
    URL=$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$SERVE_LOG" | head -1 || true)
    [ -n "$URL" ] && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$SERVE_LOG" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$URL" ] || { echo "lme serve printed no URL" >&2; exit 1; }
  timed http-serve --dataset sample --provider http --provider-url "$URL"
  kill "$SERVER"
  wait "$SERVER" 2>/dev/null || true
  trap - EXIT
fi

timed conv26-evidence --dataset "$LOCOMO" --convention evidence --preset bm25
