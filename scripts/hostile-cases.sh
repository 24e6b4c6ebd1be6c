#!/usr/bin/env bash
# The cases of issue 26 ("Hostile inputs and partial runs") and issue 36 (a probe of new classes:
# config files, the model store, lme serve, errata, the servers lme calls), each run once with the lme found in
# the repo given as $1 (default: this one, from source), printing per case the exit code and the
# first line a user sees, plus what changed where it should not have. Loopback only; every loop is
# bounded. HOSTILE_ONLY=36 runs the issue 36 cases only. Usage: scripts/hostile-cases.sh [repo-dir]   (e.g. a `git archive` of an older commit
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

if [ "${HOSTILE_ONLY:-}" != 36 ]; then
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

fi

# ---- Issue 36 ----
# What a user reads first: lme's own sentence (not a warning), else the run's failure line.
said() {
  local line
  line=$(grep -E -e '^lme: ' -e 'questions failed; first' "$1" | grep -v '^lme: warning' | head -1)
  [ -n "$line" ] || line=$(grep -v -e '^\s*$' "$1" | head -1)
  printf '%s' "$line" | cut -c1-170
}
case36() { # name, then the command
  local name=$1
  shift
  "$@" >"$work/out" 2>&1
  printf '%-38s exit %-3s %s\n' "$name" $? "$(said "$work/out")"
}
# 1. A --config file of 100k keys (989 KB of YAML): seconds spent before it is refused.
node -e 'let s = ""; for (let i = 0; i < 100000; i++) s += `k${i}: 1\n`; require("fs").writeFileSync(process.argv[1], s);' "$work/many.yaml"
started=$(date +%s)
lme run --dataset sample --data-dir "$data" --config "$work/many.yaml" --out "$work" --run-id many >"$work/out" 2>&1
code=$?
printf '%-38s exit %-3s %s s; %s\n' "36.1 --config of 100k keys" "$code" "$(($(date +%s) - started))" "$(said "$work/out" | cut -c1-110)"

# 2. --config /dev/zero, under a 2 GB data limit (without the fix it grows until refused memory).
(ulimit -d 2000000; case36 "36.2 --config /dev/zero" lme run --dataset sample --data-dir "$data" --config /dev/zero --out "$work" --run-id zero)

# 3. A non-UTF-8 byte in a --config and a --preset file.
printf 'preset: bm25-official\nlabel: caf\xe9\n' >"$work/latin1.yaml"
printf '{"config": {"retriever": "bm25", "label": "caf\xe9"}}' >"$work/latin1-preset.json"
case36 "36.3 non-UTF-8 --config" lme run --dataset sample --data-dir "$data" --config "$work/latin1.yaml" \
  --out "$work" --run-id latin1-config --limit 1
echo "  label in summary.csv: $(sed -n 2p "$work/latin1-config/summary.csv" 2>/dev/null | grep -o 'caf[^,]*' || echo '(no run)')"
case36 "36.3 non-UTF-8 --preset <path>" lme run --dataset sample --data-dir "$data" --preset "$work/latin1-preset.json" \
  --out "$work" --run-id latin1-preset --limit 1

# 4. Two fetches of one model at once into one empty cache, from a loopback hub serving the model
#    files in pieces (so the two overlap).
node -e '
const http = require("http"), fs = require("fs"), path = require("path"); const root = process.argv[1];
http.createServer((q, s) => { const m = /^\/(.+)\/resolve\/([^/]+)\/(.+)$/.exec(q.url);
  const file = m && path.join(root, m[1], m[2], m[3]);
  if (!file || !fs.existsSync(file)) { s.writeHead(404); s.end(); return; }
  const bytes = fs.readFileSync(file); s.writeHead(200, {"content-length": bytes.length}); let at = 0;
  const next = () => { if (at >= bytes.length) return s.end(); s.write(bytes.subarray(at, at += 1 << 17), () => setTimeout(next, 20)); }; next(); })
  .listen(0, "127.0.0.1", function () { console.log(this.address().port); });
' "${LME_MODELS:-$HOME/.cache/lme-ci/models}" >"$work/port-hub" &
hub=$!
for _ in $(seq 50); do [ -s "$work/port-hub" ] && break; sleep 0.1; done
fetch_model() { lme models fetch Xenova/all-MiniLM-L6-v2 --from hub --hub-url "http://127.0.0.1:$(cat "$work/port-hub")" --cache-dir "$work/cache-fetch" >"$work/fetch-$1" 2>&1; echo $? >"$work/fetch-$1.code"; }
fetch_model a & first=$!
fetch_model b & second=$!
wait "$first" "$second"
echo "36.4 two fetches of one model         exits $(cat "$work/fetch-a.code") and $(cat "$work/fetch-b.code")   $(grep -h -m1 -e '^lme: Could not' "$work/fetch-a" "$work/fetch-b" | head -1 | cut -c1-170)"
echo "  files in the store: $(find "$work/cache-fetch" -type f 2>/dev/null | sed "s|$work/cache-fetch/||" | sort | tr '\n' ' ')"
kill "$hub"

# 5 and 6. lme serve: 20 clients that reset, ingest, search and reset (--max-namespaces 2) beside a
#    live namespace; four idle connections declaring 1 MB each (--max-memory-mb 4) beside an ingest.
serve_case() { # serve flags..., then a node script run with the server's URL
  local script=$1
  shift
  : >"$work/serve-log"
  (cd "$repo" && exec timeout 120 node --import tsx --conditions=source packages/benchmark/src/cli/main.ts serve --port 0 "$@") >"$work/serve-log" 2>&1 &
  local served=$!
  for _ in $(seq 300); do grep -a -q 'listening on http' "$work/serve-log" && break; sleep 0.1; done
  node -e "$script" "$(grep -a -o 'http://[0-9.:]*' "$work/serve-log" | head -1)"
  kill "$served" 2>/dev/null
}
serve_case '
const url = process.argv[1]; const post = (path, body) => fetch(url + path, {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
const session = (text) => [{session_id: "s1", date: "2023/05/30 (Tue) 23:40", turns: [{role: "user", content: text, turn_index: 0}]}];
(async () => { await post("/v1/reset", {namespace: "live"}); await post("/v1/ingest", {namespace: "live", sessions: session("the live one")});
  for (let i = 0; i < 20; i++) { const namespace = "client-" + i; await post("/v1/reset", {namespace});
    await post("/v1/ingest", {namespace, sessions: session("client")}); await post("/v1/search", {namespace, query: "client", top_k: 1}); await post("/v1/reset", {namespace}); }
  const live = await post("/v1/search", {namespace: "live", query: "live", top_k: 1});
  console.log("36.5 serve: live namespace after 20 clients  HTTP " + live.status); })();
' --max-namespaces 2
serve_case '
const url = new URL(process.argv[1]); const net = require("net");
const idle = [1, 2, 3, 4].map(() => { const socket = net.connect(Number(url.port), url.hostname);
  socket.write("POST /v1/ingest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n"); return socket; });
setTimeout(async () => {
  const ingest = await fetch(url + "v1/ingest", {method: "POST", headers: {"content-type": "application/json"},
    body: JSON.stringify({namespace: "a", sessions: [{session_id: "s1", date: "2023/05/30 (Tue) 23:40", turns: [{role: "user", content: "hello", turn_index: 0}]}]})});
  console.log("36.6 serve: ingest beside 4 idle 1 MB declarations  HTTP " + ingest.status + " " + (await ingest.text()).slice(0, 110));
  idle.forEach((socket) => socket.destroy()); }, 500);
' --max-memory-mb 4

# 7. Errata over the sample: gold moved to a session not in the haystack (official convention), an
#    entry for a question the file lacks, and a 2 MB errata file.
node -e '
const fs = require("fs"), zlib = require("zlib"), crypto = require("crypto");
const text = zlib.gunzipSync(fs.readFileSync(process.argv[1])); const records = JSON.parse(text);
const sha256 = crypto.createHash("sha256").update(text).digest("hex");
const provenance = {source: "a hostile case of lme", verified: "written by scripts/hostile-cases.sh"};
const errata = (entries) => JSON.stringify({name: "hostile", version: 1, dataset: "sample", checksum: "SHA-256 of the JSON text",
  files: [{sha256, note: "the sample"}], entries});
const target = records.find((record) => record.answer_session_ids.length > 0);
fs.writeFileSync(process.argv[2] + "/errata-ghost.json", errata([{question_id: target.question_id, kind: "evidence",
  field: "answer_session_ids", published: target.answer_session_ids, corrected: ["ghost_session"], ...provenance}]));
fs.writeFileSync(process.argv[2] + "/errata-unknown.json", errata([{question_id: "no-such-question", kind: "gold-answer",
  field: "answer", published: "a", corrected: "b", ...provenance}]));
fs.writeFileSync(process.argv[2] + "/errata-big.json", errata([]).replace("\"hostile\"", JSON.stringify("x".repeat(2 << 20))));
fs.writeFileSync(process.argv[2] + "/ghost-qid", target.question_id);
' "$data/sample/longmemeval_s_sample.json.gz" "$work"
lme run --dataset sample --data-dir "$data" --preset bm25-official --out "$work" --run-id errata-ghost \
  --errata "$work/errata-ghost.json" >"$work/out" 2>&1
code=$?
printf '%-38s exit %-3s %s\n' "36.7 errata: gold outside haystack" "$code" "$(said "$work/out")"
qid=$(cat "$work/ghost-qid")
sample=$(grep -h "\"question_id\":\"$qid\"" "$work"/errata-ghost*/samples.jsonl 2>/dev/null | grep -o -E '"(session\.recall_all@5|error)":("[^"]{0,60}|[0-9.]+)' | tr '\n' ' ')
echo "  its sample: ${sample:-(not scored)}"
case36 "36.7 errata: unknown question id" lme run --dataset sample --data-dir "$data" --preset bm25-official \
  --out "$work" --run-id errata-unknown --errata "$work/errata-unknown.json" --limit 1
case36 "36.7 errata: a 2 MB file" lme run --dataset sample --data-dir "$data" --preset bm25-official \
  --out "$work" --run-id errata-big --errata "$work/errata-big.json" --limit 1

# Weak cases of issue 36.
printf 'preset: bm25-official\nlabel: !!js/function "function () {}"\n' >"$work/tag.yaml"
case36 "36 weak: !!js/function tag" lme run --dataset sample --data-dir "$data" --config "$work/tag.yaml" \
  --out "$work" --run-id tag --limit 1
printf 'preset: bm25-official\ntopK: ten\n' >"$work/type.yaml"
case36 "36 weak: a wrong type in --config" lme run --dataset sample --data-dir "$data" --config "$work/type.yaml" \
  --out "$work" --run-id type --limit 1
node -e 'require("fs").writeFileSync(process.argv[1], "label: " + "[".repeat(100000) + "]".repeat(100000) + "\n")' "$work/deep.yaml"
case36 "36 weak: 100k-deep nesting" lme run --dataset sample --data-dir "$data" --config "$work/deep.yaml" \
  --out "$work" --run-id deep --limit 1
if [ -d "${LME_MODELS:-$HOME/.cache/lme-ci/models}/Xenova/bge-small-en-v1.5" ]; then
  mkdir -p "$work/models" && cp -r "${LME_MODELS:-$HOME/.cache/lme-ci/models}/Xenova" "$work/models/"
  onnx=$(ls "$work"/models/Xenova/bge-small-en-v1.5/*/onnx/model_quantized.onnx)
  printf '\xff\xff\xff\xff' | dd of="$onnx" bs=1 seek=1000 conv=notrunc 2>/dev/null
  case36 "36 weak: corrupted --model-dir ONNX" lme run --dataset sample --data-dir "$data" --preset hybrid \
    --model-dir "$work/models" --out "$work" --run-id corrupt --limit 2 --no-cache
fi
mkdir -p "$work/ro"
if mount -t tmpfs -o size=64k,ro tmpfs "$work/ro" 2>/dev/null; then
  LME_HUB_URL=http://127.0.0.1:9 case36 "36 weak: read-only --cache-dir, no model" lme run --dataset sample --data-dir "$data" \
    --preset hybrid --out "$work" --run-id rostore --limit 1 --cache-dir "$work/ro" --no-cache
  umount "$work/ro"
fi
# A provider that answers health but 503 to everything else with retry-after 1 (the 30 s cap a
# wait and the 10 min cap of all waits are held by json-client.test.ts with a fake clock), and
# one that redirects every request to another host.
node -e '
const http = require("http");
http.createServer((q, s) => { q.resume(); q.on("end", () => { s.setHeader("content-type", "application/json");
  if (q.url === "/v1/health") { s.end(JSON.stringify({status: "ok"})); return; }
  s.writeHead(503, {"retry-after": "1"}); s.end("{}"); }); })
  .listen(0, "127.0.0.1", function () { console.log(this.address().port); });
' >"$work/port-retry" &
retry_server=$!
node -e '
const http = require("http"); let other = 0;
const elsewhere = http.createServer((q, s) => { other++; q.resume(); s.setHeader("content-type", "application/json");
  s.end(q.url === "/v1/health" ? JSON.stringify({status: "ok"}) : q.url === "/v1/search" ? JSON.stringify({hits: []}) : "{}"); })
  .listen(0, "127.0.0.1", () => {
  const target = "http://127.0.0.1:" + elsewhere.address().port;
  http.createServer((q, s) => { q.resume(); q.on("end", () => {
    if (q.url.startsWith("/count")) { s.end(String(other)); return; }
    s.writeHead(307, {location: target + q.url + "?key=leaked"}); s.end(); }); })
    .listen(0, "127.0.0.1", function () { console.log(this.address().port); }); });
' >"$work/port-redirect" &
redirect_server=$!
for _ in $(seq 50); do [ -s "$work/port-retry" ] && [ -s "$work/port-redirect" ] && break; sleep 0.1; done
started=$(date +%s)
lme run --dataset sample --data-dir "$data" --provider http --provider-url "http://127.0.0.1:$(cat "$work/port-retry")" \
  --provider-retries 3 --out "$work" --run-id retry-after >"$work/out" 2>&1
code=$?
printf '%-38s exit %-3s %s s; %s\n' "36 weak: 503 retry-after 1, 22 q" "$code" "$(($(date +%s) - started))" "$(said "$work/out" | cut -c1-130)"
echo "  questions whose error says lme stopped calling it: $(grep -c 'stopped calling it' "$work/retry-after/samples.jsonl" 2>/dev/null)"
case36 "36 weak: provider redirect" lme run --dataset sample --data-dir "$data" --provider http \
  --provider-url "http://127.0.0.1:$(cat "$work/port-redirect")" --out "$work" --run-id redirect --limit 1
echo "  requests that reached the other host: $(curl -s "http://127.0.0.1:$(cat "$work/port-redirect")/count")"
kill "$retry_server" "$redirect_server"
node -e '
const fs = require("fs"), zlib = require("zlib");
const records = JSON.parse(zlib.gunzipSync(fs.readFileSync(process.argv[1]))).slice(0, 2);
records[1].question = " "; fs.writeFileSync(process.argv[2], JSON.stringify(records));
' "$data/sample/longmemeval_s_sample.json.gz" "$work/blank.json"
case36 "36 weak: a blank question" lme run --dataset "$work/blank.json" --preset bm25-official --out "$work" --run-id blank
node -e '
const fs = require("fs"); const value = JSON.parse(fs.readFileSync(process.argv[1]));
const conversations = Array.isArray(value) ? value : [value]; delete conversations[0].conversation;
fs.writeFileSync(process.argv[2], JSON.stringify(conversations));
' "$data/fixtures/locomo-mini.json" "$work/noconversation.json"
case36 "36 weak: LoCoMo without conversation" lme run --dataset "$work/noconversation.json" --preset bm25-official \
  --convention evidence --out "$work" --run-id noconv

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
# 13. Upserts over gRPC (QDRANT_GRPC_URL) at a port nothing serves: stopped in preflight too.
QDRANT_URL=$(cat "$work/q-ok") QDRANT_GRPC_URL="http://127.0.0.1:$dead" run_case "36.13 QDRANT_GRPC_URL down" dense grpcdown
kill "$q_short" "$q_drop" "$q_old" "$q_ok"

# Issue 50, the input, loader and network half (H2, H3, H4, H7, H8, H9 bounds; issue 52 item 4).
# Each case prints its exit code, seconds and the first line a user sees. HOSTILE_ONLY=50 runs these only.
if [ -z "${HOSTILE_ONLY:-}" ] || [ "${HOSTILE_ONLY}" = 50 ]; then
timed() { # name, then the command: exit code, seconds and the first line
  local name=$1 started code
  shift
  started=$(date +%s.%N)
  "$@" >"$work/out" 2>&1
  code=$?
  printf '%-38s exit %-3s %5.1f s  %s\n' "$name" "$code" "$(echo "$(date +%s.%N) - $started" | bc)" \
    "$(grep -v -e '^\s*$' -e '^read ' "$work/out" | head -1 | cut -c1-150)"
}
beam_tier() { # a fresh copy of the stand-in BEAM tier; prints its path
  local dir
  dir=$(mktemp -d "$work/beam-XXXX")
  cp -r "$here/packages/benchmark/src/benchmarks/beam/fixtures/tier/." "$dir/"
  echo "$dir"
}
beam_run() { lme run --dataset "$1" --retriever bm25 --out "$work" --run-id "beam-$RANDOM" --overwrite; }
# H2: chat.json as a FIFO, a link to /dev/zero, 600 MB and 1.9 GB (sparse), a 0xE9 byte, a 70 MB message.
t=$(beam_tier); rm "$t/2/chat.json"; mkfifo "$t/2/chat.json"
timed "50.H2 chat.json a FIFO" beam_run "$t"
t=$(beam_tier); rm "$t/2/chat.json"; ln -s /dev/zero "$t/2/chat.json"
timed "50.H2 chat.json -> /dev/zero" beam_run "$t"
for size in 600M 1900M; do
  t=$(beam_tier); truncate -s "$size" "$t/2/chat.json"
  timed "50.H2 chat.json of $size" beam_run "$t"
done
t=$(beam_tier); sed -i 's/sourdough/\xe9ourdough/' "$t/2/chat.json"
timed "50.H2 a 0xE9 byte" beam_run "$t"
t=$(beam_tier)
node -e 'const fs = require("fs"); const v = JSON.parse(fs.readFileSync(process.argv[1]));
v[0].turns[1][0].content = "x".repeat(70 * 1024 * 1024); fs.writeFileSync(process.argv[1], JSON.stringify(v));' "$t/2/chat.json"
timed "50.H2 a 70 MB message" beam_run "$t"
rm -rf "$t"
# H8: gold ids "0", 0.5, null, true (lme run prints the loader's warning); a folder 1_abs; chat.json []; links
# beside the conversations; a 100k-deep source_chat_ids.
t=$(beam_tier)
node -e 'const fs = require("fs"); const v = JSON.parse(fs.readFileSync(process.argv[1]));
v.information_extraction[0].source_chat_ids = ["0", 0.5, null, true]; fs.writeFileSync(process.argv[1], JSON.stringify(v));' \
  "$t/2/probing_questions/probing_questions.json"
beam_run "$t" >"$work/out" 2>&1
echo "50.H8 gold ids \"0\" 0.5 null true    exit $?   $(grep -m1 'source_chat_ids' "$work/out" | cut -c1-170)"
t=$(beam_tier); mv "$t/1" "$t/1_abs"
lme run --dataset "$t" --retriever bm25 --out "$work" --run-id abs --overwrite >/dev/null 2>&1
echo "50.H8 a folder named 1_abs          abstention questions: $(grep -c '"abstention":true' "$work/abs/samples.jsonl" 2>/dev/null) of $(wc -l <"$work/abs/samples.jsonl" 2>/dev/null) (1 is the abstention ability's)"
t=$(beam_tier); echo '[]' >"$t/2/chat.json"
timed "50.H8 chat.json holding []" beam_run "$t"
t=$(beam_tier); ln -s . "$t/dot"; ln -s / "$t/root"; ln -s "$t/loop-b" "$t/loop-a"; ln -s "$t/loop-a" "$t/loop-b"
truncate -s 8G "$t/unrelated.bin"
timed "50.H8 links and an 8 GB file beside" beam_run "$t"
rm -f "$t/unrelated.bin"
t=$(beam_tier)
node -e 'const fs = require("fs"); const p = process.argv[1]; const deep = "[".repeat(100000) + "0" + "]".repeat(100000);
fs.writeFileSync(p, fs.readFileSync(p, "utf8").replace("[0, 42]", deep));' "$t/2/probing_questions/probing_questions.json"
timed "50.H8 100k-deep source_chat_ids" beam_run "$t"
# H7: LoCoMo-Plus items.
for change in '{"time_gap": "99999999999 years later"}' '{"cue_dialogue": ""}' '{"trigger_query": "  "}'; do
  plus=$(mktemp -d "$work/plus-XXXX")
  cp "$data/fixtures/locomo-mini.json" "$plus/locomo10.json"
  node -e 'const item = {relation_type: "causal", cue_dialogue: "A: I started the cello.", trigger_query: "A: The neighbours complain.",
    time_gap: "two months later"}; require("fs").writeFileSync(process.argv[1], JSON.stringify([{...item, ...JSON.parse(process.argv[2])}]));' \
    "$plus/locomo_plus.json" "$change"
  timed "50.H7 $change" lme run --dataset "$plus/locomo_plus.json" --retriever bm25 --out "$work" --run-id plus --overwrite
done
# H3: a .part that is a link, a target that is a FIFO or /dev/zero, a server that never answers (lme's own
# 30 s connect timeout, not undici's 300 s), and BEAM with no route to raw GitHub (issue 52 item 4).
node -e 'require("net").createServer(() => {}).listen(0, "127.0.0.1", function () { console.log(this.address().port); })' \
  >"$work/port-silent" &
silent=$!
for _ in $(seq 50); do [ -s "$work/port-silent" ] && break; sleep 0.1; done
raw="http://127.0.0.1:$(cat "$work/port-silent")"
dd="$work/dd-part"; mkdir -p "$dd/beam/chats/100K/1"; echo kept >"$work/victim-part"
ln -s "$work/victim-part" "$dd/beam/chats/100K/1/chat.json.part"
timed "50.H3 .part is a link" lme datasets download beam-100k --data-dir "$dd" --github-raw-url "$raw"
echo "  the linked-to file: $(cat "$work/victim-part")"
dd="$work/dd-fifo"; mkdir -p "$dd/beam/chats/100K/1"; mkfifo "$dd/beam/chats/100K/1/chat.json"
timed "50.H3 target a FIFO" lme datasets download beam-100k --data-dir "$dd" --github-raw-url "$raw"
dd="$work/dd-zero"; mkdir -p "$dd/beam/chats/100K/1"; ln -s /dev/zero "$dd/beam/chats/100K/1/chat.json"
timed "50.H3 target -> /dev/zero" lme datasets download beam-100k --data-dir "$dd" --github-raw-url "$raw"
timed "50.H3 a server that never answers" lme datasets download beam-100k --data-dir "$work/dd-silent" --github-raw-url "$raw"
kill "$silent"
nothing=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
timed "52.4 beam-100k with no route" lme datasets download beam-100k --data-dir "$work/dd-none" \
  --github-raw-url "http://127.0.0.1:$nothing"
echo "  left behind: $(find "$work/dd-none" 2>/dev/null | wc -l) paths"
# H4: a reader that answers 429 Retry-After 99999; one SIGTERM once the run is under way.
node -e '
const http = require("http");
http.createServer((q, s) => { q.resume(); q.on("end", () => { s.writeHead(429, {"content-type": "application/json",
  "retry-after": "99999"}); s.end(JSON.stringify({error: {message: "busy"}})); }); })
  .listen(0, "127.0.0.1", function () { console.log(this.address().port); });
' >"$work/port-busy" &
busy=$!
for _ in $(seq 50); do [ -s "$work/port-busy" ] && break; sleep 0.1; done
(cd "$repo" && OPENAI_API_KEY=sk-test OPENAI_BASE_URL="http://127.0.0.1:$(cat "$work/port-busy")/v1" exec timeout 300 node \
  --import tsx --conditions=source packages/benchmark/src/cli/main.ts run --dataset sample --data-dir "$data" \
  --preset bm25-official --out "$work" --run-id busy --limit 2 --reader-model gpt-4o-mini --no-cache) >"$work/out-busy" 2>&1 &
runner=$!
for _ in $(seq 600); do grep -q '^read ' "$work/out-busy" 2>/dev/null && break; sleep 0.1; done
sleep 3
kill -TERM "$runner"
started=$(date +%s.%N)
wait "$runner"
code=$?
printf '%-38s exit %-3s ended %.1f s after one SIGTERM  %s\n' "50.H4 Retry-After 99999, SIGTERM" "$code" \
  "$(echo "$(date +%s.%N) - $started" | bc)" "$(grep -m1 'Run interrupted' "$work/out-busy" | cut -c1-90)"
kill "$busy"
# H9: --embed-threads 64 with use-lite; lme serve given a non-UTF-8 body and date "yesterday"; a TLS gRPC URL
# at a plain-text port.
timed "50.H9 --embed-threads 64 use-lite" lme run --dataset sample --data-dir "$data" --preset hybrid \
  --embedder local:use-lite --embed-threads 64 --out "$work" --run-id threads --limit 1
(cd "$repo" && exec node --import tsx --conditions=source packages/benchmark/src/cli/main.ts serve --port 0) \
  >"$work/serve-out" 2>"$work/serve-err" &
served=$!
for _ in $(seq 300); do grep -q 'listening on' "$work/serve-err" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.:]*' "$work/serve-err" | head -1)
printf '{"namespace":"n","sessions":[{"session_id":"s","date":"2023/05/30 (Tue) 23:40","turns":[{"role":"user","content":"caf\xe9","turn_index":0}]}]}' \
  >"$work/latin1.json"
echo "50.H9 serve: a 0xE9 byte              $(curl -s -H 'content-type: application/json' --data-binary @"$work/latin1.json" "$url/v1/ingest" | cut -c1-140)"
echo "50.H9 serve: date \"yesterday\"         $(curl -s -H 'content-type: application/json' \
  -d '{"namespace":"n","sessions":[{"session_id":"s","date":"yesterday","turns":[]}]}' "$url/v1/ingest" | cut -c1-140)"
echo "50.H9 serve: /v1/health memory        $(curl -s "$url/v1/health" | grep -o '"memory_mb.*')"
kill "$served"
tls=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
node -e 'require("net").createServer((c) => c.once("data", () => c.end("HTTP/1.1 400 Bad Request\r\n\r\n"))).listen(+process.argv[1], "127.0.0.1")' \
  "$tls" &
plain=$!
sleep 0.5
start_qdrant "$work/q-tls"
q_tls=$!
wait_for "$work/q-tls"
QDRANT_URL=$(cat "$work/q-tls") QDRANT_GRPC_URL="https://127.0.0.1:$tls" timed "50.H9 TLS gRPC URL at a plain port" dense tls
echo "  DEP0123 lines: $(grep -c DEP0123 "$work/out"); lines of output: $(wc -l <"$work/out")"
kill "$plain" "$q_tls"
fi

# ---- Issue 50 (results folders, resume, provenance, stored text, CSV, spend) ----
# H1. A results folder from someone else: a hit's rank, a summary count, a config value, an explain
# rank set to markup. Each is refused on read in one sentence naming file, line and field (the
# page's escaping is checked in headless Chromium by report/html/hostile-report.browser.test.ts).
lme run --dataset sample --data-dir "$data" --preset bm25-official --out "$work" --run-id base50 --limit 4 --explain >/dev/null 2>&1
poison() { # run folder copy name, file, JavaScript editing `v` (the file's JSON or its first line)
  rm -rf "${work:?}/$1"
  cp -r "$work/base50" "$work/$1"
  node -e '
const fs = require("fs"); const [path, code] = process.argv.slice(1); const lines = path.endsWith(".jsonl") ? fs.readFileSync(path, "utf8").split("\n") : null;
const v = JSON.parse(lines ? lines[0] : fs.readFileSync(path, "utf8")); eval(code);
fs.writeFileSync(path, lines ? [JSON.stringify(v), ...lines.slice(1)].join("\n") : JSON.stringify(v));' "$work/$1/$2" "$3"
}
markup='<img src=x onerror="document.title=\"PWNED\"">'
poison rank50 samples.jsonl "v.hits[0].rank = '$markup'"
case36 "50.H1 rank is markup: report --html" lme report --html "$work/rank50" --output "$work/rank50.html"
echo "  report.html written: $([ -e "$work/rank50.html" ] && echo yes || echo no)"
poison count50 summary.json "v.metrics.overall.counts['session.recall_any@5'] = '$markup'"
case36 "50.H1 summary count is markup: gate" lme gate "$work/count50" --min 'session.recall_any@5>=0'
poison config50 config.json "v.config.topK = '$markup'"
case36 "50.H1 config value is markup: compare" lme compare "$work/base50" "$work/config50"
poison explain50 explain.jsonl "v.gold.sessions[0].rank = '$markup'"
case36 "50.H1 explain rank is markup: explain" lme explain "$work/explain50" "$(head -1 "$work/base50/samples.jsonl" | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).question_id')"

# H5. --resume after a hand edit of config.json (bm25K1 1.5 -> 0.2) and after a code change.
lme run --dataset sample --data-dir "$data" --preset bm25 --bm25-k1 1.5 --out "$work" --run-id k150 --limit 4 >/dev/null 2>&1
crash50() { # copy name, JavaScript editing the manifest `v`: a crash after 2 questions, then the edit
  rm -rf "${work:?}/$1"
  cp -r "$work/k150" "$work/$1"
  head -2 "$work/k150/samples.jsonl" >"$work/$1/samples.jsonl"
  node -e '
const fs = require("fs"); const [path, id, code] = process.argv.slice(1); const v = JSON.parse(fs.readFileSync(path, "utf8"));
v.run_id = id; v.config.runId = id; delete v.finished_at; delete v.fingerprint; eval(code); fs.writeFileSync(path, JSON.stringify(v));' \
    "$work/$1/config.json" "$1" "$2"
}
crash50 edited50 'v.config.bm25K1 = 0.2'
case36 "50.H5 resume after config edit" lme run --resume "$work/edited50"
echo "  questions in samples.jsonl: $(wc -l <"$work/edited50/samples.jsonl") (2 before)"
crash50 mixed50 'v.config.bm25K1 = 0.2'
case36 "50.H5 the same with --resume-mixed" lme run --resume "$work/mixed50" --resume-mixed
echo "  summary.json mixed: $(node -pe 'JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).mixed)' "$work/mixed50/summary.json" 2>/dev/null)"
crash50 recoded50 'v.setup.code = "a".repeat(64); v.setup.versions["@lme/benchmark"] = "0.0.1"'
case36 "50.H5 resume after a code change" lme run --resume "$work/recoded50"

# H6. provenance.git from another repository's folder: lme's own commit, not that folder's.
mkdir -p "$work/other-repo" && (cd "$work/other-repo" && git init -q && git -c user.name=t -c user.email=t@example.invalid commit -q --allow-empty -m other)
(cd "$work/other-repo" && timeout 120 node --import "$repo/node_modules/tsx/dist/loader.mjs" --conditions=source \
  "$repo/packages/benchmark/src/cli/main.ts" run --dataset sample --data-dir "$data" --preset bm25 --out "$work" --run-id cwd50 --limit 1) >/dev/null 2>&1
echo "50.H6 provenance.git.commit          $(node -pe 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).provenance.git.commit' "$work/cwd50/config.json" 2>/dev/null | cut -c1-12) (lme $(git -C "$repo" rev-parse HEAD | cut -c1-12), that folder $(git -C "$work/other-repo" rev-parse HEAD | cut -c1-12))"

# H9. A reader that answers 5 MB with terminal controls, a judge whose first attempt at each
# question fails (500, retried), a label with ESC: samples.csv bounded and free of raw ESC, and the
# spend line counting the requests the server received.
node -e '
const http = require("http"); let count = { reader: 0, judge: 0 }; const seen = new Set();
http.createServer((q, s) => { let body = ""; q.on("data", (c) => (body += c)); q.on("end", () => {
  if (q.url.endsWith("/count")) { s.end(JSON.stringify(count)); return; }
  if (!q.url.endsWith("/chat/completions")) { s.writeHead(200, {"content-type": "application/json"}); s.end("{\"data\":[]}"); return; }
  const request = JSON.parse(body); const judge = request.max_tokens === 10; count[judge ? "judge" : "reader"]++;
  const key = request.messages[0].content;
  if (judge && !seen.has(key)) { seen.add(key); s.writeHead(500, {"content-type": "application/json"}); s.end("{\"error\":{\"message\":\"burst\"}}"); return; }
  const text = judge ? "Yes." : "\u001b]0;PWNED\u0007\u001b[2J" + "x".repeat(5e6);
  s.writeHead(200, {"content-type": "application/json"});
  s.end(JSON.stringify({id: "x", object: "chat.completion", created: 0, model: request.model,
    choices: [{index: 0, message: {role: "assistant", content: text}, finish_reason: "stop"}],
    usage: {prompt_tokens: 10, completion_tokens: 2, total_tokens: 12}})); }); })
  .listen(0, "127.0.0.1", function () { console.log(this.address().port); });
' >"$work/port50" &
server50=$!
for _ in $(seq 50); do [ -s "$work/port50" ] && break; sleep 0.1; done
OPENAI_API_KEY=sk-test OPENAI_BASE_URL="http://127.0.0.1:$(cat "$work/port50")/v1" lme run --dataset sample --data-dir "$data" \
  --preset bm25-official --out "$work" --run-id qa50 --limit 4 --reader-model gpt-4o-mini --no-cache --max-retries 2 \
  --label "$(printf 'team\033]0;PWNED\007')" >"$work/out" 2>&1
echo "50.H9 QA run with hostile replies      exit $?   $(grep -m1 '^spend:' "$work/out" | cut -c1-150)"
echo "  the server received: $(curl -s "http://127.0.0.1:$(cat "$work/port50")/count")"
echo "  raw ESC bytes in samples.csv: $(grep -c "$(printf '\033')" "$work/qa50/samples.csv")"
echo "  samples.csv $(wc -c <"$work/qa50/samples.csv") bytes, samples.jsonl $(wc -c <"$work/qa50/samples.jsonl") bytes (4 answers of 5 MB each)"
kill "$server50"
