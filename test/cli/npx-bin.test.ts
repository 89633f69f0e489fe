import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

describe('npx thoughtline in the checkout', () => {
  it('runs the built CLI (the build marks it executable), as the README tells a newcomer', () => {
    const help = execFileSync('npx', ['--no-install', 'thoughtline', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      // A first npx in a fresh checkout links the project into npm's npx cache (npm 11), running its
      // prepare script: a build check that is quick once `npm install` has built dist/.
      timeout: 120_000,
    });
    expect(help).toContain('Usage:');
    expect(help).toMatch(/\n  serve  /);
  }, 150_000);
});
