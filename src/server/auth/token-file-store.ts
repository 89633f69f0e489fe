import fs from 'node:fs';
import path from 'node:path';
import { TokenEntry, TokenFile } from './token-file';
import { generateToken, tokenSha256 } from './token-hash';

/**
 * Adds a fresh token for `who` to a token file (created, mode 0600, when missing) and returns the
 * token: the only time it exists outside the caller's hands, as the file keeps its hash. The file
 * is replaced by a rename, so a server reading it never sees half of it.
 */
export function addToken(file: string, who: Omit<TokenEntry, 'sha256'>): string {
  const existing: TokenFile = fs.existsSync(file)
    ? TokenFile.parse(JSON.parse(fs.readFileSync(file, 'utf8')))
    : { tokens: [] };
  const token = generateToken();
  const entry = TokenEntry.parse({ sha256: tokenSha256(token), ...who });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify({ tokens: [...existing.tokens, entry] }, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
  return token;
}
