import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deciderSigner, runSignedDecisions, serverSigner } from '../../src/cli/setup/decision-keyring';

/*
 * A server always has a key (issue 78): serve makes its keyring once and reuses it, so a restart
 * never orphans an open run's decisions; the CLI signs only with a keyring it can read.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-keyring-'));
const saved = process.env.THOUGHTLINE_SIGNING_KEYS;
afterEach(() => {
  if (saved === undefined) delete process.env.THOUGHTLINE_SIGNING_KEYS;
  else process.env.THOUGHTLINE_SIGNING_KEYS = saved;
});

describe('the decision-signing keyring', () => {
  it('is made once by a server (mode 0600, one log line) and reused after, never replaced', () => {
    const file = path.join(dir, 'made', 'signing-keys.json');
    process.env.THOUGHTLINE_SIGNING_KEYS = file;
    const logs: string[] = [];
    const first = serverSigner(undefined, (l) => logs.push(l));
    expect(logs).toEqual([
      expect.stringMatching(new RegExp(`^created ${file} with a fresh key for signing decisions`)),
    ]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = serverSigner(undefined, (l) => logs.push(l));
    expect(again.publicKeys()).toEqual(first.publicKeys());
    expect(logs).toHaveLength(1);
    // The CLI finds the same keyring, and `run` gives its runs the same keys.
    expect(deciderSigner(undefined)?.publicKeys()).toEqual(first.publicKeys());
    expect(runSignedDecisions()).toEqual({ signedDecisions: { publicKeys: first.publicKeys(), required: false } });
  });

  it('a keyring given is used as it is (never made); without one the CLI sends unsigned', () => {
    const missing = path.join(dir, 'absent.json');
    expect(() => serverSigner(missing, () => {})).toThrow(/Cannot read the signing keyring/);
    expect(fs.existsSync(missing)).toBe(false);
    process.env.THOUGHTLINE_SIGNING_KEYS = missing;
    expect(deciderSigner(undefined)).toBeUndefined();
    expect(runSignedDecisions()).toEqual({});
    expect(() => deciderSigner(missing)).toThrow(/Cannot read the signing keyring/);
  });
});
