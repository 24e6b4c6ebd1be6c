import type { ChatClient, ChatCompleteOptions } from '@lme/search-core';
import { describe, expect, it } from 'vitest';
import { buildJudgePrompt, parseJudgeReply } from '../benchmarks/longmemeval/longmemeval-rubric.js';
import { createScriptedChatClient } from '../testing/scripted-chat-client.js';
import { createJudge, type JudgeRecord } from './judge.js';
import { judgeRubrics } from './judge-rubrics.js';

/** A client that records requests and answers with scripted choices (or throws). */
const fakeClient = (replies: string[] | Error) =>
  createScriptedChatClient(replies, {
    usage: { promptTokens: 180, completionTokens: 1 },
    cached: true,
    latencyMs: 2,
  });

/** A client answering its i-th call with `replies[i]` (one choice), cached as `cached[i]` says. */
const perCallClient = (replies: string[], cached: boolean[] = []) => {
  const requests: ChatCompleteOptions[] = [];
  const client: ChatClient & { requests: ChatCompleteOptions[] } = {
    id: 'per-call',
    requests,
    async complete(request) {
      const index = requests.push(request) - 1;
      const text = replies[index] ?? '';
      return {
        text,
        texts: [text],
        usage: { promptTokens: 180, completionTokens: 1 },
        cached: cached[index] ?? false,
        latencyMs: 2,
      };
    },
  };
  return client;
};

// Expected prompts, produced by the official get_anscheck_prompt (evaluate_qa.py at f466efe0)
// on the records below. Kept here, independent of official-prompts.ts.
const EXPECTED_DEFAULT = [
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. \n',
  '\n',
  'Question: How many different types of citrus fruits have I used in my cocktail recipes?\n',
  '\n',
  'Correct Answer: 3\n',
  '\n',
  'Model Response: You have used three: lemons, limes and oranges.\n',
  '\n',
  'Is the model response correct? Answer yes or no only.',
].join('');

const EXPECTED_TEMPORAL = [
  "I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. In addition, do not penalize off-by-one errors for the number of days. If the question asks for the number of days/weeks/months, etc., and the model makes off-by-one errors (e.g., predicting 19 days when the answer is 18), the model's response is still correct. \n",
  '\n',
  'Question: How many days passed between my first yoga class and the pottery workshop?\n',
  '\n',
  'Correct Answer: 22 days. 23 days (including the last day) is also acceptable.\n',
  '\n',
  'Model Response: About 23 days.\n',
  '\n',
  'Is the model response correct? Answer yes or no only.',
].join('');

const EXPECTED_KNOWLEDGE_UPDATE = [
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response contains some previous information along with an updated answer, the response should be considered as correct as long as the updated answer is the required answer.\n',
  '\n',
  'Question: What is my current personal best time for a 5K run?\n',
  '\n',
  'Correct Answer: 25 minutes and 50 seconds (or 25:50)\n',
  '\n',
  'Model Response: It used to be 27:12, but you improved it to 25:50.\n',
  '\n',
  'Is the model response correct? Answer yes or no only.',
].join('');

const EXPECTED_PREFERENCE = [
  "I will give you a question, a rubric for desired personalized response, and a response from a model. Please answer yes if the response satisfies the desired response. Otherwise, answer no. The model does not need to reflect all the points in the rubric. The response is correct as long as it recalls and utilizes the user's personal information correctly.\n",
  '\n',
  'Question: Can you recommend some resources where I can learn more about video editing?\n',
  '\n',
  'Rubric: The user would prefer responses that suggest resources specifically tailored to Adobe Premiere Pro, especially those that delve into its advanced settings.\n',
  '\n',
  'Model Response: Since you use Adobe Premiere Pro, try the official Premiere Pro tutorials.\n',
  '\n',
  'Is the model response correct? Answer yes or no only.',
].join('');

const EXPECTED_ABSTENTION = [
  'I will give you an unanswerable question, an explanation, and a response from a model. Please answer yes if the model correctly identifies the question as unanswerable. The model could say that the information is incomplete, or some other information is given but the asked information is not.\n',
  '\n',
  'Question: What is the name of my hamster?\n',
  '\n',
  'Explanation: You did not mention this information. You mentioned your cat Luna but not your hamster.\n',
  '\n',
  'Model Response: You have not told me about a hamster; I only know about your cat Luna.\n',
  '\n',
  'Does the model correctly identify the question as unanswerable? Answer yes or no only.',
].join('');

const records: Record<string, { record: JudgeRecord; hypothesis: string; expected: string }> = {
  default: {
    record: {
      question_id: 'c4a1ceb8',
      question_type: 'multi-session',
      question: 'How many different types of citrus fruits have I used in my cocktail recipes?',
      answer: 3,
    },
    hypothesis: 'You have used three: lemons, limes and oranges.',
    expected: EXPECTED_DEFAULT,
  },
  temporal: {
    record: {
      question_id: 'gpt4_59c863d7',
      question_type: 'temporal-reasoning',
      question: 'How many days passed between my first yoga class and the pottery workshop?',
      answer: '22 days. 23 days (including the last day) is also acceptable.',
    },
    hypothesis: 'About 23 days.',
    expected: EXPECTED_TEMPORAL,
  },
  knowledgeUpdate: {
    record: {
      question_id: '6a1eabeb',
      question_type: 'knowledge-update',
      question: 'What is my current personal best time for a 5K run?',
      answer: '25 minutes and 50 seconds (or 25:50)',
    },
    hypothesis: 'It used to be 27:12, but you improved it to 25:50.',
    expected: EXPECTED_KNOWLEDGE_UPDATE,
  },
  preference: {
    record: {
      question_id: '8a2466db',
      question_type: 'single-session-preference',
      question: 'Can you recommend some resources where I can learn more about video editing?',
      answer:
        'The user would prefer responses that suggest resources specifically tailored to Adobe Premiere Pro, especially those that delve into its advanced settings.',
    },
    hypothesis: 'Since you use Adobe Premiere Pro, try the official Premiere Pro tutorials.',
    expected: EXPECTED_PREFERENCE,
  },
  abstention: {
    record: {
      question_id: '0862e8bf_abs',
      question_type: 'single-session-user',
      question: 'What is the name of my hamster?',
      answer: 'You did not mention this information. You mentioned your cat Luna but not your hamster.',
    },
    hypothesis: 'You have not told me about a hamster; I only know about your cat Luna.',
    expected: EXPECTED_ABSTENTION,
  },
};

describe('buildJudgePrompt', () => {
  for (const [name, { record, hypothesis, expected }] of Object.entries(records)) {
    it(`fills the official ${name} template exactly`, () => {
      expect(buildJudgePrompt(record, hypothesis)).toBe(expected);
    });
  }

  it('uses the default rubric for single-session-user and single-session-assistant', () => {
    const base = records['default']!;
    for (const type of ['single-session-user', 'single-session-assistant'] as const) {
      expect(buildJudgePrompt({ ...base.record, question_type: type }, base.hypothesis)).toBe(base.expected);
    }
  });

  it('fails on a question type without an official rubric', () => {
    const record = { ...records['default']!.record, question_type: 'open-domain' } as unknown as JudgeRecord;
    expect(() => buildJudgePrompt(record, 'x')).toThrow('Question c4a1ceb8 has question_type "open-domain"');
  });
});

describe('parseJudgeReply', () => {
  it.each([
    ['Yes.', true],
    ['yes', true],
    ['  YES, the response is correct', true],
    ['I think no', false],
    ['No.', false],
    ['no', false],
    ['I cannot determine that.', null],
    ['Not sure', null],
    ['', null],
  ])('reads %j as %s', (reply, expected) => {
    expect(parseJudgeReply(reply)).toBe(expected);
  });
});

describe('createJudge', () => {
  const { record, hypothesis, expected } = records['temporal']!;

  it('sends the official request: one user message, temperature 0, max_tokens 10, n 1, gpt-4o-2024-08-06', async () => {
    const client = fakeClient(['Yes.']);
    const judge = createJudge({ client });
    const result = await judge.grade({ record, hypothesis });
    expect(client.requests).toEqual([
      {
        model: 'gpt-4o-2024-08-06',
        messages: [{ role: 'user', content: expected }],
        temperature: 0,
        maxTokens: 10,
        n: 1,
      },
    ]);
    expect(result).toEqual({
      score: 1,
      scale: 'binary',
      label: true,
      votes: { yes: 1, no: 0, unparsed: 0 },
      replies: ['Yes.'],
      agreement: 1,
      usage: { promptTokens: 180, completionTokens: 1 },
      cached: true,
      latencyMs: 2,
      model: 'gpt-4o-2024-08-06',
    });
    expect(judge.id).toBe('judge:gpt-4o-2024-08-06');
  });

  it('labels "I think no" wrong', async () => {
    const result = await createJudge({ client: fakeClient(['I think no']) }).grade({ record, hypothesis });
    expect(result.label).toBe(false);
    expect(result.error).toBeUndefined();
  });

  it('records an unreadable reply as a judge error, not as wrong', async () => {
    const result = await createJudge({ client: fakeClient(['The response is partially']) }).grade({
      record,
      hypothesis,
    });
    expect(result.label).toBeNull();
    expect(result.votes).toEqual({ yes: 0, no: 0, unparsed: 1 });
    expect(result.error).toBe('The judge reply could not be read as yes or no: "The response is partially".');
  });

  it('asks k times, each call under its own sample index, and takes the majority; a tie is a judge error', async () => {
    const client = perCallClient(['yes', 'no', 'Yes']);
    const judge = createJudge({ client, samples: 3, temperature: 0.7 });
    const majority = await judge.grade({ record, hypothesis });
    expect(client.requests.map((request) => [request.n, request.temperature, request.sampleIndex])).toEqual([
      [1, 0.7, undefined],
      [1, 0.7, 1],
      [1, 0.7, 2],
    ]);
    expect(majority.label).toBe(true);
    expect(majority.votes).toEqual({ yes: 2, no: 1, unparsed: 0 });
    expect(majority.replies).toEqual(['yes', 'no', 'Yes']);
    expect(majority.agreement).toBeCloseTo(2 / 3);
    expect(judge.id).toBe('judge:gpt-4o-2024-08-06:x3:t0.7');

    const tie = await createJudge({ client: perCallClient(['yes', 'no', 'maybe']), samples: 3 }).grade({
      record,
      hypothesis,
    });
    expect(tie.label).toBeNull();
    expect(tie.agreement).toBeCloseTo(1 / 3);
    expect(tie.error).toBe('The judge votes tied (1 yes, 1 no, 1 unreadable).');
  });

  it('counts only the calls made this run when some votes come from the cache', async () => {
    const client = perCallClient(['yes', 'yes', 'no'], [true, false, true]);
    const result = await createJudge({ client, samples: 3 }).grade({ record, hypothesis });
    expect(result.cached).toBe(false);
    expect(result.usage).toEqual({ promptTokens: 180, completionTokens: 1 });
    const all = await createJudge({
      client: perCallClient(['yes', 'no', 'no'], [true, true, true]),
      samples: 3,
    }).grade({ record, hypothesis });
    expect(all).toMatchObject({
      cached: true,
      label: false,
      usage: { promptTokens: 540, completionTokens: 3 },
    });
  });

  it('fails the question (rejects with the client message) when the judge call fails, never grading it wrong', async () => {
    const failure = new Error(
      'Chat completion for model "gpt-4o-2024-08-06" failed with HTTP 500 after 7 attempts.',
    );
    await expect(createJudge({ client: fakeClient(failure) }).grade({ record, hypothesis })).rejects.toThrow(
      failure.message,
    );
  });

  it('keeps an unparseable reply a judge error label (counted wrong by the strict accuracy)', async () => {
    const result = await createJudge({ client: fakeClient(['I cannot tell']) }).grade({ record, hypothesis });
    expect(result.label).toBeNull();
    expect(result.error).toBe('The judge reply could not be read as yes or no: "I cannot tell".');
  });

  it('names the known rubrics when asked for an unknown one', () => {
    expect(() => createJudge({ client: fakeClient([]), rubric: 'nope' })).toThrow(
      `Unknown judge rubric "nope"; known: ${Object.keys(judgeRubrics()).join(', ')}.`,
    );
    expect(Object.keys(judgeRubrics())).toContain('longmemeval');
  });

  it('rethrows when the caller aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const client = fakeClient(controller.signal.reason as Error);
    await expect(
      createJudge({ client }).grade({ record, hypothesis, signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('rejects a non-positive sample count', () => {
    expect(() => createJudge({ client: fakeClient([]), samples: 0 })).toThrow(
      'Judge samples must be a positive integer',
    );
  });
});
