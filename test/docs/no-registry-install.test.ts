import { describe, expect, it } from 'vitest';
import { readPages } from './doc-snippets';

/**
 * Thoughtline is not on the npm registry: `npm install thoughtline` is a 404 today and, the day
 * someone takes the name, their package. A doc installs the tarball `npm pack` writes instead
 * (README's "Your first agent").
 */
const REGISTRY_INSTALL =
  /\b(?:npm (?:install|i|add)|yarn add|pnpm (?:add|install)|bun add)\b[^\n`|]*?(?<![\w./@-])thoughtline(?![\w./-])/;

const registryInstalls = (page: string, markdown: string): string[] =>
  markdown.split('\n').flatMap((line, i) => (REGISTRY_INSTALL.test(line) ? [`${page}:${i + 1} ${line.trim()}`] : []));

describe('the docs', () => {
  it('never tell a user to install thoughtline from the registry (with controls)', () => {
    expect(readPages().flatMap(({ page, markdown }) => registryInstalls(page, markdown))).toEqual([]);
    const control = [
      'npm install thoughtline react react-dom',
      'Run `npm i thoughtline` first.',
      'npm install ../thoughtline/thoughtline-0.1.0.tgz zod@4 tsx',
      'npm install thoughtline-0.1.0.tgz',
      'npm install @thoughtline/react',
    ].join('\n');
    expect(registryInstalls('control.md', control)).toEqual([
      'control.md:1 npm install thoughtline react react-dom',
      'control.md:2 Run `npm i thoughtline` first.',
    ]);
  });
});
