/**
 * The shell commands of README.md and docs/*.md: each `npx thoughtline …` and `npm …` line of a
 * ```bash block (a line ending in `\` joined with the next), as written, for doc-commands.test.ts.
 */
import { fencedBlocks } from './markdown-blocks';
import { readPages } from './doc-snippets';

export interface DocCommand {
  page: string;
  line: number;
  command: string;
}

const IS_COMMAND = /(^|\s|;|\(|\$\()(npx thoughtline|npm)\s/;

export function docCommands(): DocCommand[] {
  return readPages().flatMap(({ page, markdown }) =>
    fencedBlocks(markdown)
      .filter((b) => b.lang === 'bash')
      .flatMap((block) => {
        const found: DocCommand[] = [];
        const lines = block.code.split('\n');
        for (let i = 0; i < lines.length; i++) {
          const start = i;
          let command = lines[i]!;
          while (command.endsWith('\\') && i + 1 < lines.length)
            command = `${command.slice(0, -1)}${lines[++i]!.trim()}`;
          if (IS_COMMAND.test(command)) found.push({ page, line: block.line + 1 + start, command: command.trim() });
        }
        return found;
      }),
  );
}
