import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * An engine script's input and output: `node engines/<engine>.mjs '<request JSON>'` (or
 * `--request-file F`), one JSON line on stdout, logs on stderr. The runner (bench/side-by-side)
 * starts the infrastructure and passes where it is in `request.infra`.
 */
export function readRequest(argv = process.argv.slice(2)) {
  const raw = argv[0] === '--request-file' ? readFileSync(argv[1], 'utf8') : argv[0];
  if (!raw) throw new Error('usage: node engines/<engine>.mjs <request JSON> | --request-file FILE');
  return JSON.parse(raw);
}

export function reply(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

export function log(...parts) {
  process.stderr.write(`${parts.join(' ')}\n`);
}

/** The version of an installed package, as `name version`. */
export function versionOf(name) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const file = path.join(here, '..', '..', 'node_modules', name, 'package.json');
  return `${name} ${JSON.parse(readFileSync(file, 'utf8')).version}`;
}

/** Exits non-zero with the error on stderr: the runner reports it beside the other engines. */
export async function main(handlers) {
  try {
    const request = readRequest();
    const handler = handlers[request.scenario];
    if (!handler)
      throw new Error(`unknown scenario ${request.scenario}; this engine runs ${Object.keys(handlers).join(', ')}`);
    reply(await handler(request));
    process.exit(0);
  } catch (err) {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  }
}
