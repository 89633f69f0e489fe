import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTools } from '../../../src/tools/builtin/files';
import { MAX_COMPONENT_BYTES, MAX_PATH_BYTES } from '../../../src/tools/builtin/files/sandbox-path';
import { refusal, run, scratchTree, snapshot } from './file-tools-helpers';

let tree: ReturnType<typeof scratchTree>;
let before: Record<string, string>;
beforeEach(() => {
  tree = scratchTree();
  fs.symlinkSync(path.join(tree.outside, 'secret.txt'), path.join(tree.root, 'link-to-secret'));
  fs.symlinkSync(tree.outside, path.join(tree.root, 'link-to-outside'));
  fs.symlinkSync(path.join(tree.outside, 'new.txt'), path.join(tree.root, 'dangling'));
  before = {
    ...snapshot(tree.outside),
    ...Object.fromEntries(Object.entries(snapshot(tree.sibling)).map(([k, v]) => [`sibling/${k}`, v])),
  };
});
afterEach(() => {
  // Whatever a test tried, nothing outside the root changed.
  const after = {
    ...snapshot(tree.outside),
    ...Object.fromEntries(Object.entries(snapshot(tree.sibling)).map(([k, v]) => [`sibling/${k}`, v])),
  };
  expect(after).toEqual(before);
  tree.cleanup();
});

const tools = (options: Partial<Parameters<typeof createFileTools>[0]> = {}) => {
  const [read, list, search, write] = createFileTools({ root: tree.root, ...options });
  return { read, list, search, write };
};

describe('file tools: definitions', () => {
  it('are file_system tools; only files_write needs approval, and an override changes it', () => {
    const { read, list, search, write } = tools();
    expect([read, list, search, write].map((t) => [t.name, t.type, t.effects, t.approval])).toEqual([
      ['files_read', 'file_system', 'none', 'never'],
      ['files_list', 'file_system', 'none', 'never'],
      ['files_search', 'file_system', 'none', 'never'],
      ['files_write', 'file_system', 'idempotent', 'always'],
    ]);
    expect(read.summaryTemplate).toBe('Read {path}');
    expect(tools({ overrides: { write: { approval: 'never', requiredRoles: ['ops'] } } }).write).toMatchObject({
      approval: 'never',
      requiredRoles: ['ops'],
    });
    expect(() => createFileTools({ root: tree.root, maxReadBytes: 0 })).toThrow(
      /maxReadBytes must be a positive integer/,
    );
  });
});

describe('file tools: inside the root', () => {
  it('read, list, search and write work on relative and absolute paths inside the root', async () => {
    const { read, list, search, write } = tools();
    expect(await run(read, { path: 'a.txt' })).toEqual({
      path: 'a.txt',
      content: 'alpha\nneedle one\n',
      bytes: 17,
      truncated: false,
    });
    expect(await run(read, { path: path.join(tree.root, 'sub/b.txt') })).toMatchObject({
      path: 'sub/b.txt',
      content: 'beta\nthe needle two\n',
    });
    expect(await run(list, {})).toEqual({
      path: '.',
      entries: [
        { name: 'a.txt', kind: 'file' },
        { name: 'dangling', kind: 'symlink' },
        { name: 'link-to-outside', kind: 'symlink' },
        { name: 'link-to-secret', kind: 'symlink' },
        { name: 'sub', kind: 'directory' },
      ],
      truncated: false,
    });
    // Symlinks are skipped: the outside secret is not found through link-to-outside.
    expect(await run(search, { query: 'needle' })).toEqual({
      matches: [
        { path: 'a.txt', line: 2, text: 'needle one' },
        { path: 'sub/b.txt', line: 2, text: 'the needle two' },
      ],
      filesScanned: 2,
    });
    expect(await run(search, { query: 'SECRET', ignoreCase: true })).toEqual({ matches: [], filesScanned: 2 });
    expect(await run(write, { path: 'sub/new.txt', content: 'héllo' })).toEqual({
      path: 'sub/new.txt',
      bytes: 6,
      created: true,
    });
    expect(await run(write, { path: 'a.txt', content: 'short' })).toEqual({ path: 'a.txt', bytes: 5, created: false });
    expect(fs.readFileSync(path.join(tree.root, 'a.txt'), 'utf8')).toBe('short');
    expect(fs.readFileSync(path.join(tree.root, 'sub/new.txt'), 'utf8')).toBe('héllo');
  });

  it('clear refusals for what is missing or not a file', async () => {
    const { read, list, write } = tools();
    expect(await refusal(read, { path: 'nope.txt' })).toBe('No such file: nope.txt.');
    expect(await refusal(read, { path: 'sub' })).toBe('The path is not a regular file.');
    expect(await refusal(list, { path: 'a.txt' })).toBe('a.txt is not a directory.');
    expect(await refusal(write, { path: 'no-dir/x.txt', content: 'x' })).toBe('The parent directory does not exist.');
    expect(await refusal(write, { path: '.', content: 'x' })).toBe('The path is the root directory.');
    fs.writeFileSync(path.join(tree.root, 'bin'), Buffer.from([1, 0, 2]));
    expect(await refusal(read, { path: 'bin' })).toBe('bin is a binary file; files_read returns text only.');
  });
});

describe('file tools: escapes are refused', () => {
  it('parent steps, NUL bytes, absolute paths outside, and a sibling whose name starts with the root', async () => {
    const { read, list, search, write } = tools();
    for (const tool of [read, write]) {
      expect(await refusal(tool, { path: '../outside/secret.txt', content: 'x' })).toMatch(/contains "\.\."/);
      expect(await refusal(tool, { path: 'sub/../../outside/secret.txt', content: 'x' })).toMatch(/contains "\.\."/);
      expect(await refusal(tool, { path: 'a.txt\0.png', content: 'x' })).toBe('The path contains a NUL byte.');
      expect(await refusal(tool, { path: path.join(tree.outside, 'secret.txt'), content: 'x' })).toBe(
        'The path is outside the root.',
      );
      expect(await refusal(tool, { path: path.join(tree.sibling, 'secret.txt'), content: 'x' })).toBe(
        'The path is outside the root.',
      );
      expect(await refusal(tool, { path: '/etc/passwd', content: 'x' })).toBe('The path is outside the root.');
    }
    expect(await refusal(list, { path: '..' })).toMatch(/contains "\.\."/);
    expect(await refusal(search, { query: 'secret', path: tree.sibling })).toBe('The path is outside the root.');
  });

  it('symlinks to outside, and symlinked parents, for every tool', async () => {
    const { read, list, search, write } = tools();
    const outsideMessage = 'The path leads outside the root (through a symlink).';
    expect(await refusal(read, { path: 'link-to-secret' })).toBe(outsideMessage);
    expect(await refusal(read, { path: 'link-to-outside/secret.txt' })).toBe(outsideMessage);
    expect(await refusal(list, { path: 'link-to-outside' })).toBe(outsideMessage);
    expect(await refusal(search, { query: 'secret', path: 'link-to-outside' })).toBe(outsideMessage);
    expect(await refusal(write, { path: 'link-to-secret', content: 'pwned' })).toBe(outsideMessage);
    expect(await refusal(write, { path: 'link-to-outside/secret.txt', content: 'pwned' })).toBe(outsideMessage);
    // A new file through a symlinked parent resolves through the parent's real path, outside.
    expect(await refusal(write, { path: 'link-to-outside/new.txt', content: 'pwned' })).toBe(outsideMessage);
    expect(fs.existsSync(path.join(tree.outside, 'new.txt'))).toBe(false);
  });

  it('writing through a dangling symlink, or a symlink to a file inside, is refused (O_NOFOLLOW)', async () => {
    const { write, read } = tools();
    expect(await refusal(write, { path: 'dangling', content: 'pwned' })).toBe(
      'The path is a symlink; the file tools do not follow symlinks.',
    );
    expect(fs.existsSync(path.join(tree.outside, 'new.txt'))).toBe(false);
    expect(fs.lstatSync(path.join(tree.root, 'dangling')).isSymbolicLink()).toBe(true);
    expect(await refusal(read, { path: 'dangling' })).toBe('No such file: dangling.');
  });

  it('a root that is itself a symlink works, and its sibling prefix is still refused', async () => {
    const alias = path.join(tree.base, 'alias');
    fs.symlinkSync(tree.root, alias);
    const [read] = createFileTools({ root: alias });
    expect(await run(read, { path: path.join(alias, 'a.txt') })).toMatchObject({ path: 'a.txt' });
    expect(await run(read, { path: 'a.txt' })).toMatchObject({ path: 'a.txt' });
    expect(await refusal(read, { path: path.join(tree.sibling, 'secret.txt') })).toBe('The path is outside the root.');
  });

  it('over-long paths: at the caps accepted, one byte over refused', async () => {
    const { read, write } = tools();
    const longest = 'x'.repeat(MAX_COMPONENT_BYTES);
    expect(await run(write, { path: longest, content: 'ok' })).toMatchObject({ path: longest });
    expect(await refusal(read, { path: `${longest}x` })).toBe(
      `A path component is longer than ${MAX_COMPONENT_BYTES} bytes.`,
    );
    const deep = Array.from({ length: MAX_PATH_BYTES / 2 }, () => 'd').join('/'); // 4095 bytes
    expect(await refusal(read, { path: deep })).toBe(`No such file: ${deep}.`);
    expect(await refusal(read, { path: `${deep}/e` })).toBe(`The path is longer than ${MAX_PATH_BYTES} bytes.`);
  });
});

describe('file tools: limits', () => {
  it('read cuts at maxReadBytes with a marker; exactly at the cap is whole', async () => {
    const { read } = tools({ maxReadBytes: 17 });
    expect(await run(read, { path: 'a.txt' })).toMatchObject({ truncated: false, content: 'alpha\nneedle one\n' });
    fs.writeFileSync(path.join(tree.root, 'long.txt'), 'y'.repeat(18));
    expect(await run(read, { path: 'long.txt' })).toEqual({
      path: 'long.txt',
      content: `${'y'.repeat(17)}\n[… cut: the file is 18 bytes, showing the first 17]`,
      bytes: 18,
      truncated: true,
    });
  });

  it('write refuses content over maxWriteBytes and leaves the file as it was; exactly at the cap is written', async () => {
    const { write } = tools({ maxWriteBytes: 4 });
    expect(await refusal(write, { path: 'a.txt', content: 'éééé'.slice(0, 3) })).toBe(
      'The content is 6 bytes; files_write accepts at most 4.',
    );
    expect(fs.readFileSync(path.join(tree.root, 'a.txt'), 'utf8')).toBe('alpha\nneedle one\n');
    expect(await run(write, { path: 'a.txt', content: 'four' })).toMatchObject({ bytes: 4 });
  });

  it('list stops at maxListEntries and says so', async () => {
    expect(await run(tools({ maxListEntries: 5 }).list, {})).toMatchObject({ truncated: false });
    const listed = (await run(tools({ maxListEntries: 4 }).list, {})) as { entries: unknown[]; truncated: boolean };
    expect(listed.entries).toHaveLength(4);
    expect(listed.truncated).toBe(true);
  });

  it('search stops at each cap and names it', async () => {
    expect(await run(tools({ maxSearchResults: 1 }).search, { query: 'needle' })).toEqual({
      matches: [{ path: 'a.txt', line: 2, text: 'needle one' }],
      filesScanned: 2,
      stoppedAt: 'maxSearchResults',
    });
    expect(await run(tools({ maxSearchResults: 2 }).search, { query: 'needle' })).toMatchObject({ filesScanned: 2 });
    expect(await run(tools({ maxSearchFiles: 1 }).search, { query: 'needle' })).toEqual({
      matches: [{ path: 'a.txt', line: 2, text: 'needle one' }],
      filesScanned: 1,
      stoppedAt: 'maxSearchFiles',
    });
    // 17 bytes of a.txt, then nothing left for sub/b.txt.
    expect(await run(tools({ maxSearchBytes: 17 }).search, { query: 'needle' })).toEqual({
      matches: [{ path: 'a.txt', line: 2, text: 'needle one' }],
      filesScanned: 1,
      stoppedAt: 'maxSearchBytes',
    });
  });
});
