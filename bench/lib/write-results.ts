import fs from 'node:fs';
import path from 'node:path';

/** Fractions rounded to 3 decimals: microseconds for ms figures, with no float noise in the file. */
const round = (_key: string, value: unknown): unknown =>
  typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value;

/** Writes the results as pretty JSON, creating the folder; returns the path. */
export function writeResults(file: string, results: unknown): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, round, 2)}\n`);
  return file;
}
