import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatasetError } from '../dataset';

/** The folder of `serve --datasets DIR` that holds one folder per tenant. */
export const TENANTS_FOLDER = 'tenants';

/** Longest folder name a tenant gets as is; a longer encoding is cut and hashed (NAME_MAX is 255 bytes). */
const MAX_PLAIN_NAME = 120;

/**
 * A tenant's folder name: an allow-list encoding, never a stripping of bad characters. Lower-case
 * letters, digits and `-` stay; every other UTF-8 byte (upper-case letters too, so two tenants
 * never share a folder on a case-insensitive disk; `_` itself, `.`, `/`) becomes `_` and two
 * lower-case hex digits. Two tenants never get one name (the encoding is one-to-one), and no name
 * is empty, `.`, `..` or holds a separator. An encoding over MAX_PLAIN_NAME characters keeps its
 * first 64 and adds `~` and 32 hex of the tenant's sha256: `~` is never in a plain name.
 */
export function tenantFolderName(tenant: string): string {
  let encoded = '';
  for (const byte of Buffer.from(tenant, 'utf8'))
    encoded += /[a-z0-9-]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `_${byte.toString(16).padStart(2, '0')}`;
  if (encoded.length <= MAX_PLAIN_NAME) return encoded;
  const head = encoded.slice(0, 64).replace(/_[0-9a-f]?$/, '');
  return `${head}~${createHash('sha256').update(tenant).digest('hex').slice(0, 32)}`;
}

/**
 * The folder of the caller's datasets under `serve --datasets DIR`, made when missing: a tenant's
 * is `DIR/tenants/<tenantFolderName>`; a caller without a tenant keeps `DIR` itself, where
 * datasets were before tenants had folders, so a single-tenant server's datasets stay where they
 * are (`DIR/tenants.jsonl` is a file, not the folder: the two never meet). The tenant comes from
 * the caller's identity, never from a request. `tenants/` and the tenant's folder must be real
 * folders: a symlink there is refused (a DatasetError), never followed into another tenant's.
 */
export function tenantDatasetFolder(datasetsDir: string, tenant: string | undefined): string {
  fs.mkdirSync(datasetsDir, { recursive: true });
  if (tenant === undefined) return datasetsDir;
  let folder = datasetsDir;
  for (const part of [TENANTS_FOLDER, tenantFolderName(tenant)]) {
    folder = path.join(folder, part);
    try {
      fs.mkdirSync(folder, 0o755);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const stat = fs.lstatSync(folder);
    if (stat.isSymbolicLink() || !stat.isDirectory())
      throw new DatasetError(folder, [
        { message: 'the tenant datasets folder is not a folder (a symlink?); nothing written' },
      ]);
  }
  return folder;
}
