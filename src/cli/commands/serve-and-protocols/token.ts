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
