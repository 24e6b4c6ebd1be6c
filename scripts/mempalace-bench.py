#!/usr/bin/env python3
"""MemPalace's own benchmark retrieval (no LLM), for comparing with lme's recipes.

Runs `run_benchmark` of MemPalace/mempalace `benchmarks/locomo_bench.py` or
`benchmarks/longmemeval_bench.py` (read them at 9b7cfc99: `git show 9b7cfc99:benchmarks/<file>`)
in the MemPalace bridge's virtual environment, at session granularity, with Chroma's default
embedding function (ONNXMiniLM_L6_V2) reading the local model files the bridge install records
instead of downloading its own. Their script prints its summary (overall and per type or category);
their per-question log is written to --out.

  ~/.cache/lme/bridges/mempalace/venv/bin/python scripts/mempalace-bench.py \
      --bench locomo_bench.py --data locomo10.json --mode raw --out theirs.json
  ~/.cache/lme/bridges/mempalace/venv/bin/python scripts/mempalace-bench.py \
      --bench longmemeval_bench.py --data longmemeval_s_cleaned.json --mode raw --out theirs.jsonl
"""

import argparse
import importlib.util
import os



def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", required=True, help="their benchmarks/locomo_bench.py or longmemeval_bench.py")
    parser.add_argument("--data", required=True, help="the dataset file their script reads (plain JSON)")
    parser.add_argument("--mode", choices=["raw", "hybrid"], default="raw")
    parser.add_argument("--top-k", type=int, default=10, help="LoCoMo only: the top k sessions")
    parser.add_argument("--out", required=True, help="where their per-question log goes")
    parser.add_argument("--model", required=True, help="all-MiniLM-L6-v2 model.onnx (fp32)")
    parser.add_argument("--tokenizer", required=True, help="its tokenizer.json")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    os.environ["ANONYMIZED_TELEMETRY"] = "False"
    # The same local stand-in for Chroma's model download as scripts/mempalace-rankings.py.
    spec_helper = importlib.util.spec_from_file_location(
        "mempalace_rankings", os.path.join(os.path.dirname(os.path.abspath(__file__)), "mempalace-rankings.py"))
    helper = importlib.util.module_from_spec(spec_helper)
    spec_helper.loader.exec_module(helper)
    helper.local_default_embedding(args.model, args.tokenizer)

    name = os.path.splitext(os.path.basename(args.bench))[0]
    spec = importlib.util.spec_from_file_location(name, args.bench)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    if name == "locomo_bench":
        bench.run_benchmark(args.data, top_k=args.top_k, mode=args.mode, granularity="session", out_file=args.out)
    else:
        bench.run_benchmark(args.data, granularity="session", mode=args.mode, out_file=args.out)


if __name__ == "__main__":
    main()
