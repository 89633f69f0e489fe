import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ed25519 } from '@noble/curves/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/audit-report';
import { sealAll } from '../../src/audit';
import { base64UrlEncode } from '../../src/domain/approval/signed-decision';
import { cliEnv, runCli } from '../helpers/cli-process';
import { sampleReport } from '../helpers/sample-report';

/**
 * `thoughtline verify` against forged reports (issue 43). Before, a report edited and sealed
 * again (unsigned, or signed with the forger's own key) verified with exit 0 whenever no key was
 * given. Each forgery here is a file the real CLI checks.
 */
const auditorSeed = new Uint8Array(32).fill(3);
const forgerSeed = new Uint8Array(32).fill(11);
const auditorKey = base64UrlEncode(ed25519.getPublicKey(auditorSeed));
const forgerKey = base64UrlEncode(ed25519.getPublicKey(forgerSeed));
let dir: string;
let genuine: AuditReport & { integrity: { finalHash: string } };
const env = cliEnv({});

const write = (name: string, report: unknown): string => {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, typeof report === 'string' ? report : JSON.stringify(report, null, 2));
  return file;
};
const verify = (file: string, ...args: string[]) => runCli(['verify', file, ...args], env);
/** The sample report with one observation changed: what a forger wants the record to say. */
const altered = (): AuditReport => ({
  ...sampleReport(),
  steps: sampleReport().steps.map((s) =>
    s.stepNumber === 4 && s.type === 'tool_result' ? { ...s, toolResult: { ...s.toolResult, result: 'notes: 43' } } : s,
  ),
});

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-verify-forged-'));
  genuine = JSON.parse(JSON.stringify(sealAll(sampleReport(), { keyId: 'audit-2026', seed: auditorSeed })));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('verify refuses what it cannot tie to a key or a hash the checker holds', () => {
  it('passes the genuine report with the trusted key, or with the final hash kept from the export', async () => {
    const file = write('genuine', genuine);
    const byKey = await verify(file, '--public-key', auditorKey);
    expect(byKey.code, byKey.stdout).toBe(0);
    expect(byKey.stdout).toContain('signed by trusted key audit-2026');
    const byHash = await verify(
      write('genuine-unsigned', JSON.parse(JSON.stringify(sealAll(sampleReport())))),
      '--final-hash',
      genuine.integrity.finalHash,
    );
    expect(byHash.code, byHash.stdout).toBe(0);
    expect(byHash.stdout).toContain('its final hash is the one you gave');
  });

  it('refuses a report that only vouches for itself, even an untouched one, naming its final hash to compare', async () => {
    const result = await verify(write('alone', genuine));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `consistent, but not verified: nothing ties it to its author (signature valid for key audit-2026 (${auditorKey})`,
    );
    expect(result.stdout).toContain(
      `--final-hash with the final hash printed when it was exported (${genuine.integrity.finalHash})`,
    );
  });

  it("refuses an edited report sealed again without a key, or with the forger's own key, whatever the checker passes", async () => {
    const unsigned = write('resealed-unsigned', JSON.parse(JSON.stringify(sealAll(altered()))));
    const forgerSigned = write(
      'resealed-forger',
      JSON.parse(JSON.stringify(sealAll(altered(), { keyId: 'audit-2026', seed: forgerSeed }))),
    );
    for (const file of [unsigned, forgerSigned]) {
      expect((await verify(file)).code, file).toBe(1);
      const byKey = await verify(file, '--public-key', auditorKey);
      expect(byKey.code, file).toBe(1);
      expect(byKey.stdout).toMatch(/not signed, and a trusted key was required|not one of the trusted keys/);
      const byHash = await verify(file, '--final-hash', genuine.integrity.finalHash);
      expect(byHash.code, file).toBe(1);
      expect(byHash.stdout).toContain('is not one of the final hashes given');
    }
    // The forger's key is trusted by nobody but the forger.
    expect((await verify(forgerSigned, '--public-key', forgerKey)).code).toBe(0);
  });

  it('refuses a signature moved from the genuine report, a swapped public key, and truncated, appended or reordered steps', async () => {
    const resealed = JSON.parse(JSON.stringify(sealAll(altered())));
    const forgeries: Record<string, unknown> = {
      'signature moved': { ...resealed, integrity: { ...resealed.integrity, signature: genuine.integrity.signature } },
      'public key swapped': {
        ...genuine,
        integrity: {
          ...genuine.integrity,
          signature: { ...(genuine.integrity as { signature: object }).signature, publicKey: forgerKey },
        },
      },
      truncated: { ...genuine, steps: genuine.steps.slice(0, -2) },
      appended: { ...genuine, steps: [...genuine.steps, genuine.steps[0]] },
      reordered: { ...genuine, steps: [genuine.steps[1], genuine.steps[0], ...genuine.steps.slice(2)] },
      'cut file': JSON.stringify(genuine).slice(0, 2_000),
    };
    for (const [name, report] of Object.entries(forgeries)) {
      const result = await verify(write(name.replace(/ /g, '-'), report), '--public-key', auditorKey);
      expect(result.code, `${name}: ${result.stdout}`).toBe(1);
      expect(result.stdout, name).toMatch(/^✗ /);
    }
  });
});
