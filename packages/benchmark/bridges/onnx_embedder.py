"""A sentence embedder over an ONNX file and its tokenizer.json (onnxruntime + tokenizers, no
network): the mem0 bridge's embedder. Pooling `mean` (all-MiniLM-L6-v2) or `cls` (bge-small),
vectors L2-normalised, texts truncated at `max_tokens` word pieces."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer


class OnnxEmbedder:
    def __init__(self, model_path: str, tokenizer_path: str, pooling: str, max_tokens: int,
                 query_prefix: str = "", threads: int = 1) -> None:
        if pooling not in ("mean", "cls"):
            raise ValueError(f"pooling must be mean or cls, not {pooling}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.log_severity_level = 3
        self.session = ort.InferenceSession(model_path, sess_options=options, providers=["CPUExecutionProvider"])
        self.inputs = {item.name for item in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(tokenizer_path)
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.no_padding()
        self.pooling = pooling
        self.query_prefix = query_prefix
        self.dimensions = int(self.session.get_outputs()[0].shape[-1])

    def embed_batch(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        vectors = []
        # Similar lengths together: less padding per batch.
        order = sorted(range(len(texts)), key=lambda index: len(texts[index]))
        for start in range(0, len(order), batch_size):
            chunk = [texts[index] for index in order[start:start + batch_size]]
            encodings = self.tokenizer.encode_batch(chunk)
            width = max(len(encoding.ids) for encoding in encodings)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, encoding in enumerate(encodings):
                ids[row, : len(encoding.ids)] = encoding.ids
                mask[row, : len(encoding.ids)] = 1
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feed)[0]
            if self.pooling == "cls":
                pooled = hidden[:, 0, :]
            else:
                weights = mask[:, :, None].astype(np.float32)
                pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            vectors.append(pooled / np.maximum(norms, 1e-12))
        stacked = np.concatenate(vectors, axis=0) if vectors else np.zeros((0, self.dimensions), np.float32)
        result = np.empty_like(stacked)
        result[order] = stacked
        return result

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_batch([self.query_prefix + text])[0]
