/**
 * Text from untrusted sources (tool output, model text, arguments, names, reasons, answers) made
 * inert for a terminal. Removed: escape sequences (CSI, OSC such as the OSC 52 clipboard write,
 * DCS, SOS, PM, APC, and the two-character ones), in their 7-bit (`ESC [`) and 8-bit (`\x9b`)
 * forms, unterminated ones to the end of the text. Replaced by `�`: every other C0 control but
 * `\n` and `\t` (a carriage return can no longer start a forged line over a real one), DEL, the
 * C1 controls and the bidirectional controls (which reorder what is shown). Only the colour codes
 * this CLI writes itself (terminal-style.ts) are kept. Pure; linear in the text's length.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (match) =>
    OWN_STYLE.test(match) ? match : STARTS_SEQUENCE.test(match) ? '' : REPLACEMENT,
  );
}

/** Writes `text` to a terminal stream through `terminalSafe`. */
export function writeSafe(stream: NodeJS.WritableStream, text: string): void {
  stream.write(terminalSafe(text));
}

/**
 * For machine formats (JSON, markdown) printed on stdout: made safe when a person reads them in a
 * terminal, left exact when they go to a pipe or a file.
 */
export function writeForStdout(text: string): void {
  process.stdout.write(process.stdout.isTTY ? terminalSafe(text) : text);
}

const REPLACEMENT = '\uFFFD';

/** The SGR codes of terminal-style.ts: reset, dim and four colours. */
const OWN_STYLE = /^\x1b\[(?:0|2|31|32|33|36)m$/;

/**
 * One escape sequence. String sequences (OSC, DCS, SOS, PM, APC) end at BEL or ST (`ESC \` or
 * `\x9c`), at the next ESC, or at the end of the text. Every part is a run of one character class
 * disjoint from what follows it, so nothing backtracks and matching stays linear.
 */
const SEQUENCE = new RegExp(
  [
    // CSI: ESC [ or \x9b, parameters, intermediates, a final byte (or nothing: an unfinished one).
    '(?:\\x1b\\[|\\x9b)[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?',
    // OSC, DCS, SOS, PM, APC with their 8-bit forms.
    '(?:\\x1b[\\]PX^_]|[\\x9d\\x90\\x98\\x9e\\x9f])[^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c)?',
    // Any other ESC with its intermediates and final byte (ESC 7, ESC c, ESC ( B, …).
    '\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?',
  ].join('|'),
);

/** C0 but \t and \n, DEL, C1, and the bidi marks, embeddings, overrides and isolates. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** One pass, so a kept colour code's ESC is never taken for a lone control afterwards. */
const UNSAFE = new RegExp(`${SEQUENCE.source}|${CONTROL.source}`, 'g');
const STARTS_SEQUENCE = /^[\x1b\x9b\x9d\x90\x98\x9e\x9f]/;
