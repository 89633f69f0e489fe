import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadVisibilityPolicy } from '../../../src/governance/load-visibility-policy';
import { resolveViewLens } from '../../../src/domain/visibility/view-lens';
import { fencedBlocks } from '../../docs/markdown-blocks';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples/visibility-policy.yaml');

describe('the documented visibility policy (examples/visibility-policy.yaml)', () => {
  it('loads, and uses every section of a policy', async () => {
    const policy = await loadVisibilityPolicy(EXAMPLE);
    const text = fs.readFileSync(EXAMPLE, 'utf8');
    for (const section of [
      'security',
      'roles',
      'platform',
      'deployments',
      'deployment',
      'agents',
      'tenants',
      'telemetry',
    ])
      expect(text, section).toMatch(new RegExp(`^${section}:`, 'm'));
    expect(policy.roles.end_user?.grantedTo).toEqual(['customer', 'support']);
    expect(policy.roles.auditor?.preferences).toBe(false);
    expect(policy.tenants.acme?.sensitiveFields.charge_card).toEqual(['card.number']);
    // It resolves as the page says: end users' thinking at summary, the file's deployment applied.
    const lens = resolveViewLens(policy, { view: 'end_user', agent: 'billing', tenant: 'acme' });
    expect(lens.steps).toMatchObject({ thinking: 'summary', model_call: 'hidden' });
    expect(lens.subChains).toBe('hidden');
    expect(lens.decidedBy.thinking).toBe('role');
  });

  it.each([
    ['docs/people-in-the-loop.md', '## Visibility policy'],
    ['docs/configuration.md', '## Visibility policy file'],
  ])('is the policy block of %s, byte for byte', (page, heading) => {
    const doc = fs.readFileSync(path.join(ROOT, page), 'utf8');
    expect(doc).toContain(heading);
    const section = doc.slice(doc.indexOf(heading));
    const block = fencedBlocks(section).find((b) => b.lang === 'yaml');
    expect(block, `a yaml block in the ${heading} section`).toBeDefined();
    expect(`${block!.code}\n`).toBe(fs.readFileSync(EXAMPLE, 'utf8'));
  });
});
