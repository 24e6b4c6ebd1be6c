import { createRequire } from 'node:module';

// compromise takes about a second to load: it is loaded on first use, so a run without query
// understanding (and `lme --help`) never pays for it.
const require = createRequire(import.meta.url);
let nlpModule: typeof import('compromise').default | undefined;
function nlp(): typeof import('compromise').default {
  nlpModule ??= require('compromise') as typeof import('compromise').default;
  return nlpModule;
}

export type EntitySource = 'quoted' | 'name' | 'noun';

const QUOTED = /(?<![\p{L}\p{N}])["“'‘]([^"“”'‘’\n]{2,80}?)["”'’](?![\p{L}\p{N}])/gu;
const CAPITALISED = /[A-Z][\p{L}\p{N}&'’.-]*/u;
const NAME = new RegExp(
  String.raw`(?<![\p{L}\p{N}])${CAPITALISED.source}(?:\s+(?:(?:of|the|de|la|du|van|von|and|&)\s+)*${CAPITALISED.source})*`,
  'gu',
);
const CALENDAR_WORDS = new Set(
  (
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july ' +
    'august september october november december'
  ).split(' '),
);
/** Words that start a question or stand for the speaker; never an entity on their own. */
const NON_NAME_WORDS = new Set(
  (
    'i im ive id ill what where when who whom whose which why how can could would should will shall do does ' +
    'did is are was were have has had may might must my our your the a an in on at for to and or but if ' +
    'please hey hi hello also so yes no ok okay'
  ).split(' '),
);
/** Nouns every conversation question uses; they name nothing to look for. */
const GENERIC_NOUNS = new Set(
  (
    'name names thing things stuff time times day days week weeks month months year years ago lot lots way ' +
    'kind type order question questions chat chats conversation conversations discussion i me you'
  ).split(' '),
);

function plainWord(word: string): string {
  return word.toLowerCase().replace(/[’']/g, '');
}

function cleanName(name: string): string {
  return name
    .replace(/['’]s$/u, '')
    .replace(/[.'’-]+$/u, '')
    .trim();
}

/** Entities of a question in order: quoted strings, capitalised names, then compromise's nouns. */
export function extractEntities(
  question: string,
  temporalSpans: readonly { index: number; length: number }[],
): { entity: string; source: EntitySource }[] {
  const found: { entity: string; source: EntitySource }[] = [];
  const seen = new Set<string>();
  const add = (entity: string, source: EntitySource) => {
    const key = entity.toLowerCase();
    if (entity.length < 2 || seen.has(key)) return;
    seen.add(key);
    found.push({ entity, source });
  };
  // Spans already taken (temporal words, quotes, names) are blanked before noun extraction, with
  // a comma so compromise does not join the words around them into one phrase.
  const taken = temporalSpans.map((span) => ({ ...span }));

  for (const match of question.matchAll(QUOTED)) {
    add(match[1]!.trim(), 'quoted');
    taken.push({ index: match.index, length: match[0].length });
  }
  for (const match of question.matchAll(NAME)) {
    const overlapsTaken = taken.some(
      (span) => match.index < span.index + span.length && span.index < match.index + match[0].length,
    );
    let words = match[0].split(/\s+/);
    const sentenceStart = match.index === 0 || /[.!?]\s*$/.test(question.slice(0, match.index));
    // Drop leading question words and pronouns ("Where", "Can", "I'm") and calendar words.
    while (words.length > 0 && NON_NAME_WORDS.has(plainWord(words[0]!))) words = words.slice(1);
    while (words.length > 0 && /^(?:of|the|de|la|du|van|von|and|&)$/i.test(words[0]!)) words = words.slice(1);
    const name = cleanName(words.join(' '));
    const single = words.length === 1;
    if (!name || overlapsTaken) continue;
    if (single && (CALENDAR_WORDS.has(plainWord(name)) || (sentenceStart && words[0] === match[0]))) continue;
    add(name, 'name');
    // A single capitalised word often heads a noun phrase ("Korean restaurants"): left for nouns too.
    if (!single) taken.push({ index: match.index, length: match[0].length });
  }

  let blanked = question;
  for (const span of [...taken].sort((left, right) => right.index - left.index))
    blanked = blanked.slice(0, span.index) + ' , ' + blanked.slice(span.index + span.length);
  const nouns: string[] = nlp()(blanked).match('#Noun+').not('(#Pronoun|#Determiner)').out('array');
  for (const phrase of nouns) {
    const words = phrase
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s&'’-]/gu, ' ')
      .split(/\s+/)
      .map((word) => word.replace(/^['’-]+|['’-]+$/g, '').replace(/['’]s$/, ''))
      .filter((word) => word && !NON_NAME_WORDS.has(plainWord(word)));
    const noun = words.join(' ');
    if (!noun || /^\d+$/.test(noun) || GENERIC_NOUNS.has(noun) || CALENDAR_WORDS.has(noun)) continue;
    add(noun, 'noun');
  }
  return found;
}
