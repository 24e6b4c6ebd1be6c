"""Runs the UNCHANGED official LongMemEval evaluate_qa.py on an lme run's hypotheses.jsonl against
an OpenAI-compatible judge at JUDGE_BASE_URL (for example the loopback judge of
scripts/answering-memory-server.ts), then compares its per-question labels with the judge labels
lme stored in the run's samples.jsonl.

    JUDGE_BASE_URL=http://127.0.0.1:PORT/v1 python3 scripts/evaluate-qa-loopback.py \
        <LongMemEval checkout>/src/evaluation/evaluate_qa.py <run dir> <dataset .json or .json.gz>

Only the standard library and numpy are needed: the script's imports `openai`, `backoff` and `tqdm`
are stubbed, the OpenAI client by a urllib POST of the same request body to
`$JUDGE_BASE_URL/chat/completions`. The official script reads the reference file with json.load,
so a .json.gz dataset is unpacked to a temporary file first.
"""
import gzip
import io
import json
import os
import runpy
import shutil
import sys
import tempfile
import types
import urllib.request


class _Message:
    def __init__(self, content):
        self.content = content


class _Choice:
    def __init__(self, content):
        self.message = _Message(content)


class _Completion:
    def __init__(self, body):
        self.choices = [_Choice(choice['message']['content']) for choice in body['choices']]


class _Completions:
    def create(self, **kwargs):
        request = urllib.request.Request(
            os.environ['JUDGE_BASE_URL'].rstrip('/') + '/chat/completions',
            data=json.dumps(kwargs).encode('utf-8'),
            headers={'content-type': 'application/json'},
        )
        with urllib.request.urlopen(request) as response:
            return _Completion(json.load(response))


class _Chat:
    completions = _Completions()


class _OpenAI:
    def __init__(self, **kwargs):
        self.chat = _Chat()


def stub_modules():
    openai = types.ModuleType('openai')
    openai.OpenAI = _OpenAI
    openai.RateLimitError = type('RateLimitError', (Exception,), {})
    openai.APIError = type('APIError', (Exception,), {})
    sys.modules['openai'] = openai
    backoff = types.ModuleType('backoff')
    backoff.on_exception = lambda *a, **k: (lambda f: f)
    backoff.expo = None
    sys.modules['backoff'] = backoff
    tqdm = types.ModuleType('tqdm')
    tqdm.tqdm = lambda x, **k: x
    sys.modules['tqdm'] = tqdm


def main():
    script, run_dir, dataset = sys.argv[1:4]
    work = tempfile.mkdtemp(prefix='lme-evaluate-qa-')
    reference = os.path.join(work, 'reference.json')
    with (gzip.open(dataset, 'rb') if dataset.endswith('.gz') else open(dataset, 'rb')) as source:
        with open(reference, 'wb') as target:
            shutil.copyfileobj(source, target)
    hypotheses = os.path.join(work, 'hypotheses.jsonl')
    shutil.copy(os.path.join(run_dir, 'hypotheses.jsonl'), hypotheses)
    stub_modules()
    sys.argv = [script, 'gpt-4o', hypotheses, reference]
    stdout = sys.stdout
    sys.stdout = printed = io.StringIO()  # the official script prints every verdict, then its summary
    try:
        runpy.run_path(script, run_name='__main__')
    finally:
        sys.stdout = stdout
    lines = printed.getvalue().splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith('Accuracy:'))
    print('evaluate_qa.py printed (over every hypothesis, empty ones included):')
    print('\n'.join(line for line in lines[start:] if not line.startswith('Saved to')))
    official = {}
    with open(hypotheses + '.eval-results-gpt-4o') as results:
        for line in results:
            entry = json.loads(line)
            official[entry['question_id']] = entry['autoeval_label']['label']
    samples = [json.loads(line) for line in open(os.path.join(run_dir, 'samples.jsonl'))]
    same = differ = 0
    for sample in samples:
        qid = sample['question_id']
        lme = (sample.get('judge') or {}).get('label')
        if sample.get('error'):
            print(f'{qid}: lme error ({sample["error"][:60]}...); official label: {official.get(qid, "not judged (no hypothesis)")}')
            continue
        if official.get(qid) == lme:
            same += 1
        else:
            differ += 1
            print(f'{qid}: lme {lme}, official {official.get(qid)}')
    judged = [sample for sample in samples if not sample.get('error')]
    print(f'official evaluate_qa.py labels {len(official)} hypotheses: {sum(official.values())} yes')
    print(f'questions lme judged: {len(judged)}; same label as official: {same}; different: {differ}')
    right = sum(1 for sample in judged if official.get(sample['question_id']))
    print(f'official accuracy over the questions lme judged: {right}/{len(judged)} = {right / len(judged):.4f}')
    shutil.rmtree(work)


if __name__ == '__main__':
    main()
