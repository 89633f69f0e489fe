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
      timeout: 60_000,
    });
    expect(help).toContain('Usage:');
    expect(help).toContain('thoughtline serve');
  });
});
