#!/usr/bin/env python3
"""memini's keyword leg run in real SQLite FTS5, for checking lme's `fts5-bm25` retriever.

Reproduces eleboucher/memini (bench at 05e7da55, store at 033924f2): `LoadLongMemEval` with `DocFull` (`bench/dataset.go`:
a session is `role: content\\n` per turn, its id `question_id/session_id`, the question's id its
namespace), the table `fts5(content, summary, tags, tokenize='porter unicode61')` and
`KeywordSearch` with `ftsQuery` (`internal/store/sqlitevec/store.go`, `helpers.go`). `--scope
all` keeps every question's sessions in one table as memini's bench does (bm25's statistics are
the whole file's); `--scope question` builds one table per question (lme indexes one haystack).
Prints one JSON line per question: its id, the session ids of the top `--results` in order.
With `--lme-samples` it instead compares those rankings with an lme run's samples.jsonl; with
`--write-statistics FILE` it writes the shared table's statistics for lme's `--fts5-statistics`
(given LoCoMo's locomo10.json, of memini's LoCoMo session documents: `[date]`, `speaker: text`).

  python3 scripts/memini-fts5-rankings.py --data longmemeval_s_cleaned.json.gz --scope all
"""

import argparse
import gzip
import json
import re
import sqlite3
import sys

SCHEMA = "CREATE VIRTUAL TABLE fts_memories USING fts5(content, summary, tags, tokenize='porter unicode61')"
SEARCH = (
    "SELECT m.id, bm25(fts_memories) AS rank FROM fts_memories JOIN memories m ON m.rowid = fts_memories.rowid"
    " WHERE fts_memories MATCH ? AND m.namespace = ? ORDER BY rank LIMIT ?"
)


def fts_query(question: str) -> str:
    terms = [t for t in re.split(r"[^a-z0-9]+", question.lower()) if len(t) >= 2]
    return " OR ".join(f'"{t}"' for t in terms)


def session_text(turns) -> str:
    return "".join(f"{t['role']}: {t['content']}\n" for t in turns)


def open_table() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE memories (rowid INTEGER PRIMARY KEY, id TEXT UNIQUE, namespace TEXT)")
    db.execute(SCHEMA)
    return db


def load(db: sqlite3.Connection, record) -> None:
    qid = record["question_id"]
    for sid, turns in zip(record["haystack_session_ids"], record["haystack_sessions"]):
        # Upsert: a session id seen again in the haystack replaces the earlier row's text.
        found = db.execute("SELECT rowid FROM memories WHERE id = ?", (f"{qid}/{sid}",)).fetchone()
        if found:
            row = found[0]
            db.execute("DELETE FROM fts_memories WHERE rowid = ?", (row,))
        else:
            row = db.execute("INSERT INTO memories (id, namespace) VALUES (?, ?)", (f"{qid}/{sid}", qid)).lastrowid
        db.execute("INSERT INTO fts_memories (rowid, content, summary, tags) VALUES (?, ?, '', '')",
                   (row, session_text(turns)))


def rankings(records, scope: str, results: int):
    shared = open_table() if scope == "all" else None
    if shared:
        for record in records:
            load(shared, record)
    for record in records:
        db = shared or open_table()
        if not shared:
            load(db, record)
        match = fts_query(record["question"])
        rows = db.execute(SEARCH, (match, record["question_id"], results)).fetchall() if match else []
        yield record["question_id"], [row[0].split("/", 1)[1] for row in rows]


def load_locomo(db: sqlite3.Connection, conversations) -> None:
    """memini's LoCoMo session documents (`load_locomo` with sessions): `[date]` then `speaker: text` lines."""
    for conversation in conversations:
        sessions = conversation["conversation"]
        for key, turns in sessions.items():
            if not re.fullmatch(r"session_\d+", key) or not isinstance(turns, list):
                continue
            date = sessions.get(f"{key}_date_time", "")
            lines = [f"[{date}]"] if date else []
            lines += [f"{t['speaker'].strip()}: {t['text'].strip()}" for t in turns if t.get("dia_id")]
            row = db.execute("INSERT INTO memories (id, namespace) VALUES (?, ?)",
                             (f"{conversation['sample_id']}/{key}", conversation["sample_id"])).lastrowid
            db.execute("INSERT INTO fts_memories (rowid, content, summary, tags) VALUES (?, ?, '', '')",
                       (row, "\n".join(lines).strip()))


def write_statistics(records, path: str) -> None:
    """FTS5's own counts of the shared table: rows, tokens, and rows per term (fts5vocab)."""
    db = open_table()
    if records and "conversation" in records[0]:
        load_locomo(db, records)
    else:
        for record in records:
            load(db, record)
    db.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(fts_memories, 'row')")
    frequency = {term: rows for term, rows in db.execute("SELECT term, doc FROM vocab")}
    tokens = db.execute("SELECT sum(cnt) FROM vocab").fetchone()[0]
    rows = db.execute("SELECT count(*) FROM fts_memories").fetchone()[0]
    with open(path, "w") as handle:
        json.dump({"rows": rows, "tokens": tokens, "documentFrequency": frequency}, handle)
    print(f"{rows} rows, {tokens} tokens, {len(frequency)} terms: {path}")


def lme_rankings(path: str):
    ranked = {}
    with open(path) as handle:
        for line in handle:
            sample = json.loads(line)
            ranked[sample["question_id"]] = [hit["session_id"] for hit in sample["hits"]]
    return ranked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="a LongMemEval file (.json or .json.gz); LoCoMo's for --write-statistics")
    parser.add_argument("--scope", choices=["all", "question"], default="all")
    parser.add_argument("--results", type=int, default=10)
    parser.add_argument("--lme-samples", help="an lme run's samples.jsonl to compare with")
    parser.add_argument("--write-statistics", help="write the --scope all table's statistics (lme --fts5-statistics)")
    args = parser.parse_args()
    opener = gzip.open if args.data.endswith(".gz") else open
    with opener(args.data, "rt") as handle:
        records = json.load(handle)
    if args.write_statistics:
        write_statistics(records, args.write_statistics)
        return
    if not args.lme_samples:
        for qid, ranked in rankings(records, args.scope, args.results):
            print(json.dumps({"question_id": qid, "ranked": ranked}))
        return
    theirs = lme_rankings(args.lme_samples)
    compared = [(qid, ranked) for qid, ranked in rankings(records, args.scope, args.results) if qid in theirs]
    differ = [qid for qid, ranked in compared if ranked != theirs[qid][: args.results]]
    print(f"{len(compared) - len(differ)} of {len(compared)} questions rank their top {args.results} alike")
    for qid in differ[:10]:
        print(f"differs: {qid}", file=sys.stderr)


if __name__ == "__main__":
    main()
