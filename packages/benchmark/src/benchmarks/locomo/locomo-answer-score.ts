/**
 * The official LoCoMo QA score under LoCoMo's names; the rule itself is shared with REALTALK
 * (`../stemmed-answer-f1.ts`).
 */
export {
  goldUsed as locomoGoldUsed,
  multiAnswerF1 as locomoMultiAnswerF1,
  normalizeAnswer as normalizeLocomoAnswer,
  numpyMean,
  pythonSplit,
  pythonStripWhitespace,
  type StemmedAnswerInput as LocomoAnswerInput,
  saysNotMentioned,
  scoreStemmedAnswer as scoreLocomoAnswer,
  stemmedTokenF1 as locomoTokenF1,
} from '../stemmed-answer-f1.js';
