"""mem0 (mem0ai, pinned in requirements-mem0.txt) behind lme's provider protocol, with no LLM and no
network: each turn is stored as it is said (`Memory.add(..., infer=False)`), in Qdrant's embedded
in-memory mode, embedded by a local ONNX model (onnx_embedder.py); `Memory.search` ranks them with
mem0's own scoring. Each namespace is one mem0 user id with a Qdrant collection of its own, dropped
on reset: in one shared collection, Qdrant's local search sorted every namespace's memories together
with an unstable sort, so exact score ties came back in an order that depended on what else the
process held (at -j N, on which questions it had been dealt), and every search and reset scanned
every memory the process had ever stored. (mem0's own default collection, which `Memory` makes at
start under --work-dir, stays empty.) Started by lme (`lme run --provider mem0`,
installed by `lme bridges install mem0`).

mem0's BM25 and entity boost need fastembed's Qdrant/bm25 files and spaCy's en_core_web_sm, which
it downloads on first use; neither is installed, so its search is the semantic score alone (mem0
logs that BM25 is disabled). Telemetry is off (MEM0_TELEMETRY=False) and the socket guard refuses
anything beyond loopback (reported in /v1/health as refused_connections).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol_server  # noqa: E402

NAME = "mem0"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--model", required=True, help="the embedder's ONNX file")
    parser.add_argument("--tokenizer", required=True, help="its tokenizer.json")
    parser.add_argument("--pooling", choices=["mean", "cls"], default="mean")
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--query-prefix", default="")
    parser.add_argument("--threshold", type=float, default=0.1)
    parser.add_argument("--embedding-cache", help="a folder of vectors shared with other bridge processes (embedding_cache.py)")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    work_dir = os.path.abspath(args.work_dir)
    os.makedirs(work_dir, exist_ok=True)
    # Before mem0 is imported: it reads these at import time.
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ["MEM0_DIR"] = os.path.join(work_dir, "mem0-home")
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["POSTHOG_DISABLED"] = "1"
    protocol_server.install_socket_guard()

    import mem0  # noqa: PLC0415
    from mem0 import Memory  # noqa: PLC0415
    from mem0.configs.base import MemoryConfig  # noqa: PLC0415
    from mem0.vector_stores.qdrant import Qdrant  # noqa: PLC0415
    from qdrant_client import QdrantClient  # noqa: PLC0415

    from onnx_embedder import OnnxEmbedder  # noqa: PLC0415

    embedder = OnnxEmbedder(args.model, args.tokenizer, args.pooling, args.max_tokens, args.query_prefix)
    cache = None
    if args.embedding_cache:
        import onnxruntime  # noqa: PLC0415

        from embedding_cache import EmbeddingCache, file_sha256  # noqa: PLC0415

        cache = EmbeddingCache(args.embedding_cache, {
            "embedder": "onnx_embedder, one text per call", "model": file_sha256(args.model),
            "tokenizer": file_sha256(args.tokenizer), "max_tokens": args.max_tokens, "pooling": args.pooling,
            "onnxruntime": onnxruntime.__version__}, embedder.dimensions)

    def vectors(texts: list[str]):  # type: ignore[no-untyped-def]
        return embedder.embed_batch(texts) if cache is None else cache.embed(texts, embedder.embed_batch)

    class PrimedEmbedder:
        """mem0's embedder: a session's turns are embedded (or read from the cache) before `add` asks."""

        def __init__(self) -> None:
            self.primed: dict[str, list[float]] = {}

        def prime(self, texts: list[str]) -> None:
            for text, vector in zip(texts, vectors(texts)):
                self.primed[text] = vector.tolist()

        def embed(self, text: str, memory_action: str | None = None) -> list[float]:
            if memory_action == "search":
                return vectors([embedder.query_prefix + text])[0].tolist()
            vector = self.primed.pop(text, None)
            return vector if vector is not None else vectors([text])[0].tolist()

        def embed_batch(self, texts: list[str], memory_action: str | None = None) -> list[list[float]]:
            return [self.embed(text, memory_action) for text in texts]

    # The LLM and embedder named here are never called (infer=False; the embedder is replaced):
    # mem0 needs some provider to start, and LM Studio's points at loopback and needs no key.
    config = MemoryConfig(
        vector_store={
            "provider": "qdrant",
            "config": {
                "path": os.path.join(work_dir, "qdrant"),
                "collection_name": "lme",
                "embedding_model_dims": embedder.dimensions,
                "on_disk": True,
            },
        },
        embedder={"provider": "lmstudio", "config": {"embedding_dims": embedder.dimensions}},
        llm={"provider": "lmstudio", "config": {}},
        # mem0's record of each change, which its search never reads: kept in memory, not on disk.
        history_db_path=":memory:",
    )
    memory = Memory(config)
    primed = PrimedEmbedder()
    memory.embedding_model = primed
    # The namespaces' collections live in memory: mem0's local Qdrant searches the same way, and a
    # collection on disk wrote every memory to SQLite one commit at a time (about 19 GB for all of S).
    client = QdrantClient(location=":memory:")
    # Memories per namespace: the search asks mem0 for all of them when ranking sessions.
    counts: dict[str, int] = {}
    stores: dict[str, object] = {}

    def user_id(namespace: str) -> str:
        # mem0 refuses whitespace in ids; the namespace's hash keeps them apart.
        return "lme-" + hashlib.sha256(namespace.encode("utf-8")).hexdigest()[:32]

    def use_store(namespace: str) -> None:
        """Points mem0 at the namespace's own collection (calls come one at a time), made on first use
        in the process's Qdrant client, as mem0 makes its own."""
        store = stores.get(namespace)
        if store is None:
            with warnings.catch_warnings():
                # Given a client, mem0 asks for payload indexes, which local Qdrant says it ignores.
                warnings.simplefilter("ignore")
                store = Qdrant(collection_name=user_id(namespace), embedding_model_dims=embedder.dimensions,
                               client=client)
            stores[namespace] = store
        memory.vector_store = store

    class Backend:
        def reset(self, namespace: str) -> None:
            if stores.pop(namespace, None) is not None:
                client.delete_collection(user_id(namespace))
            counts.pop(namespace, None)
            if not stores:
                # No namespace left: mem0's history of their changes goes too (the process stays bounded).
                memory.db.connection.execute("DELETE FROM history")
                memory.db.connection.commit()

        def ingest(self, namespace: str, sessions: list[dict]) -> None:
            uid = user_id(namespace)
            use_store(namespace)
            for session in sessions:
                turns = [turn for turn in session["turns"] if turn["content"].strip()]
                if not turns:
                    continue
                primed.prime([turn["content"] for turn in turns])
                for turn in turns:
                    # One add per turn: mem0 keeps one metadata per call, and the turn's index is in it.
                    memory.add(
                        [{"role": turn["role"], "content": turn["content"]}],
                        user_id=uid,
                        infer=False,
                        metadata={
                            "session_id": session["session_id"],
                            "turn_index": turn["turn_index"],
                            "date": session.get("date", ""),
                        },
                    )
                counts[namespace] = counts.get(namespace, 0) + len(turns)
                primed.primed.clear()
            if cache is not None:
                cache.report()

        def search(self, namespace: str, query: str, top_k: int, granularity: str, _date: object) -> list[dict]:
            stored = counts.get(namespace, 0)
            if stored == 0 or not query.strip():
                return []
            # Sessions: rank every stored turn, then keep each session at its best turn.
            limit = stored if granularity == "session" else min(top_k, stored)
            use_store(namespace)
            found = memory.search(query, top_k=limit, filters={"user_id": user_id(namespace)},
                                  threshold=args.threshold)
            hits: list[dict] = []
            seen: set[str] = set()
            for item in found.get("results", []):
                meta = item.get("metadata") or {}
                session_id = meta.get("session_id")
                if not isinstance(session_id, str):
                    continue
                if granularity == "session":
                    if session_id in seen:
                        continue
                    seen.add(session_id)
                    hits.append({"session_id": session_id, "score": float(item.get("score") or 0)})
                else:
                    hits.append({"session_id": session_id, "turn_index": int(meta.get("turn_index", 0)),
                                 "score": float(item.get("score") or 0)})
                if len(hits) >= top_k:
                    break
            return hits

    protocol_server.serve(Backend(), NAME, getattr(mem0, "__version__", "unknown"), args.port)


if __name__ == "__main__":
    main()
