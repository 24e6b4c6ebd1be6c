"""A content-addressed disk cache of a bridge's text vectors, shared by every bridge process that
names the same folder (questions, runs and shards on one machine; the folder lives in lme's cache).

Vectors sit under `<root>/<identity hash>/<2 hex>/<sha256 of the text>.f32` (float32, little
endian), where the identity is what makes two embedders' vectors the same: the model and tokenizer
files' SHA-256, the token limit, pooling, how texts are run (alone, or padded to a fixed width) and
the onnxruntime version. A vector is written to a temporary file and renamed into place, so a
reader sees a whole vector or none, and two processes writing the same text write the same bytes.
A file of the wrong size is treated as missing and written again.

A cached vector must be the one the model gives the text whatever else is embedded with it: the
bridges only cache embedders whose vectors depend on the text alone (mem0's runs each text in a call
of its own; chromadb pads every text to 256 tokens), so results are the same with or without it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from typing import Callable, Sequence

import numpy as np


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_atomically(path: str, data: bytes) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


class EmbeddingCache:
    def __init__(self, root: str, identity: dict, dimensions: int) -> None:
        text = json.dumps(identity, sort_keys=True)
        self.folder = os.path.join(os.path.abspath(root), hashlib.sha256(text.encode()).hexdigest()[:32])
        self.dimensions = dimensions
        self.hits = 0
        self.misses = 0
        manifest = os.path.join(self.folder, "identity.json")
        if not os.path.isfile(manifest):
            write_atomically(manifest, text.encode())

    def path(self, text: str) -> str:
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return os.path.join(self.folder, key[:2], key + ".f32")

    def get(self, text: str) -> np.ndarray | None:
        try:
            with open(self.path(text), "rb") as file:
                data = file.read()
        except FileNotFoundError:
            return None
        if len(data) != self.dimensions * 4:
            return None
        return np.frombuffer(data, dtype="<f4").astype(np.float32)

    def embed(self, texts: Sequence[str], compute: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        """Vectors of `texts` in order: cached ones read, the others computed once each and stored."""
        found: dict[str, np.ndarray] = {}
        for text in texts:
            if text not in found:
                vector = self.get(text)
                if vector is not None:
                    found[text] = vector
        self.hits += sum(1 for text in texts if text in found)
        missing = list(dict.fromkeys(text for text in texts if text not in found))
        if missing:
            computed = np.asarray(compute(missing), dtype=np.float32)
            for text, vector in zip(missing, computed):
                write_atomically(self.path(text), vector.astype("<f4").tobytes())
                found[text] = vector
            self.misses += len(missing)
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.stack([found[text] for text in texts])

    def report(self) -> None:
        """Logs the counts so far (lme keeps `lme-bridge:` lines) and starts them again."""
        print(f"lme-bridge: embedding cache: {self.hits} hits, {self.misses} embedded", file=sys.stderr, flush=True)
        self.hits = self.misses = 0
