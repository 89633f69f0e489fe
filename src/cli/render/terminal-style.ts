/** Colour only when a person reads stderr in a terminal and has not asked for none (NO_COLOR). */
const useColour = process.stderr.isTTY && !process.env['NO_COLOR'];
const paint = (code: number) => (text: string) => (useColour ? `\u001b[${code}m${text}\u001b[0m` : text);

export const dim = paint(2);
export const cyan = paint(36);
export const green = paint(32);
export const red = paint(31);
export const yellow = paint(33);

export const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
export const oneLine = (value: unknown, max = 160): string =>
  clip((typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' '), max);

/** `12,345`: token counts read at a glance, the same on every machine. */
export const count = (n: number): string => n.toLocaleString('en-US');
export const usd = (n: number): string => `$${n.toFixed(4)}`;

/** Prefixes every line of a multi-line block. */
export const indent = (text: string, prefix: string): string =>
  text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
