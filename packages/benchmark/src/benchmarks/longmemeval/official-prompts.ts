/**
 * The official LongMemEval prompts and generation constants, copied verbatim (character for
 * character; `{}` are Python `str.format` fields, filled with `pythonFormat`).
 *
 * Sources (github.com/xiaowu0162/LongMemEval):
 * - judge: `src/evaluation/evaluate_qa.py`, function `get_anscheck_prompt` and the `__main__`
 *   loop, at commit f466efe0ea8859251760733cd4c7ad98302b9ddf (same templates as b11ff723);
 * - reader: `src/generation/run_generation.py`, functions `prepare_prompt` and `main`, at commit
 *   d0c699faf593726d96a6c75768e0fd2016d1feb8 (same prompts as 283612f4);
 * - defaults: `src/generation/run_generation.sh` and `README.md` at the same commit.
 *
 * Do not edit these strings: they are the benchmark's definition. Changes belong in new,
 * differently named templates.
 */

// ---------------------------------------------------------------------------------------------
// Judge (evaluate_qa.py)
// ---------------------------------------------------------------------------------------------

/** `single-session-user`, `single-session-assistant`, `multi-session`. Fields: question, answer, response. */
export const JUDGE_TEMPLATE_DEFAULT =
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. \n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.';

/** `temporal-reasoning`: the default rubric plus off-by-one tolerance for counts of days/weeks/months. */
export const JUDGE_TEMPLATE_TEMPORAL_REASONING =
  "I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. In addition, do not penalize off-by-one errors for the number of days. If the question asks for the number of days/weeks/months, etc., and the model makes off-by-one errors (e.g., predicting 19 days when the answer is 18), the model's response is still correct. \n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.";

/** `knowledge-update`: previous information alongside the updated answer is still correct. */
export const JUDGE_TEMPLATE_KNOWLEDGE_UPDATE =
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response contains some previous information along with an updated answer, the response should be considered as correct as long as the updated answer is the required answer.\n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.';

/** `single-session-preference`: the answer field is a rubric. Fields: question, rubric, response. */
export const JUDGE_TEMPLATE_SINGLE_SESSION_PREFERENCE =
  "I will give you a question, a rubric for desired personalized response, and a response from a model. Please answer yes if the response satisfies the desired response. Otherwise, answer no. The model does not need to reflect all the points in the rubric. The response is correct as long as it recalls and utilizes the user's personal information correctly.\n\nQuestion: {}\n\nRubric: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.";

/** Abstention (`_abs` in the question id), whatever the question type. Fields: question, explanation, response. */
export const JUDGE_TEMPLATE_ABSTENTION =
  'I will give you an unanswerable question, an explanation, and a response from a model. Please answer yes if the model correctly identifies the question as unanswerable. The model could say that the information is incomplete, or some other information is given but the asked information is not.\n\nQuestion: {}\n\nExplanation: {}\n\nModel Response: {}\n\nDoes the model correctly identify the question as unanswerable? Answer yes or no only.';

/** The judge model the paper reports with (`model_zoo['gpt-4o']`; print_qa_metrics.py asserts it). */
export const OFFICIAL_JUDGE_MODEL = 'gpt-4o-2024-08-06';

/** Judge request: one user message, `n: 1`, `temperature: 0`, `max_tokens: 10`. */
export const JUDGE_MAX_TOKENS = 10;

// ---------------------------------------------------------------------------------------------
// Reader (run_generation.py, prepare_prompt; `merge_key_expansion_into_value == 'none'`)
// ---------------------------------------------------------------------------------------------

/** `--cot false` (reading method `direct`). Fields: history, current date, question. */
export const READER_TEMPLATE_DIRECT =
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer:';

/**
 * `--cot true` (reading method `con`, the README's recommendation: extract the relevant
 * information, then reason over it). Fields: history, current date, question.
 */
export const READER_TEMPLATE_COT =
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history. Answer the question step by step: first extract all the relevant information, and then reason over the information to get the answer.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer (step by step):';

/** With user-fact expansion merged into the sessions (`merge`), direct. Kept for fact-expansion providers. */
export const READER_TEMPLATE_MERGE_DIRECT =
  'I will give you several history chats between you and a user, as well as the relevant user facts extracted from the chat history. Please answer the question based on the relevant chat history and the user facts\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer:';

/** With user-fact expansion merged into the sessions (`merge`), step by step. */
export const READER_TEMPLATE_MERGE_COT =
  'I will give you several history chats between you and a user, as well as the relevant user facts extracted from the chat history. Please answer the question based on the relevant chat history and the user facts. Answer the question step by step: first extract all the relevant information, and then reason over the information to get the answer.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer (step by step):';

/** With extracted facts replacing the sessions (`replace`), direct. */
export const READER_TEMPLATE_REPLACE_DIRECT =
  'I will give you several facts extracted from history chats between you and a user. Please answer the question based on the relevant facts.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer:';

/** With extracted facts replacing the sessions (`replace`), step by step. */
export const READER_TEMPLATE_REPLACE_COT =
  'I will give you several facts extracted from history chats between you and a user. Please answer the question based on the relevant facts. Answer the question step by step: first extract all the relevant information, and then reason over the information to get the answer.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer (step by step):';

/** `no-retrieval` (closed book): the question alone. */
export const READER_TEMPLATE_NO_RETRIEVAL_DIRECT = '{}';

/** `no-retrieval` with `--cot true`. */
export const READER_TEMPLATE_NO_RETRIEVAL_COT = '{}Answer step by step.';

/**
 * Reading method `con-separate` (`--con true`): a note is first extracted from each session with
 * this prompt (`max_tokens: 500`, `temperature: 0`; the session as `json.dumps` of its turns),
 * then the notes are read with the reader template (`con-separate` in run_generation.sh uses
 * `--cot true`; `--con true --cot false` is allowed). Fields: session date, session content,
 * question date, question. Used by reader-notes.ts.
 */
export const CON_NOTE_TEMPLATE =
  'I will give you a chat history between you and a user, as well as a question from the user. Write reading notes to extract all the relevant user information relevant to answering the answer. If no relevant information is found, just output "empty". \n\n\nChat History:\nSession Date: {}\nSession Content:\n{}\n\nQuestion Date: {}\nQuestion: {}\nExtracted note (information relevant to answering the question):';

/** One session in the history, for session-granularity retrievers. Fields: 1-based index, date, content. */
export const HISTORY_SESSION_TEMPLATE = '\n### Session {}:\nSession Date: {}\nSession Content:\n{}\n';

/** One turn in `nl` history format: `"\n\n{}: {}".format(role, content.strip())`. */
export const HISTORY_NL_TURN_TEMPLATE = '\n\n{}: {}';

/** `json` history format: `'\n' + json.dumps(session_turns)` (with `has_answer` removed). */
export const HISTORY_JSON_PREFIX = '\n';

/**
 * `gen_length = 500 if not args.cot else 800` as written in `main`: 500 direct, 800 step by step.
 * Not what the script sends: see OFFICIAL_READER_MAX_TOKENS.
 */
export const READER_GEN_LENGTH = { direct: 500, cot: 800 } as const;

/**
 * What run_generation.py actually sends as `max_tokens` for BOTH prompt styles. In `main`,
 * `gen_length = 500 if not args.cot else 800` tests `args.cot`, which argparse leaves as the
 * string `'true'` or `'false'` (`choices=['true', 'false']`); a non-empty string is always truthy,
 * so `not args.cot` is False and gen_length is 800 even for `--cot false`. The history budget is
 * therefore `model_max_length - 800 - 1000`. (prepare_prompt gets `args.cot == 'true'`, so the
 * template does follow the flag.) Recorded in ../shared/reference/official-prompts.
 */
export const OFFICIAL_READER_MAX_TOKENS = 800;

/** Chain-of-Note note extraction (`con_prompt` call in prepare_prompt): `max_tokens: 500`. */
export const CON_NOTE_MAX_TOKENS = 500;

/** `max_retrieval_length = model_max_length - gen_length - 1000`: tokens kept for the history. */
export const READER_PROMPT_RESERVE_TOKENS = 1000;

/** `tiktoken.get_encoding('o200k_base')` for models whose name contains gpt-4 or gpt-3.5. */
export const READER_TOKENIZER = 'o200k_base';

/** `model2maxlength` in `main` (context lengths in tokens). */
export const OFFICIAL_MODEL_MAX_LENGTH: Readonly<Record<string, number>> = {
  'gpt-4o': 128000,
  'gpt-4o-2024-08-06': 128000,
  'gpt-4o-mini-2024-07-18': 128000,
  'meta-llama/Meta-Llama-3.1-8B-Instruct': 128000,
  'meta-llama/Meta-Llama-3.1-70B-Instruct': 128000,
  'microsoft/Phi-3-medium-128k-instruct': 120000,
  'microsoft/Phi-3.5-mini-instruct': 120000,
  'microsoft/phi-4': 16000,
  'mistral-7b-instruct-v0.2': 32000,
  'mistral-7b-instruct-v0.3': 32000,
  'In2Training/FILM-7B': 32000,
};

/**
 * `TOPK` for `full-history-session`: "We recommend setting it to a large number (e.g., 1000) to
 * ensure including all the history sessions" (README). The script keeps the latest TOPK sessions.
 */
export const FULL_HISTORY_TOP_K = 1000;
