#!/usr/bin/env bash
# The cases of issue 26 ("Hostile inputs and partial runs"), each run once with the lme found in
# the repo given as $1 (default: this one, from source), printing per case the exit code and the
# first line a user sees, plus what changed where it should not have. Loopback only; every loop is
# bounded. Usage: scripts/hostile-cases.sh [repo-dir]   (e.g. a `git archive` of an older commit
# with this repo's node_modules linked in, to compare before and after).
set -u
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lme() { (cd "$repo" && timeout 120 node --import tsx --conditions=source packages/benchmark/src/cli/main.ts "$@"); }
data="$here/datasets"
show() { # case name, exit code, output file
  printf '%-34s exit %-3s %s\n' "$1" "$2" "$(grep -v -e '^\s*$' -e '^QA skipped' -e '^questions' "$3" | head -1 | cut -c1-150)"
}
run_case() { # name, then the command
  local name=$1
  shift
  "$@" >"$work/out" 2>&1
  show "$name" $? "$work/out"
}

lme run --dataset sample --data-dir "$data" --preset bm25-official --out "$work" --run-id base >/dev/null 2>&1

# 1. report writes through a link; run --overwrite into a linked folder.
cp -r "$work/base" "$work/linked"
echo 'original' >"$work/victim"
rm "$work/linked/samples.csv" && ln -s "$work/victim" "$work/linked/samples.csv"
run_case "1 report through a link" lme report "$work/linked"
echo "  victim now: $(head -c 40 "$work/victim" | tr '\n' ' ')"
mkdir -p "$work/elsewhere" "$work/out1" && ln -s "$work/elsewhere" "$work/out1/victim"
run_case "1 run --overwrite into a link" lme run --dataset sample --data-dir "$data" --preset bm25-official \
  --out "$work/out1" --run-id victim --overwrite --limit 1
echo "  files written in the linked-to folder: $(ls "$work/elsewhere" | wc -l)"

# 2. Formula cells.
run_case "2 --label =HYPERLINK" lme run --dataset sample --data-dir "$data" --preset bm25-official --out "$work" \
  --run-id label --limit 2 --label '=HYPERLINK("http://evil.example","x")'
echo "  summary.csv label cell: $(sed -n 2p "$work/label/summary.csv" | awk -F, '{print $7","$8}')"

# 3. --max-cost with a server that reports no usage.
node -e '
const http = require("http");
http.createServer((q, s) => { q.resume(); q.on("end", () => { s.writeHead(200, {"content-type": "application/json"});
  s.end(JSON.stringify({id: "x", object: "chat.completion", created: 0, model: "m",
    choices: [{index: 0, message: {role: "assistant", content: "Yes."}, finish_reason: "stop"}]})); }); })
  .listen(0, "127.0.0.1", function () { console.log(this.address().port); });
' >"$work/port" &
server=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
OPENAI_API_KEY=sk-test OPENAI_BASE_URL="http://127.0.0.1:$port/v1" run_case "3 --max-cost, no usage" \
  lme run --dataset sample --data-dir "$data" --preset bm25-official --out "$work" --run-id cost --limit 4 \
  --reader-model gpt-4o-mini --no-cache --max-cost 1
run_case "3 gate of that run" lme gate "$work/cost" --min 'session.recall_any@5>=0'
kill "$server"

# 6. A full disk (needs root to mount a small tmpfs).
mkdir -p "$work/disk"
if mount -t tmpfs -o size=64k tmpfs "$work/disk" 2>/dev/null; then
  run_case "6 ENOSPC mid-run" lme run --dataset sample --data-dir "$data" --preset bm25-official --out "$work/disk" --run-id full
  echo "  lock left: $([ -e "$work/disk/full/.lme-run.lock" ] && echo yes || echo no)"
  umount "$work/disk"
fi

# 7. An output over an input.
cp -r "$work/base" "$work/seven"
run_case "7 report --html --out samples.jsonl" lme report --html "$work/seven" --out "$work/seven/samples.jsonl"
echo "  samples.jsonl unchanged: $(cmp -s "$work/base/samples.jsonl" "$work/seven/samples.jsonl" && echo yes || echo no)"

# 9. Terminal controls in a question id.
cp -r "$work/base" "$work/escapes"
node -e '
const fs = require("fs"); const p = process.argv[1]; const lines = fs.readFileSync(p, "utf8").trim().split("\n");
const first = JSON.parse(lines[0]); first.hits[0].session_id = "s\u001b]0;owned\u0007\u001b[2J"; lines[0] = JSON.stringify(first);
fs.writeFileSync(p, lines.join("\n") + "\n"); console.log(first.question_id);' "$work/escapes/samples.jsonl" >"$work/qid"
lme explain "$work/escapes" "$(cat "$work/qid")" >"$work/out" 2>&1
echo "9 explain, ESC bytes on stdout:      $(tr -cd '\033' <"$work/out" | wc -c)"

# 12. gate with nothing to check.
run_case "12 gate with nothing to check" lme gate "$work/base"

# 12. A cache folder lme cannot write: a file where the embedding cache's folder goes.
mkdir -p "$work/cache-embed" && echo 'not a folder' >"$work/cache-embed/embeddings"
lme run --dataset sample --data-dir "$data" --preset hybrid --embedder local:use-lite --out "$work" \
  --run-id badcache --limit 1 --cache-dir "$work/cache-embed" >"$work/out" 2>&1
echo "12 embedding cache not a folder    exit $?   $(grep -m1 -e 'questions failed; first' -e '^lme:' "$work/out" | cut -c1-260)"

# 12. Bytes that are not UTF-8 in a dataset file.
node -e '
const fs = require("fs"), zlib = require("zlib");
const text = zlib.gunzipSync(fs.readFileSync(process.argv[1]));
const match = /"question":\s*"/.exec(text.toString("latin1"));
text[match.index + match[0].length] = 0xff; fs.writeFileSync(process.argv[2], text);
' "$data/sample/longmemeval_s_sample.json.gz" "$work/latin1.json"
run_case "12 a non-UTF-8 byte in a dataset" lme run --dataset "$work/latin1.json" --preset bm25-official \
  --out "$work" --run-id latin1

# 12. An evidence-convention gold session absent from its haystack.
node -e '
const fs = require("fs"), zlib = require("zlib");
const records = JSON.parse(zlib.gunzipSync(fs.readFileSync(process.argv[1]))).slice(0, 2);
records[0].answer_session_ids.push("ghost_session"); fs.writeFileSync(process.argv[2], JSON.stringify(records));
' "$data/sample/longmemeval_s_sample.json.gz" "$work/ghost.json"
lme run --dataset "$work/ghost.json" --preset bm25-official --convention evidence --out "$work" \
  --run-id ghost >"$work/out" 2>&1
echo "12 gold absent from the haystack    exit $?   $(grep -m1 -e 'missing from the haystack' "$work/out" || echo '(nothing said)')"

# 12 and 13. Two loopback servers of the same model: the cache one filled serves the other; an LLM
# cache folder that cannot be written.
start_server() { # answer text, port file
  node -e '
const http = require("http"); const text = process.argv[1];
http.createServer((q, s) => { q.resume(); q.on("end", () => { s.writeHead(200, {"content-type": "application/json"});
  s.end(JSON.stringify({id: "x", object: "chat.completion", created: 0, model: "m",
    choices: [{index: 0, message: {role: "assistant", content: text}, finish_reason: "stop"}],
    usage: {prompt_tokens: 100, completion_tokens: 5, total_tokens: 105}})); }); })
  .listen(0, "127.0.0.1", function () { console.log(this.address().port); });
' "$1" >"$2" &
}
start_server 'Yes.' "$work/port-a"
server_a=$!
start_server 'No.' "$work/port-b"
server_b=$!
for _ in $(seq 50); do [ -s "$work/port-a" ] && [ -s "$work/port-b" ] && break; sleep 0.1; done
qa() { # base URL, run id, cache dir
  OPENAI_API_KEY=sk-test OPENAI_BASE_URL="$1" lme run --dataset sample --data-dir "$data" --preset bm25-official \
    --out "$work" --run-id "$2" --limit 2 --reader-model gpt-4o-mini --cache-dir "$3"
}
qa "http://127.0.0.1:$(cat "$work/port-a")/v1" endpoint-a "$work/llmcache" >/dev/null 2>&1
qa "http://127.0.0.1:$(cat "$work/port-b")/v1" endpoint-b "$work/llmcache" >"$work/out" 2>&1
echo "13 second endpoint, same cache      exit $?   $(grep -m1 '^spend:' "$work/out" | sed 's/.*total/total/')"
mkdir -p "$work/cache-llm" && echo 'not a folder' >"$work/cache-llm/llm"
qa "http://127.0.0.1:$(cat "$work/port-a")/v1" rocache "$work/cache-llm" >"$work/out" 2>&1
echo "12 LLM cache cannot be written      exit $?   $(grep -m1 -e 'LLM cache' "$work/out" || echo '(nothing said)')"
kill "$server_a" "$server_b"

# Issue 36, items 8-12: --vector-store qdrant against the loopback Qdrant stand-in
# (scripts/fake-qdrant-server.ts speaks Qdrant's REST shapes; no real server runs here).
start_qdrant() { # port file, then fake-qdrant-server flags
  local file=$1
  shift
  (cd "$here" && exec node --import tsx --conditions=source scripts/fake-qdrant-server.ts "$@") >"$file" &
}
wait_for() { for _ in $(seq 100); do [ -s "$1" ] && break; sleep 0.1; done; }
dense() { # run id, then more flags
  local id=$1
  shift
  lme run --dataset sample --data-dir "$data" --preset hybrid --embedder local:use-lite --vector-store qdrant \
    --out "$work" --run-id "$id" --limit 2 "$@"
}
start_qdrant "$work/q-short" --short-reply
q_short=$!
start_qdrant "$work/q-drop" --fail-drop --fail-search
q_drop=$!
start_qdrant "$work/q-old" --version 1.17.1
q_old=$!
start_qdrant "$work/q-ok"
q_ok=$!
wait_for "$work/q-short" && wait_for "$work/q-drop" && wait_for "$work/q-old" && wait_for "$work/q-ok"

# 8. A search answered with part of the points asked for (Qdrant 1.18.0 mid-optimisation).
QDRANT_URL=$(cat "$work/q-short") dense short >"$work/out" 2>&1
echo "36.8 short search reply            exit $?   $(grep -m1 -o 'first: .*' "$work/out" | cut -c1-200)"
# 9. Every search fails and the collection cannot be dropped: the outcome is still exit 2.
QDRANT_URL=$(cat "$work/q-drop") dense dropfails >"$work/out" 2>&1
echo "36.9 drop fails after the run      exit $?   results: $(grep -c -e 'results:' -e 'rerun with --resume' "$work/out") lines; $(grep -m1 -o 'closing the provider failed.*' "$work/out" | cut -c1-160)"
# 10 and 11. A run killed mid-way leaves its collection (lme-<time>-<random>); list it, remove it.
# (SIGKILL once its collection exists stands for a crash: no finally runs; bounded at 120 s.)
(cd "$repo" && QDRANT_URL=$(cat "$work/q-ok") exec node --import tsx --conditions=source \
  packages/benchmark/src/cli/main.ts run --dataset sample --data-dir "$data" --preset hybrid \
  --embedder local:use-lite --vector-store qdrant --out "$work" --run-id killed) >/dev/null 2>&1 &
crashing=$!
for _ in $(seq 240); do
  node -e 'fetch(process.argv[1] + "/collections").then((r) => r.json())
    .then((b) => process.exit(b.result.collections.some((c) => c.name.startsWith("lme-")) ? 0 : 1), () => process.exit(1))' \
    "$(cat "$work/q-ok")" && break
  sleep 0.5
done
kill -KILL "$crashing"
wait "$crashing" 2>/dev/null
QDRANT_URL=$(cat "$work/q-ok") lme qdrant collections >"$work/out" 2>&1
echo "36.10 left behind, listed          exit $?   $(grep -m1 -o 'lme-[0-9]*-[0-9a-f]*' "$work/out" || echo '(none listed)')"
QDRANT_URL=$(cat "$work/q-ok") lme qdrant collections --remove >"$work/out" 2>&1
echo "36.10 --remove                     exit $?   $(head -1 "$work/out")"
# 12. A server that is down, and one too old: stopped in preflight, before any embedding.
dead=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
QDRANT_URL="http://127.0.0.1:$dead" run_case "36.12 QDRANT_URL down" dense down
QDRANT_URL=$(cat "$work/q-old") run_case "36.12 Qdrant 1.17.1" dense old
kill "$q_short" "$q_drop" "$q_old" "$q_ok"
