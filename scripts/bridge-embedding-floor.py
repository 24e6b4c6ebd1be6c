#!/usr/bin/env python3
"""A bridge's embedding floor: its model over the distinct texts the bridge embeds for a LongMemEval
file, in raw onnxruntime, length-sorted batches, with nothing of the memory system around it.

Run it with the bridge's own Python (its venv has onnxruntime, tokenizers and, for MemPalace, the
library whose chunker gives the drawers); the model files are those `installed.json` records:

  ~/.cache/lme/bridges/mem0/venv/bin/python scripts/bridge-embedding-floor.py --bridge mem0 \
      --data longmemeval_s_cleaned.json.gz
  ~/.cache/lme/bridges/mempalace/venv/bin/python scripts/bridge-embedding-floor.py \
      --bridge mempalace --mode mine --data longmemeval_s_cleaned.json.gz --fraction 0.1

The texts are the bridge's (packages/benchmark/bridges): mem0 embeds each non-empty turn's content,
every role, unpadded and truncated at 256 word pieces, with the int8 all-MiniLM-L6-v2; MemPalace
embeds with chromadb's fp32 all-MiniLM-L6-v2, every text padded to 256 tokens, in `mine` mode the
drawers MemPalace's own convo miner cuts from each session's transcript (plus a `[registry] <path>`
sentinel for a session whose content the palace already holds, counted but not timed: its path is
the bridge's), in `raw` mode one document per session of its user turns. Query embeddings (one per
question) are left out. Tokenizing is timed over every distinct text; `--fraction F` runs the model
on every k-th text of the length-sorted list (k = 1/F) and scales its seconds to the whole set by
model tokens (each batch padded to its longest text, as run), and the output says so. Wall and CPU
seconds are both printed: on a shared machine the CPU seconds say more about the work.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import shutil
import sys
import tempfile
import time
from typing import NoReturn

MODELS = {"mem0": "Xenova/all-MiniLM-L6-v2@q8", "mempalace": "Xenova/all-MiniLM-L6-v2@fp32"}
MAX_TOKENS = 256  # configs/models.json's maxTokens for all-MiniLM-L6-v2; chromadb's too


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bridge", choices=sorted(MODELS), required=True)
    parser.add_argument("--mode", choices=["mine", "raw"], default="mine", help="MemPalace's mode (mempalace_bridge.py --mode)")
    parser.add_argument("--data", required=True, help="a LongMemEval file (.json or .json.gz)")
    parser.add_argument("--bridges-dir", default=os.environ.get("LME_BRIDGES_DIR") or os.path.expanduser("~/.cache/lme/bridges"))
    parser.add_argument("--limit-questions", type=int, default=0, help="read only the first N questions (0: all)")
    parser.add_argument("--fraction", type=float, default=1.0, help="time every k-th text of the length-sorted list, k = round(1/F)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="onnxruntime intra-op threads (default: every core)")
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction must be above 0 and at most 1, not {args.fraction}")
    if args.limit_questions < 0:
        parser.error("--limit-questions must be 0 or more")
    if args.threads < 1 or args.batch_size < 1:
        parser.error("--threads and --batch-size must be at least 1")
    return args


def fail(message: str) -> NoReturn:
    print(f"bridge-embedding-floor: {message}", file=sys.stderr)
    sys.exit(1)


def read_questions(path: str, limit: int) -> list[dict]:
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as file:
            records = json.load(file)
    except (OSError, ValueError) as error:
        fail(f"{path} could not be read as LongMemEval JSON: {error}")
    if not isinstance(records, list):
        fail(f"{path} is not a list of LongMemEval questions")
    records = records[:limit] if limit else records
    for index, record in enumerate(records):
        sessions = record.get("haystack_sessions") if isinstance(record, dict) else None
        name = record.get("question_id", f"#{index}") if isinstance(record, dict) else f"#{index}"
        if not isinstance(sessions, list) or not all(
                isinstance(session, list) and all(isinstance(turn, dict) and isinstance(turn.get("content"), str)
                                                  and isinstance(turn.get("role"), str) for turn in session)
                for session in sessions):
            fail(f"{path}: question {name} has no haystack_sessions of turns with a role and a content")
    return records


def model_files(bridges_dir: str, bridge: str) -> dict:
    manifest = os.path.join(bridges_dir, bridge, "installed.json")
    try:
        with open(manifest, encoding="utf-8") as file:
            return json.load(file)["models"][MODELS[bridge]]
    except (OSError, ValueError, KeyError):
        fail(f"{manifest} is missing or names no {MODELS[bridge]}: run `lme bridges install {bridge}` first")


def mem0_texts(records: list[dict]) -> tuple[list[str], dict[str, int]]:
    """mem0_bridge.py's ingest: each turn whose content is not blank, its content as sent."""
    texts = [turn["content"] for record in records for session in record["haystack_sessions"]
             for turn in session if turn["content"].strip()]
    return texts, {}


def raw_texts(records: list[dict]) -> tuple[list[str], dict[str, int]]:
    """mempalace_bridge.py's BenchBackend: each session with a user turn, its user turns joined."""
    texts = []
    for record in records:
        for session in record["haystack_sessions"]:
            user = [turn["content"] for turn in session if turn["role"] == "user"]
            if user:
                texts.append("\n".join(user))
    return texts, {}


def transcript(session: list[dict]) -> str:
    """mempalace_bridge.py's conversation file for a session (user turns as `> ` lines)."""
    lines = []
    for turn in session:
        text = turn["content"].strip()
        if text:
            lines.extend([f"> {text}" if turn["role"] == "user" else text, ""])
    return "\n".join(lines)


def mine_texts(records: list[dict]) -> tuple[list[str], dict[str, int]]:
    """The drawers `mine_convos` files for each question's palace: MemPalace's own normalizer and
    exchange chunker on each session's file, a conversation already in the palace skipped (and
    registered by a sentinel text instead, as is a file that gives no chunk)."""
    scratch = tempfile.mkdtemp(prefix="lme-floor-")
    os.environ["MEMPALACE_CONFIG_DIR"] = os.path.join(scratch, ".mempalace")
    os.environ["HOME"] = scratch
    from mempalace.config import MempalaceConfig  # noqa: PLC0415
    from mempalace.convo_miner import MIN_CHUNK_SIZE, chunk_exchanges  # noqa: PLC0415
    from mempalace.normalize import normalize_conversations  # noqa: PLC0415

    try:
        config = MempalaceConfig(palace_path=os.path.join(scratch, "palace"))
        chunk_size = config.chunk_size
        explicit_min = config.min_chunk_size_explicit
        min_chunk_size = explicit_min if explicit_min is not None else MIN_CHUNK_SIZE
        conversations_of: dict[str, list[str]] = {}
        file_path = os.path.join(scratch, "session.txt")

        def conversations(text: str) -> list[str]:
            if text not in conversations_of:
                with open(file_path, "w", encoding="utf-8") as file:
                    file.write(text)
                conversations_of[text] = [c for c in normalize_conversations(file_path) if c]
            return conversations_of[text]

        texts: list[str] = []
        filed_sessions = sentinels = 0
        for record in records:
            filed: set[str] = set()
            for session in record["haystack_sessions"]:
                text = transcript(session)
                if not text:
                    continue
                found = conversations(text)
                new = [(hashlib.sha256(c.strip().encode("utf-8")).hexdigest(), c) for c in found if c.strip()]
                new = [(digest, c) for digest, c in new if digest not in filed]
                chunks = chunk_exchanges("\n\n".join(c for _, c in new), chunk_size=chunk_size,
                                         min_chunk_size=min_chunk_size) if new else []
                if not chunks:
                    sentinels += 1
                    continue
                texts.extend(chunk["content"] for chunk in chunks)
                filed.update(digest for digest, _ in new)
                filed_sessions += 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return texts, {"sessions filed": filed_sessions, "registry sentinels": sentinels}


def batches_of(order: list[int], size: int) -> list[list[int]]:
    return [order[start:start + size] for start in range(0, len(order), size)]


def batch_tokens(ids: list, width: int, batches: list[list[int]]) -> int:
    """The tokens the model runs: each batch padded to its longest text, or every text to `width`."""
    return sum(len(batch) * (width or max(len(ids[i]) for i in batch)) for batch in batches)


def tokenize(tokenizer, texts: list[str]) -> list:
    """Each text's word-piece ids (truncated), as compact arrays: the library's Encoding objects of
    all S's drawers took 10 GB."""
    import numpy as np  # noqa: PLC0415

    ids = []
    for start in range(0, len(texts), 4096):
        ids.extend(np.array(encoding.ids, dtype=np.int64) for encoding in tokenizer.encode_batch(texts[start:start + 4096]))
    return ids


def run_model(session, inputs: set[str], ids: list, width: int, batches: list[list[int]]) -> tuple[float, float]:
    """Runs each batch (zero-padded with a zero mask, as chromadb's tokenizer pads), mean pooling and
    L2 norm included; returns the wall and CPU seconds."""
    import numpy as np  # noqa: PLC0415

    started, cpu = time.perf_counter(), time.process_time()
    for batch in batches:
        columns = width or max(len(ids[i]) for i in batch)
        feed_ids = np.zeros((len(batch), columns), dtype=np.int64)
        mask = np.zeros((len(batch), columns), dtype=np.int64)
        for row, i in enumerate(batch):
            feed_ids[row, :len(ids[i])] = ids[i]
            mask[row, :len(ids[i])] = 1
        feed = {"input_ids": feed_ids, "attention_mask": mask}
        if "token_type_ids" in inputs:
            feed["token_type_ids"] = np.zeros_like(feed_ids)
        hidden = session.run(None, feed)[0]
        pooled = (hidden * mask[:, :, None]).sum(axis=1) / np.clip(mask.sum(axis=1, keepdims=True), 1e-9, None)
        pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    args = parse_args()
    files = model_files(args.bridges_dir, args.bridge)
    records = read_questions(args.data, args.limit_questions)
    questions = len(records)
    collect = mem0_texts if args.bridge == "mem0" else (mine_texts if args.mode == "mine" else raw_texts)
    texts, counts = collect(records)
    text_count, distinct = len(texts), sorted(set(texts))
    del records, texts

    import onnxruntime as ort  # noqa: PLC0415
    from tokenizers import Tokenizer  # noqa: PLC0415

    # chromadb's ONNXMiniLM_L6_V2 pads every text to 256 (its tokenizer's padding; done here at
    # batch time, the same zeros); the mem0 bridge runs each text unpadded.
    padded = args.bridge == "mempalace"
    width = MAX_TOKENS if padded else 0
    tokenizer = Tokenizer.from_file(files["tokenizer"])
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.no_padding()
    started, cpu = time.perf_counter(), time.process_time()
    ids = tokenize(tokenizer, distinct)
    tokenize_seconds, tokenize_cpu = time.perf_counter() - started, time.process_time() - cpu

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(files["model"], sess_options=options, providers=["CPUExecutionProvider"])
    inputs = {item.name for item in session.get_inputs()}

    order = sorted(range(len(distinct)), key=lambda i: (len(ids[i]), i))
    step = max(1, round(1 / args.fraction))
    timed = batches_of(order[::step], args.batch_size)
    if timed:  # warm-up, untimed: onnxruntime's first run allocates
        run_model(session, inputs, ids, width, [timed[0][:1]])
    model_seconds, model_cpu = run_model(session, inputs, ids, width, timed)
    all_tokens, timed_tokens = batch_tokens(ids, width, batches_of(order, args.batch_size)), batch_tokens(ids, width, timed)
    scale = all_tokens / timed_tokens if timed_tokens else 0.0
    floor = tokenize_seconds + model_seconds * scale
    timed_texts = sum(len(batch) for batch in timed)

    what = {"mem0": "each non-empty turn, every role", "mine": "MemPalace's drawers (convo miner, exchange chunks)",
            "raw": "one document per session of its user turns"}["mem0" if args.bridge == "mem0" else args.mode]
    print(f"bridge: {args.bridge}{'' if args.bridge == 'mem0' else ' (' + args.mode + ' mode)'}: {what}")
    print(f"model: {MODELS[args.bridge]} {files['model']}, {'padded to' if padded else 'truncated at'} {MAX_TOKENS} tokens")
    print(f"questions: {questions}")
    print(f"texts: {text_count}")
    print(f"distinct texts: {len(distinct)}")
    for name, count in counts.items():
        print(f"{name}: {count}")
    print(f"tokens: {sum(len(text_ids) for text_ids in ids)} (distinct texts, truncated at {MAX_TOKENS})")
    print(f"model tokens: {all_tokens} (the distinct texts in length-sorted batches of {args.batch_size}, "
          + ("every text padded to 256)" if padded else "each batch padded to its longest text)"))
    print(f"threads: {args.threads} (onnxruntime intra-op); tokenizing uses the tokenizers library's own pool")
    print(f"tokenize seconds: {tokenize_seconds:.2f} wall, {tokenize_cpu:.2f} CPU (every distinct text)")
    extrapolated = step > 1
    print(f"timed texts: {timed_texts}" + (f" (every {step}th of the length-sorted list: {timed_tokens} of {all_tokens} model tokens)"
                                           if extrapolated else " (all)"))
    print(f"model seconds: {model_seconds:.2f} wall, {model_cpu:.2f} CPU")
    rate = timed_texts / model_seconds if model_seconds > 0 else math.inf
    print(f"texts/s: {rate:.1f} (model only, timed texts, wall)")
    print(f"floor seconds: {floor:.1f} ({floor / 60:.1f} min) = tokenize + model"
          + (f" x {scale:.2f} (model seconds extrapolated by model tokens to all distinct texts)" if extrapolated else "")
          + f", for all {len(distinct)} distinct texts of the {questions} questions")
    cpu_floor = tokenize_cpu + model_cpu * scale
    print(f"floor CPU seconds: {cpu_floor:.1f} (divided by {args.threads} threads: {cpu_floor / args.threads / 60:.1f} min, "
          "the wall time if each thread had a core to itself)")


if __name__ == "__main__":
    main()
