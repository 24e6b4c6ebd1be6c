"""Reference vectors for the ONNX embedders, computed independently of lme.

Python's onnxruntime runs the model file and Hugging Face `tokenizers` (the Rust tokenizer) reads
tokenizer.json, with truncation at the model's limit. Pooling, prefixes and limits are written
here from each model's card, not read from configs/models.json, so that the TypeScript embedder
(packages/search-core/src/embedding/onnx/) is checked against an independent reading of the same
files. The output is committed as the fixture the embedder's test compares with:

    pip install onnxruntime tokenizers numpy
    python3 scripts/reference-vectors.py <model store> > packages/benchmark/src/models/fixtures/reference-vectors.json

where <model store> is a folder filled by `lme models fetch` (<cache dir>/models).
"""

import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime
import tokenizers

# From the model cards: pooling, the token limit, and the query / passage prefixes.
MODELS = {
    "Xenova/all-MiniLM-L6-v2": {
        "revision": "751bff37182d3f1213fa05d7196b954e230abad9",
        "pooling": "mean",
        "max_tokens": 256,
        "query": "",
        "document": "",
    },
    "Xenova/bge-small-en-v1.5": {
        "revision": "ea104dacec62c0de699686887e3f920caeb4f3e3",
        "pooling": "cls",
        "max_tokens": 512,
        "query": "Represent this sentence for searching relevant passages: ",
        "document": "",
    },
    "Xenova/e5-small-v2": {
        "revision": "02af79985278377e65c724a76275707cb0333c70",
        "pooling": "mean",
        "max_tokens": 512,
        "query": "query: ",
        "document": "passage: ",
    },
}

SENTENCES = [
    "I adopted a golden retriever puppy last weekend.",
    "By the way, I turned 32 in March.",
    "Café résumé naïve: Ünïcödé, emoji 🙂 and CJK 日本語 text!",
    "",
    # Longer than every model's limit, so truncation is exercised.
    " ".join(f"word{i} about the trip to Kyoto in spring" for i in range(120)),
]


def embed(session, tokenizer, texts, pooling):
    encodings = tokenizer.encode_batch(texts)
    ids = np.array([e.ids for e in encodings], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
    feeds = {"input_ids": ids, "attention_mask": mask}
    if "token_type_ids" in [i.name for i in session.get_inputs()]:
        feeds["token_type_ids"] = np.zeros_like(ids)
    hidden = session.run(None, feeds)[0]
    if pooling == "cls":
        pooled = hidden[:, 0]
    else:
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
    pooled = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return pooled, [len(e.ids) for e in encodings]


def main():
    store = Path(sys.argv[1])
    out = {"generator": "scripts/reference-vectors.py", "onnxruntime": onnxruntime.__version__,
           "tokenizers": tokenizers.__version__, "sentences": SENTENCES, "models": {}}
    for name, card in MODELS.items():
        folder = store / name / card["revision"]
        if not folder.exists():
            print(f"skipping {name}: {folder} not found", file=sys.stderr)
            continue
        tokenizer = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=card["max_tokens"])
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 2
        session = onnxruntime.InferenceSession(str(folder / "onnx" / "model_quantized.onnx"), options)
        entry = {}
        for kind in ("document", "query"):
            texts = [card[kind] + text for text in SENTENCES]
            # One text per call: padding inside a batch must not change a vector.
            rows = [embed(session, tokenizer, [text], card["pooling"]) for text in texts]
            entry[kind] = {
                "tokens": [row[1][0] for row in rows],
                "vectors": [[round(float(x), 7) for x in row[0][0]] for row in rows],
            }
        # The four short documents in one call, as lme batches them: an int8 model quantizes its
        # activations per call, so these differ slightly from the one-per-call vectors.
        batched, _ = embed(session, tokenizer, [card["document"] + text for text in SENTENCES[:4]], card["pooling"])
        entry["batched"] = [[round(float(x), 7) for x in row] for row in batched]
        out["models"][name] = entry
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
