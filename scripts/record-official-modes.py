"""Records what the UNCHANGED official run_generation.py `prepare_prompt` builds in the reader
modes ../shared/reference/official-prompts does not hold (useronly, Chain-of-Note, flat-turn, and
flat-session on haystacks holding a session id twice), as SHA-256 per question, for
packages/benchmark/src/qa/official-modes.test.ts and scripts/check-prompts.ts.

    python3 scripts/record-official-modes.py <LongMemEval checkout>/src/generation/run_generation.py \
        <data dir> packages/benchmark/src/qa/fixtures/official-modes.jsonl.gz

Only the standard library is needed: the script's imports (openai, backoff, transformers,
tiktoken, tqdm) are stubbed, the tokenizer never truncates (every prompt here is far below the
128k budget; truncation is covered by ../shared/reference/official-prompts), and the Chain-of-Note
client answers each note prompt with `note_reply(prompt)` (lme's test uses the same rule).
"""
import gzip
import hashlib
import importlib.util
import json
import sys
import types


def stub_modules():
    for name in ['openai', 'backoff', 'transformers', 'tiktoken', 'tqdm']:
        module = types.ModuleType(name)
        sys.modules[name] = module
    sys.modules['openai'].OpenAI = object
    sys.modules['openai'].RateLimitError = Exception
    sys.modules['backoff'].on_exception = lambda *a, **k: (lambda f: f)
    sys.modules['backoff'].constant = None
    sys.modules['transformers'].AutoTokenizer = object
    sys.modules['tqdm'].tqdm = lambda x, **k: x


def sha(text):
    return hashlib.sha256(text.encode('utf-8')).hexdigest()


def note_reply(prompt):
    """A deterministic note with surrounding whitespace and non-ASCII text."""
    return '  Note \u2713 ' + sha(prompt)[:16] + ' caf\u00e9\n'


class Tokenizer:
    def encode(self, text, allowed_special=None):
        return [0] * (len(text) // 8)


class Message:
    def __init__(self, content):
        self.content = content


class Choice:
    def __init__(self, content):
        self.message = Message(content)


class Completion:
    def __init__(self, content):
        self.choices = [Choice(content)]


class NoteClient:
    def __init__(self):
        self.calls = []
        self.chat = self
        self.completions = self

    def create(self, **kwargs):
        self.calls.append(kwargs)
        return Completion(note_reply(kwargs['messages'][0]['content']))


def turn_ranking(entry, topn):
    """Every `<session>_<n>` id plus one id naming no turn, ordered by sha256(question_id + id)."""
    ids = []
    for session_id, session in zip(entry['haystack_session_ids'], entry['haystack_sessions']):
        ids += ['{}_{}'.format(session_id, i + 1) for i in range(len(session))]
    ids.append('no_such_session_1')
    ids.sort(key=lambda x: sha(entry['question_id'] + x))
    return ids[:topn]


def session_ranking(entry):
    """A repeated session id at ranks 1 and 3, the other sessions ordered by sha256(question_id + id)."""
    twice = sorted(repeated(entry))
    others = sorted({x for x in entry['haystack_session_ids'] if x not in twice}, key=lambda x: sha(entry['question_id'] + x))
    return [twice[0], others[0], twice[0]] + others[1:] if twice else others


def repeated(entry):
    seen, twice = set(), set()
    for session_id in entry['haystack_session_ids']:
        (twice if session_id in seen else seen).add(session_id)
    return twice


def main():
    script, data_dir, out = sys.argv[1], sys.argv[2], sys.argv[3]
    stub_modules()
    spec = importlib.util.spec_from_file_location('run_generation', script)
    official = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(official)
    oracle = json.load(gzip.open(data_dir + '/longmemeval_oracle.json.gz'))
    s = json.load(gzip.open(data_dir + '/longmemeval_s_cleaned.json.gz'))
    s_repeated = [entry for entry in s if repeated(entry)]
    modes = [
        # (mode name, data, retriever_type, topk, useronly, history_format, cot, con)
        ('oracle-session-useronly-json_cot', oracle, 'oracle-session', 1000, True, 'json', True, False),
        ('oracle-session-useronly-nl_direct', oracle, 'oracle-session', 1000, True, 'nl', False, False),
        ('oracle-session-con-json_cot', oracle, 'oracle-session', 1000, False, 'json', True, True),
        ('oracle-session-con-json_direct', oracle, 'oracle-session', 1000, False, 'json', False, True),
        ('oracle-session-con-useronly-json_cot', oracle, 'oracle-session', 1000, True, 'json', True, True),
        ('flat-turn-top10-json_cot', oracle, 'flat-turn', 10, False, 'json', True, False),
        ('flat-turn-top10-nl_direct', oracle, 'flat-turn', 10, False, 'nl', False, False),
        ('flat-turn-top10-con-json_cot', oracle, 'flat-turn', 10, False, 'json', True, True),
        ('s-repeated-flat-session-top10-json_cot', s_repeated, 'flat-session', 10, False, 'json', True, False),
        ('s-repeated-flat-session-top10-useronly-nl_direct', s_repeated, 'flat-session', 10, True, 'nl', False, False),
    ]
    with gzip.open(out, 'wt', encoding='utf-8') as out_file:
        for name, data, retriever_type, topk, useronly, history_format, cot, con in modes:
            for original in data:
                entry = json.loads(json.dumps(original))  # prepare_prompt pops has_answer in place
                ranking = None
                if retriever_type == 'flat-turn':
                    ranking = turn_ranking(entry, 60)
                elif retriever_type == 'flat-session':
                    ranking = session_ranking(entry)
                if ranking is not None:
                    entry['retrieval_results'] = {'ranked_items': [{'corpus_id': x, 'text': ''} for x in ranking]}
                client = NoteClient()
                prompt = official.prepare_prompt(
                    entry, retriever_type, topk, useronly, history_format, cot,
                    tokenizer=Tokenizer(), tokenizer_backend='openai', max_retrieval_length=128000 - 800 - 1000,
                    merge_key_expansion_into_value='none', con=con, con_client=client, con_model='gpt-4o-2024-08-06')
                note_hashes = [sha(call['messages'][0]['content']) for call in client.calls]
                line = {
                    'mode': name,
                    'question_id': entry['question_id'],
                    'prompt_sha256': sha(prompt),
                    'prompt_chars': len(prompt),
                }
                if client.calls:
                    line['note_calls'] = len(client.calls)
                    line['notes_sha256'] = sha(''.join(note_hashes))
                    line['note_params'] = {k: v for k, v in client.calls[0].items() if k != 'messages'}
                print(json.dumps(line), file=out_file)
            print(name, len(data), file=sys.stderr)


if __name__ == '__main__':
    main()
