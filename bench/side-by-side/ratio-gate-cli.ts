import fs from 'node:fs';
import { checkRatios, gateReport } from './ratio-gate';
import type { SideBySideResults } from './side-by-side-results';

/**
 * `node .thoughtline/bench-dist/bench/side-by-side/ratio-gate-cli.js RESULT.json`: the ratio gate
 * over one `npm run bench:peers` result (ratio-gate.ts). Prints the table; exits 1 when a ratio is
 * over its bound or a figure is missing, 2 when the file cannot be read.
 */
function main(argv: readonly string[]): number {
  const file = argv[0];
  if (!file || argv.length > 1) {
    console.error('usage: ratio-gate-cli.js RESULT.json (a result of npm run bench:peers)');
    return 2;
  }
  let results: SideBySideResults;
  try {
    results = JSON.parse(fs.readFileSync(file, 'utf8')) as SideBySideResults;
  } catch (err) {
    console.error(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const verdict = checkRatios(results);
  console.log(`Ratio gate: Thoughtline over the bare Temporal SDK loop, measured in the same run (${file})\n`);
  console.log(gateReport(verdict));
  return verdict.ok ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
