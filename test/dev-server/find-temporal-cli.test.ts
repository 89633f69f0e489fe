import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTemporalCli } from '../../src/dev-server/install/find-temporal-cli';
import { makeTempDir, writeFakeCli } from './fixtures';

describe('findTemporalCli', () => {
  let root: string;
  let explicit: string;
  let pathDir: string;
  let local: string;

  beforeEach(() => {
    root = makeTempDir();
    explicit = writeFakeCli(path.join(root, 'explicit', 'my-temporal'));
    pathDir = path.join(root, 'on-path');
    writeFakeCli(path.join(pathDir, 'temporal'));
    local = writeFakeCli(path.join(root, '.thoughtline', 'bin', 'temporal'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('prefers THOUGHTLINE_TEMPORAL_CLI over PATH and .thoughtline/bin', () => {
    const found = findTemporalCli({ projectRoot: root, env: { THOUGHTLINE_TEMPORAL_CLI: explicit, PATH: pathDir } });
    expect(found).toEqual({ path: explicit, source: 'THOUGHTLINE_TEMPORAL_CLI' });
  });

  it('prefers PATH over .thoughtline/bin, skipping empty and missing entries', () => {
    const PATH = ['', path.join(root, 'missing'), pathDir].join(path.delimiter);
    expect(findTemporalCli({ projectRoot: root, env: { PATH } })).toEqual({
      path: path.join(pathDir, 'temporal'),
      source: 'PATH',
    });
  });

  it('skips a non-executable temporal on PATH', () => {
    fs.chmodSync(path.join(pathDir, 'temporal'), 0o644);
    expect(findTemporalCli({ projectRoot: root, env: { PATH: pathDir } })).toEqual({
      path: local,
      source: '.thoughtline/bin',
    });
  });

  it('falls back to <projectRoot>/.thoughtline/bin', () => {
    expect(findTemporalCli({ projectRoot: root, env: { PATH: '' } })).toEqual({
      path: local,
      source: '.thoughtline/bin',
    });
  });

  it('returns undefined when there is no binary anywhere', () => {
    fs.rmSync(local);
    expect(findTemporalCli({ projectRoot: root, env: {} })).toBeUndefined();
  });

  it('throws instead of falling through when THOUGHTLINE_TEMPORAL_CLI is wrong', () => {
    const env = { THOUGHTLINE_TEMPORAL_CLI: path.join(root, 'nope'), PATH: pathDir };
    expect(() => findTemporalCli({ projectRoot: root, env })).toThrow(/THOUGHTLINE_TEMPORAL_CLI.*not an executable/);
  });
});
