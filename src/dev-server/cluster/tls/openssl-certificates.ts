import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** P-256 keys: quick to make (about a second for a whole set) and accepted by Go, rustls and OpenSSL alike. */
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A self-signed CA in `dir`: `<name>.pem` and its unencrypted key `<name>.key`. */
export function makeCertificateAuthority(dir: string, o: { name: string; commonName: string; days: number }): void {
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    `${o.name}.key`,
    '-out',
    `${o.name}.pem`,
    '-days',
    String(o.days),
    '-subj',
    `/CN=${o.commonName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

export interface SignedCertificateOptions {
  /** Files `<name>.pem` (and `<name>.key` unless `keyOf` names another). */
  name: string;
  /** The CA's file name without extension, in the same folder. */
  ca: string;
  commonName: string;
  /** Lines of an openssl extension file: extendedKeyUsage, subjectAltName. */
  extensions: string;
  /** 0 makes a certificate that has expired a second later. */
  days: number;
  /** Sign a new certificate for the key of `<keyOf>.key` instead of making a new key. */
  keyOf?: string;
}

/**
 * A certificate signed by CA `ca`, with the extensions rustls and Go insist on (a leaf that is not
 * a CA, digitalSignature key usage). Writes `<name>.pem`, and `<name>.key` unless `keyOf` is given.
 */
export function makeSignedCertificate(dir: string, o: SignedCertificateOptions): void {
  const key = o.keyOf ?? o.name;
  if (fs.existsSync(path.join(dir, `${key}.key`)))
    openssl(dir, ['req', '-new', '-key', `${key}.key`, '-out', `${o.name}.csr`, '-subj', `/CN=${o.commonName}`]);
  else
    openssl(dir, ['req', ...EC_KEY, '-keyout', `${key}.key`, '-out', `${o.name}.csr`, '-subj', `/CN=${o.commonName}`]);
  fs.writeFileSync(
    path.join(dir, `${o.name}.ext`),
    `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n${o.extensions}\n`,
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${o.name}.csr`,
    '-CA',
    `${o.ca}.pem`,
    '-CAkey',
    `${o.ca}.key`,
    '-CAcreateserial',
    '-out',
    `${o.name}.pem`,
    '-days',
    String(o.days),
    '-extfile',
    `${o.name}.ext`,
  ]);
  fs.rmSync(path.join(dir, `${o.name}.csr`), { force: true });
  fs.rmSync(path.join(dir, `${o.name}.ext`), { force: true });
}
