#!/usr/bin/env python3
"""A starter memory server speaking lme's provider protocol (docs/provider-protocol.md).

Standard library only. Stores the sessions lme ingests per namespace and ranks them by the words
they share with the query. Replace `score` with your system, then measure it:
    python3 examples/starter-server.py --port 8787
    lme run -d sample --provider http --provider-url http://127.0.0.1:8787
"""
import argparse, json, re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STORE = {}  # namespace -> list of sessions, as ingested


def words(text):
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def score(query, text):
    """Word overlap: the share of the query's words the text holds."""
    wanted = words(query)
    return len(wanted & words(text)) / max(len(wanted), 1)


def search(body):
    sessions = STORE.get(body["namespace"], [])
    if body.get("granularity") == "turn":
        hits = [{"session_id": s["session_id"], "turn_index": t["turn_index"],
                 "score": score(body["query"], t["content"])}
                for s in sessions for t in s["turns"]]
    else:
        hits = [{"session_id": s["session_id"],
                 "score": score(body["query"], " ".join(t["content"] for t in s["turns"]))}
                for s in sessions]
    hits.sort(key=lambda hit: -hit["score"])
    return {"hits": hits[: body["top_k"]]}


class Handler(BaseHTTPRequestHandler):
    def reply(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/v1/health":
            return self.reply(200, {"status": "ok", "name": "starter-server", "version": "1"})
        self.reply(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self):
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            if self.path == "/v1/reset":
                STORE.pop(body["namespace"], None)
                return self.reply(200, {"ok": True})
            if self.path == "/v1/ingest":
                STORE.setdefault(body["namespace"], []).extend(body["sessions"])
                return self.reply(200, {"ok": True})  # add "usage" if your ingest calls an LLM
            if self.path == "/v1/search":
                return self.reply(200, search(body))
            self.reply(404, {"error": {"message": f"no route {self.path}"}})
        except (KeyError, TypeError, ValueError) as error:
            self.reply(400, {"error": {"message": f"bad request: {error!r}"}})

    def log_message(self, *args):  # quiet
        pass


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8787)
    parser.add_argument("--host", default="127.0.0.1")
    arguments = parser.parse_args()
    server = ThreadingHTTPServer((arguments.host, arguments.port), Handler)
    print(f"starter server listening on http://{arguments.host}:{server.server_port}", flush=True)
    server.serve_forever()
