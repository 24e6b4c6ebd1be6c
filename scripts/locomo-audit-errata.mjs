#!/usr/bin/env node
// Writes configs/errata/locomo.json: lme's errata for all ten conversations of locomo10.json,
// built from the public LoCoMo audit (dial481/locomo-audit at 9493fb4, audit/errors_conv_<i>.json,
// CC BY-NC 4.0) and lme's own review of conv-26 (configs/errata/locomo10-conv26.json), which wins
// where the two differ. Every entry names its source (audit file and entry); the `verified` text is
// lme's own: what this script checked against locomo10.json and the turns it quotes from it.
//
//   node scripts/locomo-audit-errata.mjs <locomo10.json> <folder with errors_conv_0..9.json>
//   pnpm -s biome format --write configs/errata/locomo.json
//
// Neither input is committed (locomo10.json and the audit are CC BY-NC 4.0 data).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const AUDIT = 'dial481/locomo-audit at commit 9493fb4 (CC BY-NC 4.0)';
const [datasetPath, auditDir] = process.argv.slice(2);
if (!datasetPath || !auditDir) {
  console.error('usage: node scripts/locomo-audit-errata.mjs <locomo10.json> <audit folder>');
  process.exit(2);
}
const repo = resolve(import.meta.dirname, '..');
const text = readFileSync(datasetPath, 'utf8');
const sha256 = createHash('sha256').update(text).digest('hex');
const conversations = JSON.parse(text);
const conv26 = JSON.parse(readFileSync(join(repo, 'configs/errata/locomo10-conv26.json'), 'utf8'));

const clip = (value, length) => {
  const flat = String(value).replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
};
const sameAnswer = (left, right) =>
  String(left).replace(/\s+/g, ' ').trim().toLowerCase() ===
  String(right).replace(/\s+/g, ' ').trim().toLowerCase();
const sameIds = (left, right) => JSON.stringify([...left].sort()) === JSON.stringify([...right].sort());

/** The turns of a conversation by dialog id (`D3:7`). */
function turnsOf(conversation) {
  const turns = new Map();
  for (const [key, value] of Object.entries(conversation.conversation)) {
    if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
    for (const turn of value) turns.set(turn.dia_id, turn);
  }
  return turns;
}

/** `D2:1 Melanie: "…" [shares an image: …]` */
function quote(turns, id) {
  const turn = turns.get(id);
  const image = turn.blip_caption ? ` [shares an image: ${clip(turn.blip_caption, 80)}]` : '';
  return `${id} ${turn.speaker}: "${clip(turn.text, 140)}"${image}`;
}

/**
 * What the audit's corrected answer says about the published label: `exclude` when no answer
 * fits (the question names the wrong person, the transcript cannot settle it), `premise` when the
 * published answer stands and only the question's wording (a date, a name) is off, else a new answer.
 */
function answerVerdict(entry) {
  const corrected = String(entry.correct_answer);
  if (entry.error_type === 'AMBIGUOUS' || entry.error_type === 'ATTRIBUTION_ERROR') return 'exclude';
  if (
    /^(cannot|unknown|uncertain|unclear|the transcript does not|the evidence does not|the slow cooker meal is unspecified)/i.test(
      corrected,
    ) ||
    /\b(did not|never) (take|have|get)\b/i.test(corrected) ||
    /^the '.*' event occurred/i.test(corrected)
  ) {
    return 'exclude';
  }
  if (
    /\((but|answer is correct)[^)]*\)\.?$/i.test(corrected) ||
    /^the golden answer .* is correct/i.test(corrected)
  ) {
    return 'premise';
  }
  if (
    /happened in .* not .* as stated in the question|\(not .* as stated in the question\)/i.test(corrected)
  ) {
    return 'premise';
  }
  return 'answer';
}

const TYPE_WORDS = {
  WRONG_CITATION: 'cites the wrong turns',
  HALLUCINATION: 'has a gold answer the transcript does not support',
  TEMPORAL_ERROR: 'has a date or duration the session dates do not give',
  ATTRIBUTION_ERROR: 'attributes the fact to the wrong speaker',
  AMBIGUOUS: 'has a gold answer the transcript leaves open',
  INCOMPLETE: 'has a gold answer that leaves out items the transcript names',
};

const entries = [];
const reviewed = [...conv26.reviewed];
const conv26Keys = new Set(conv26.entries.map((entry) => `${entry.question_id}\0${entry.field}`));
const conv26Reviewed = new Set(conv26.reviewed.map((entry) => entry.question_id));
let auditEntries = 0;

conversations.forEach((conversation, index) => {
  const file = `audit/errors_conv_${index}.json`;
  const audit = JSON.parse(readFileSync(join(auditDir, `errors_conv_${index}.json`), 'utf8'));
  const turns = turnsOf(conversation);
  const sampleId = conversation.sample_id;
  if (index === 0) {
    if (sampleId !== 'conv-26') throw new Error('conversation 0 is not conv-26');
    // lme's own entries, their source saying now whether the audit lists the question.
    const listed = new Map(
      audit.map((item) => [`conv-26_q${Number(/qa(\d+)$/.exec(item.question_id)[1]) + 1}`, item]),
    );
    const withAudit = (entry) => {
      const id = entry.question_id.replace(/_abs$/, '');
      const item = listed.get(id);
      const said = item
        ? `the locomo-audit (${AUDIT}, audit/errors_conv_0.json) lists it too, as entry ${item.question_id} (${item.error_type})`
        : `the locomo-audit (${AUDIT}, audit/errors_conv_0.json) does not list it`;
      return { ...entry, source: `${entry.source.replace(/\. The locomo-audit list .*$/, '')}; ${said}` };
    };
    entries.push(...conv26.entries.map(withAudit));
    reviewed.splice(0, reviewed.length, ...conv26.reviewed.map(withAudit));
  }
  for (const item of audit) {
    auditEntries++;
    const position = Number(/^locomo_\d+_qa(\d+)$/.exec(item.question_id)[1]);
    const qa = conversation.qa[position];
    if (!qa || qa.question !== item.question) {
      throw new Error(`${file} ${item.question_id}: not question ${position} of ${sampleId}`);
    }
    const publishedAnswer = qa.answer ?? qa.adversarial_answer;
    const questionId = `${sampleId}_q${position + 1}${qa.category === 5 ? '_abs' : ''}`;
    const source = `${AUDIT}, ${file}, entry ${item.question_id} (${item.error_type})`;
    const head = `Question ${position + 1} of ${sampleId}, "${clip(qa.question, 120)}" (category ${qa.category}); the audit says it ${TYPE_WORDS[item.error_type]}.`;
    if (!sameIds(item.cited_evidence, qa.evidence) || !sameAnswer(item.golden_answer, publishedAnswer)) {
      throw new Error(`${file} ${item.question_id}: the audit quotes another label than ${datasetPath}`);
    }
    const missing = item.correct_evidence.filter((id) => !turns.has(id));
    const skip = (field, finding) =>
      reviewed.push({ question_id: questionId, source, finding: `Not adopted (${field}): ${finding}` });
    const lmeReviewed = index === 0 && conv26Reviewed.has(questionId);

    if (!sameIds(item.correct_evidence, item.cited_evidence)) {
      if (lmeReviewed || conv26Keys.has(`${questionId}\0evidence`)) {
        skip(
          'evidence',
          "lme's own review of conv-26 (locomo10-conv26.json) decides this question's evidence.",
        );
      } else if (missing.length > 0 || item.correct_evidence.length === 0) {
        skip(
          'evidence',
          `the corrected evidence names ${missing.join(', ') || 'no turn'}, not a turn of ${sampleId}.`,
        );
      } else {
        entries.push({
          question_id: questionId,
          kind: 'evidence',
          field: 'evidence',
          published: qa.evidence,
          corrected: item.correct_evidence,
          source,
          verified: `${head} Checked by scripts/locomo-audit-errata.mjs against locomo10.json: the published evidence is ${qa.evidence.join(', ')}; the corrected turns exist and read: ${item.correct_evidence.map((id) => quote(turns, id)).join('; ')}.`,
        });
      }
    }
    if (sameAnswer(item.correct_answer, publishedAnswer) || item.error_type === 'WRONG_CITATION') continue;
    if (lmeReviewed || conv26Keys.has(`${questionId}\0answer`)) {
      skip('answer', "lme's own review of conv-26 (locomo10-conv26.json) decides this question's answer.");
      continue;
    }
    const verdict = answerVerdict(item);
    if (verdict === 'premise') {
      skip(
        'answer',
        `the audit keeps the published answer and notes that the question's own wording is off (${clip(item.correct_answer, 160)}).`,
      );
      continue;
    }
    const shown = [...new Set([...qa.evidence, ...item.correct_evidence])].filter((id) => turns.has(id));
    entries.push({
      question_id: questionId,
      kind: 'gold-answer',
      field: 'answer',
      published: publishedAnswer,
      corrected: verdict === 'exclude' ? 'exclude' : item.correct_answer,
      source,
      verified: `${head} ${verdict === 'exclude' ? 'No single answer fits, so lme leaves the question out of every mean.' : 'lme uses the answer the audit gives.'} Checked by scripts/locomo-audit-errata.mjs against locomo10.json: the published answer is "${clip(publishedAnswer, 100)}"; the turns it rests on read: ${shown.map((id) => quote(turns, id)).join('; ') || 'none named'}.`,
    });
  }
});

const out = {
  name: 'locomo',
  version: 1,
  dataset: `LoCoMo, all ten conversations of the published locomo10.json (snap-research/locomo data/locomo10.json, ${conversations.reduce((sum, conversation) => sum + conversation.qa.length, 0)} QA)`,
  checksum: 'SHA-256 of the uncompressed JSON text, as config.json records it under dataset.sha256',
  files: [
    {
      sha256,
      note: `locomo10.json as snap-research/locomo publishes it (the copy in ${AUDIT} data/locomo10.json, which that repository verifies against upstream); built by scripts/locomo-audit-errata.mjs from the audit's ${auditEntries} entries and lme's own review of conv-26`,
    },
  ],
  entries,
  reviewed,
};
writeFileSync(join(repo, 'configs/errata/locomo.json'), `${JSON.stringify(out, null, 2)}\n`);
const questions = new Set(entries.map((entry) => entry.question_id));
console.log(
  `configs/errata/locomo.json: ${entries.length} entries on ${questions.size} questions, ${reviewed.length} reviewed and not adopted`,
);
