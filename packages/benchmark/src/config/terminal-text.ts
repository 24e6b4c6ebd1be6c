/**
 * Control characters a terminal would act on (C0 but newline and tab, DEL, C1): escape sequences in
 * a question, a session id or a server's message could retitle the window, clear the screen or
 * overwrite what lme printed.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Writes that are only cursor and line controls (a progress bar's, via readline): kept as they are. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matches lme's own escape sequences
const OWN_CONTROLS = /^(?:\u001b\[[0-9;?]*[A-Za-z]|\u001b[78])+$/;

/** `text` with every control character shown as `\xNN`, so a terminal prints it instead of obeying. */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** What reaches stdout or stderr: a progress bar's own control writes pass, anything else is escaped. */
export function terminalSafe(chunk: string): string {
  return OWN_CONTROLS.test(chunk) ? chunk : escapeControlCharacters(chunk);
}
