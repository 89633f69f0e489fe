import type { CommandSpec } from '../../spec/command-line';
import { text } from '../../spec/flags';
import path from 'node:path';
import { ZodError } from 'zod';
import { addToken } from '../../../server/auth/token-file-store';
import { UsageError } from '../../spec/usage-error';
import { defaultTokenFile } from './serve-http';

/**
 * `token --id ID --roles a,b [--tenant T] [--file F]`: adds a token for a person to the token file
 * that `serve` reads (it picks the change up without a restart) and prints the token, once.
 */
export function createToken(options: { id: string; roles?: string; tenant?: string; file?: string }): void {
  const file = path.resolve(options.file ?? defaultTokenFile());
  const roles = (options.roles ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  let token: string;
  try {
    token = addToken(file, { id: options.id, roles, ...(options.tenant ? { tenant: options.tenant } : {}) });
  } catch (err) {
    if (err instanceof ZodError)
      throw new UsageError(
        `${file}: ${err.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; ')}`,
      );
    if (err instanceof SyntaxError) throw new UsageError(`${file} is not JSON (${err.message}); fix or move it first.`);
    throw err;
  }
  process.stderr.write(
    `thoughtline: added a token for ${options.id} (roles: ${roles.join(', ') || 'none'}${options.tenant ? `, tenant ${options.tenant}` : ''}) to ${file}. It is shown once; the file keeps only its hash.\n`,
  );
  process.stdout.write(`${token}\n`);
}

export const TOKEN_COMMAND: CommandSpec = {
  name: 'token',
  group: 'Serve and protocols',
  summary: "add a person's bearer token to the token file; print it once",
  description:
    'Add a bearer token for a person to the token file (0600; only its hash is kept; serve reloads it) and print the token once.',
  examples: ['thoughtline token --id alice --roles developer,approver --tenant acme'],
  args: [],
  options: {
    id: text('ID', 'who presenting the token is (required)'),
    roles: text('a,b', 'their roles'),
    tenant: text('T', 'their tenant'),
    file: text('FILE', 'the token file', { env: 'THOUGHTLINE_TOKENS', default: '.thoughtline/tokens.json' }),
  },
  run: async (l) => {
    const id = l.text('id')?.trim();
    if (!id)
      throw new UsageError(
        '"token" needs --id NAME: who presenting the token is, e.g. thoughtline token --id alice --roles developer,approver',
      );
    createToken({
      id,
      ...(l.text('roles') !== undefined ? { roles: l.text('roles')! } : {}),
      ...(l.text('tenant') ? { tenant: l.text('tenant')! } : {}),
      ...(l.text('file') ? { file: l.text('file')! } : {}),
    });
    return 0;
  },
};
