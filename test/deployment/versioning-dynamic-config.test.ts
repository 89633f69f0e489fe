import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSIONING_DYNAMIC_CONFIG } from '../../src/dev-server/versioning-dynamic-config';

const ROOT = path.resolve(__dirname, '../..');
const COMPOSE_CONFIG = path.join(ROOT, 'docker/dynamicconfig/development.yaml');
const OPERATIONS_DOC = path.join(ROOT, 'docs/operations.md');

/** `key: [{ value: V }]` entries of a Temporal dynamic config file, as `key` → `V` (the file's own plain form). */
function composeValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const [, key, value] of text.matchAll(/^([\w.]+):\s*\n\s+- value: (.+)$/gm)) values.set(key!, value!.trim());
  return values;
}

describe('worker versioning settings', () => {
  it('the docker-compose stack sets what the dev servers the project starts set', () => {
    const compose = composeValues(fs.readFileSync(COMPOSE_CONFIG, 'utf8'));
    expect(VERSIONING_DYNAMIC_CONFIG).toHaveLength(4);
    for (const entry of VERSIONING_DYNAMIC_CONFIG) {
      const [key, json] = entry.split(/=(.*)/s) as [string, string];
      expect(compose.get(key), key).toBe(String(JSON.parse(json)));
    }
  });

  it('docs/operations.md shows each of them as the flag to pass', () => {
    const doc = fs.readFileSync(OPERATIONS_DOC, 'utf8');
    for (const entry of VERSIONING_DYNAMIC_CONFIG)
      expect(
        doc.includes(`--dynamic-config-value ${entry}`) || doc.includes(`--dynamic-config-value '${entry}'`),
        entry,
      ).toBe(true);
  });
});
