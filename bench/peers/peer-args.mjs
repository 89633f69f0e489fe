import { parseArgs } from 'node:util';

/**
 * The command line every peer shares with the bench runner:
 * `--iterations K --runs R [--address host:port --namespace ns]`.
 * Temporal peers need --address; the others ignore it.
 */
export function parsePeerArgs(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      iterations: { type: 'string' },
      runs: { type: 'string' },
      address: { type: 'string' },
      namespace: { type: 'string', default: 'default' },
    },
    strict: true,
  });
  return Object.freeze({
    iterations: positiveInt('iterations', values.iterations),
    runs: positiveInt('runs', values.runs),
    address: values.address,
    namespace: values.namespace,
  });
}

function positiveInt(name, raw) {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw ?? 'nothing'}`);
  return n;
}
