/**
 * BEAM's ten memory abilities, spelled as the keys of `probing_questions.json` (and in the order
 * `report_results.py` lists its columns). They are lme's question types for BEAM records.
 */
export const BEAM_ABILITIES = [
  'abstention',
  'contradiction_resolution',
  'event_ordering',
  'information_extraction',
  'instruction_following',
  'knowledge_update',
  'multi_session_reasoning',
  'preference_following',
  'summarization',
  'temporal_reasoning',
] as const;

export type BeamAbility = (typeof BEAM_ABILITIES)[number];

export function isBeamAbility(name: string): name is BeamAbility {
  return (BEAM_ABILITIES as readonly string[]).includes(name);
}
