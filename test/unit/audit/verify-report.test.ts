import { ed25519 } from '@noble/curves/ed25519';
import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../../../src/audit/audit-report';
import { sealAll } from '../../../src/audit';
import { allProblems, verifyReport } from '../../../src/audit/verify-report';
import { base64UrlEncode } from '../../../src/domain/approval/signed-decision';
import { sampleReport } from '../../helpers/sample-report';

/** The report as it reads back from its file. */
const stored = (report: AuditReport): Record<string, any> => JSON.parse(JSON.stringify(report));
const seed = new Uint8Array(32).fill(7);
const key = { keyId: 'k-test', seed };
const publicKey = base64UrlEncode(ed25519.getPublicKey(seed));
const otherKey = base64UrlEncode(ed25519.getPublicKey(new Uint8Array(32).fill(9)));

describe('verifyReport: a sealed report, read back from its file', () => {
  it('passes untouched, and names the first altered step for a one-character edit', () => {
    const file = JSON.stringify(sealAll(sampleReport()), null, 2);
    expect(allProblems(verifyReport(JSON.parse(file)))).toEqual([]);
    const edited = JSON.parse(file.replace('"notes: 42"', '"notes: 43"'));
    const problems = allProblems(verifyReport(edited));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^step 4 \(id-4\) was altered/);
  });

  it('names an altered section, a removed step and an added one', () => {
    const sealed = stored(sealAll(sampleReport()));
    expect(
      allProblems(verifyReport({ ...sealed, run: { ...sealed.run, caller: { id: 'mallory', roles: [] } } })),
    ).toEqual(['section "run" was altered']);
    expect(allProblems(verifyReport({ ...sealed, steps: sealed.steps.slice(0, -1) }))[0]).toMatch(
      /^step 12 \(id-12\) was removed/,
    );
    expect(allProblems(verifyReport({ ...sealed, steps: [...sealed.steps, sealed.steps[0]] }))[0]).toMatch(
      /1 step\(s\) were added/,
    );
    const { outcome: _gone, ...withoutOutcome } = sealed;
    expect(allProblems(verifyReport(withoutOutcome))).toContain('section "outcome" was removed');
  });

  it('never throws on what it cannot read, and fails it', () => {
    for (const junk of [
      null,
      [],
      'text',
      42,
      {},
      { integrity: 5 },
      { integrity: { algorithm: 'md5' } },
      { run: { workflowId: 'x' }, steps: 'no', integrity: stored(sealAll(sampleReport())).integrity },
    ]) {
      const check = verifyReport(junk);
      expect(allProblems(check).length, JSON.stringify(junk)).toBeGreaterThan(0);
    }
  });

  it('checks the signature: trusted with the right key, refused with another, broken by a rewritten hash chain', () => {
    const signed = stored(sealAll(sampleReport(), key));
    expect(verifyReport(signed, { trustedKeys: [publicKey] })).toMatchObject({
      signature: { state: 'trusted', keyId: 'k-test' },
      problems: [],
    });
    expect(verifyReport(signed).signature).toMatchObject({ state: 'self_consistent', publicKey });
    expect(allProblems(verifyReport(signed, { trustedKeys: [otherKey] }))[0]).toMatch(/not one of the trusted keys/);
    // Whoever rewrites a step and seals the report again without the key gets a chain that holds, and no valid signature.
    const forged = stored(
      sealAll({
        ...sampleReport(),
        steps: sampleReport().steps.map((s) =>
          s.stepNumber === 4 && s.type === 'tool_result'
            ? { ...s, toolResult: { ...s.toolResult, result: 'notes: 43' } }
            : s,
        ),
      }),
    );
    expect(allProblems(verifyReport(forged))).toEqual([]);
    // ...which is why a report that only vouches for itself is anchored by nothing, and verify refuses it.
    expect(verifyReport(forged).anchor).toBe('none');
    expect(verifyReport(signed, { trustedKeys: [publicKey] }).anchor).toBe('trusted_key');
    expect(verifyReport(forged, { finalHashes: [signed.integrity.finalHash] }).problems).toEqual([
      `its final hash ${forged.integrity.finalHash} is not one of the final hashes given`,
    ]);
    expect(allProblems(verifyReport(forged, { trustedKeys: [publicKey] }))).toEqual([
      'the report is not signed, and a trusted key was required',
    ]);
    const transplanted = { ...forged, integrity: { ...forged.integrity, signature: signed.integrity.signature } };
    expect(allProblems(verifyReport(transplanted, { trustedKeys: [publicKey] }))[0]).toMatch(
      /signature: the signature by key "k-test" does not match the final hash/,
    );
  });

  it("chains sub-agents' reports into their parent: an edit in a child is named, and so is a child swapped out", () => {
    const parent = { ...sampleReport('parent'), children: [sampleReport('parent/helper-3')] };
    const sealed = stored(sealAll(parent));
    expect(allProblems(verifyReport(sealed))).toEqual([]);
    const child = sealed.children[0];
    const editedChild = {
      ...child,
      steps: child.steps.map((s: any) =>
        s.stepNumber === 7 ? { ...s, toolCall: { ...s.toolCall, arguments: { path: 'report.tXt' } } } : s,
      ),
    };
    expect(allProblems(verifyReport({ ...sealed, children: [editedChild] }))).toEqual([
      'sub-agent 1: step 7 (id-7) was altered, removed or reordered: the first step whose hash does not match',
    ]);
    const other = stored(sealAll(sampleReport('parent/other-5')));
    expect(allProblems(verifyReport({ ...sealed, children: [other] }))).toEqual([
      'sub-agent report parent/helper-3 does not match the one sealed with this report',
    ]);
    expect(allProblems(verifyReport({ ...sealed, children: [] }))).toContain(
      'the report lists 0 sub-agent report(s); 1 were sealed',
    );
  });
});
