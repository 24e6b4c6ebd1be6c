"""Runs the UNCHANGED official REALTALK memory-probing code (danny911kr/REALTALK
`eval_memory/qa_tool.py`, `QATool.invoke`) on scripted replies, for scripts/realtalk-official-check.ts.

    python3 scripts/realtalk-official.py <REALTALK checkout> <input.json> <output.jsonl>

<input.json> is {"file": <chat file>, "predictions": {"<qa index>": [<reply>, ...]}, "full": [<qa index>, ...]}.
For each question of the chat the official loop keeps (categories 4 and 5 skipped, as
evaluate_memory.py skips them) and each reply, `invoke` is called as evaluate_memory.py calls it;
the QA model answers with the reply and the GPT-score call gets {"score": 1}. Each output line holds
the question's index, the speaker order `list(set(...))` gave in this process (it follows
PYTHONHASHSEED), the SHA-256 of the reader and judge prompts sent, the lexical score, and the whole
reader prompt for the indices in "full". Needs nltk, numpy and regex (qa_tool.py's own imports);
loguru and utils/utils_llm.py (openai, pydantic, tiktoken) are stubbed, so nothing reaches a network.
"""
import contextlib
import hashlib
import importlib.util
import io
import json
import sys
import types


class Reply:
    def __init__(self, content):
        self.content = content


class ScriptedModel:
    """Stands in for utils.utils_llm.OpenAIGenerator: records what is sent, answers from `replies`."""

    replies = []
    sent = []

    def __init__(self, model, oai_api_key):
        pass

    def generate(self, messages, **kwargs):
        ScriptedModel.sent.append(messages[0].content)
        return Reply(ScriptedModel.replies.pop(0))

    def generate_json(self, messages, **kwargs):
        ScriptedModel.sent.append(messages[0].content)
        return Reply({"score": 1})


class Message:
    def __init__(self, role, content):
        self.role = role
        self.content = content


def stub_modules():
    quiet = types.SimpleNamespace(error=lambda *a, **k: None, warning=lambda *a, **k: None, info=lambda *a, **k: None)
    sys.modules["loguru"] = types.ModuleType("loguru")
    sys.modules["loguru"].logger = quiet
    sys.modules["utils"] = types.ModuleType("utils")
    sys.modules["utils"].__path__ = []
    llm = types.ModuleType("utils.utils_llm")
    llm.LLMMessage = Message
    llm.OpenAIGenerator = ScriptedModel
    sys.modules["utils.utils_llm"] = llm


def load_qa_tool(checkout):
    spec = importlib.util.spec_from_file_location("qa_tool", f"{checkout}/eval_memory/qa_tool.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main(checkout, input_path, output_path):
    stub_modules()
    qa_tool = load_qa_tool(checkout)
    request = json.load(open(input_path, encoding="utf-8"))
    with open(request["file"], encoding="utf-8") as handle:  # utils_file.read_json
        data = json.load(handle)
    if "conversation" in data:  # evaluate_memory.run_evaluate, as written
        qa_data = data["qa"]
        data = data["conversation"]
    else:
        qa_data = data["qa"]
    tool = qa_tool.QATool("scripted", evaluate_model="scripted")
    full = set(request.get("full", []))
    with open(output_path, "w", encoding="utf-8") as out:
        for index, qa in enumerate(qa_data):
            if qa["category"] in [4, 5]:
                continue
            replies = request["predictions"].get(str(index), [])
            line = {"qa_index": index, "speakers": list(set([d["speaker"] for d in data["session_1"]])), "results": []}
            for reply in replies:
                ScriptedModel.replies = [reply]
                ScriptedModel.sent = []
                with contextlib.redirect_stdout(io.StringIO()):  # compute_lexical_score prints
                    result = tool.invoke(qa["question"], qa.get("answer", ""), qa["category"], data)
                reader, judge = ScriptedModel.sent
                line["reader_sha256"] = sha256(reader)
                if index in full:
                    line["reader_prompt"] = reader
                line["results"].append({"lexical_score": result["lexical_score"], "judge_sha256": sha256(judge)})
            out.write(json.dumps(line, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
