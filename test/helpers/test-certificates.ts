import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** PEM files made by `openssl` for one test file: a CA, a server and a client it signed, and strangers. */
export interface TestCertificates {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A client pair signed by another CA, which the server does not trust. */
  strangerCert: string;
  strangerKey: string;
  /** Signed by the CA, but valid for no time at all: expired a second after it was made. */
  expiredCert: string;
  remove(): void;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function makeCa(dir: string, name: string, cn: string): void {
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-subj',
    `/CN=${cn}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

/** A key and a certificate for `cn` signed by CA `ca`, with the extensions rustls and Go insist on. */
function makeLeaf(dir: string, name: string, ca: string, cn: string, extensions: string, days = '2', key = name): void {
  if (!fs.existsSync(path.join(dir, `${key}.key`)))
    openssl(dir, ['req', ...EC_KEY, '-keyout', `${key}.key`, '-out', `${key}.csr`, '-subj', `/CN=${cn}`]);
  else openssl(dir, ['req', '-new', '-key', `${key}.key`, '-out', `${key}.csr`, '-subj', `/CN=${cn}`]);
  fs.writeFileSync(
    path.join(dir, `${name}.ext`),
    `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n${extensions}\n`,
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${key}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    days,
    '-extfile',
    `${name}.ext`,
  ]);
}

/**
 * Makes the certificates in a new temporary directory (about a second: EC keys). The server's is
 * for localhost and 127.0.0.1. Call `remove()` when done.
 */
export function makeTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-tls-'));
  makeCa(dir, 'ca', 'Thoughtline Test CA');
  makeCa(dir, 'other-ca', 'Some Other CA');
  makeLeaf(dir, 'server', 'ca', 'localhost', 'extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1');
  makeLeaf(dir, 'client', 'ca', 'thoughtline-worker', 'extendedKeyUsage=clientAuth');
  makeLeaf(dir, 'stranger', 'other-ca', 'stranger', 'extendedKeyUsage=clientAuth');
  makeLeaf(dir, 'expired', 'ca', 'thoughtline-worker', 'extendedKeyUsage=clientAuth', '0', 'client');
  const file = (name: string): string => path.join(dir, name);
  return {
    dir,
    caCert: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
    strangerCert: file('stranger.pem'),
    strangerKey: file('stranger.key'),
    expiredCert: file('expired.pem'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
