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

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        """Each text in a model call of its own, unpadded: an int8 model quantizes its activations over
        the whole call (DynamicQuantizeLinear), so a text batched with others got another vector (up
        to 0.03 apart on a sample session), and a cached vector must not depend on its batch-mates."""
        vectors = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            ids = np.array([self.tokenizer.encode(text).ids], dtype=np.int64)
            mask = np.ones_like(ids)
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feed)[0][0]
            pooled = hidden[0] if self.pooling == "cls" else hidden.mean(axis=0)
            vectors[row] = pooled / max(float(np.linalg.norm(pooled)), 1e-12)
        return vectors
