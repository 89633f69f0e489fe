import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli-process';

/** `thoughtline worker --a2a FILE`: settings that cannot be read stop the worker before it starts, naming where. */
describe('thoughtline worker --a2a', () => {
  const file = (content: string) => {
    const at = path.join(mkdtempSync(path.join(tmpdir(), 'tl-a2a-cli-')), 'a2a.json');
    writeFileSync(at, content);
    return at;
  };

  it('refuses a settings file with a misspelt key before starting anything', async () => {
    const misspelt = await runCli(
      ['worker', '--a2a', file(JSON.stringify({ alow: ['https://a.example.com'] }))],
      cliEnv({}),
    );
    expect(misspelt.code).not.toBe(0);
    expect(misspelt.stderr).toMatch(/A2A settings .*a2a\.json are not valid/);
    expect(misspelt.stderr).toContain('alow');
  }, 60_000);
});
