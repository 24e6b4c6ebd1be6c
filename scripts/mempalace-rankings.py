#!/usr/bin/env python3
"""MemPalace's own benchmark retrieval on chosen LongMemEval questions, for comparing rankings.

Runs `build_palace_and_retrieve` (raw mode) or `build_palace_and_retrieve_hybrid` (hybrid v1) of
MemPalace/mempalace `benchmarks/longmemeval_bench.py` (read it at 9b7cfc99: `git show
9b7cfc99:benchmarks/longmemeval_bench.py`) in the MemPalace bridge's virtual environment, with
Chroma's default embedding function (ONNXMiniLM_L6_V2) reading the local model files the bridge
install records instead of downloading its own. Prints one JSON line per question: its id, the
corpus ids of the top `--results` documents in their order, and Chroma's distance of each.

  ~/.cache/lme/bridges/mempalace/venv/bin/python scripts/mempalace-rankings.py \
      --bench longmemeval_bench.py --data longmemeval_s_cleaned.json.gz --ids a,b --mode raw
"""

import argparse
import gzip
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", required=True, help="their benchmarks/longmemeval_bench.py")
    parser.add_argument("--data", required=True, help="a LongMemEval file (.json or .json.gz)")
    parser.add_argument("--ids", required=True, help="question ids, comma-separated")
    parser.add_argument("--mode", choices=["raw", "hybrid"], default="raw")
    parser.add_argument("--hybrid-weight", type=float, default=0.30)
    parser.add_argument("--results", type=int, default=50)
    parser.add_argument("--model", required=True, help="all-MiniLM-L6-v2 model.onnx (fp32)")
    parser.add_argument("--tokenizer", required=True, help="its tokenizer.json")
    return parser.parse_args()


def local_default_embedding(model: str, tokenizer: str) -> None:
    """Chroma's default embedding function, reading these files (as the MemPalace bridge does)."""
    from chromadb.utils.embedding_functions import ONNXMiniLM_L6_V2

    folder = Path(tempfile.mkdtemp(prefix="lme-chroma-model-"))
    (folder / "onnx").mkdir()
    for source, name in ((model, "model.onnx"), (tokenizer, "tokenizer.json")):
        if not os.path.isfile(source):
            sys.exit(f"mempalace-rankings: {source} is missing")
        os.symlink(os.path.abspath(source), folder / "onnx" / name)
    ONNXMiniLM_L6_V2.DOWNLOAD_PATH = folder
    ONNXMiniLM_L6_V2._download_model_if_not_exists = lambda self: None


def main() -> None:
    args = parse_args()
    os.environ["ANONYMIZED_TELEMETRY"] = "False"
    local_default_embedding(args.model, args.tokenizer)
    spec = importlib.util.spec_from_file_location("longmemeval_bench", args.bench)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    opener = gzip.open if args.data.endswith(".gz") else open
    with opener(args.data, "rt", encoding="utf-8") as file:
        entries = {entry["question_id"]: entry for entry in json.load(file)}
    for question_id in args.ids.split(","):
        if question_id not in entries:
            sys.exit(f"mempalace-rankings: question {question_id} is not in {args.data}")
        entry = entries[question_id]
        if args.mode == "raw":
            rankings, _, corpus_ids, _ = bench.build_palace_and_retrieve(entry, n_results=args.results)
        else:
            rankings, _, corpus_ids, _ = bench.build_palace_and_retrieve_hybrid(
                entry, n_results=args.results, hybrid_weight=args.hybrid_weight
            )
        top = rankings[: min(args.results, len(corpus_ids))]
        # Their function keeps no distances: ask the collection it left behind the same query.
        collection = bench._bench_client.get_collection("mempal_drawers")
        found = collection.query(
            query_texts=[entry["question"]], n_results=len(top), include=["distances"]
        )
        distance_of = {
            corpus_ids[int(doc_id.removeprefix("doc_"))]: distance
            for doc_id, distance in zip(found["ids"][0], found["distances"][0])
        }
        print(
            json.dumps(
                {
                    "question_id": question_id,
                    "ranking": [corpus_ids[index] for index in top],
                    "distances": [distance_of.get(corpus_ids[index]) for index in top],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
