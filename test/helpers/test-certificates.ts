import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeCertificateAuthority, makeSignedCertificate } from '../../src/dev-server/cluster/tls/openssl-certificates';

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

const CLIENT_AUTH = 'extendedKeyUsage=clientAuth';

/**
 * Makes the certificates in a new temporary directory (about a second: EC keys). The server's is
 * for localhost and 127.0.0.1. Call `remove()` when done.
 */
export function makeTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-tls-'));
  makeCertificateAuthority(dir, { name: 'ca', commonName: 'Thoughtline Test CA', days: 2 });
  makeCertificateAuthority(dir, { name: 'other-ca', commonName: 'Some Other CA', days: 2 });
  makeSignedCertificate(dir, {
    name: 'server',
    ca: 'ca',
    commonName: 'localhost',
    extensions: 'extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1',
    days: 2,
  });
  makeSignedCertificate(dir, {
    name: 'client',
    ca: 'ca',
    commonName: 'thoughtline-worker',
    extensions: CLIENT_AUTH,
    days: 2,
  });
  makeSignedCertificate(dir, {
    name: 'stranger',
    ca: 'other-ca',
    commonName: 'stranger',
    extensions: CLIENT_AUTH,
    days: 2,
  });
  makeSignedCertificate(dir, {
    name: 'expired',
    ca: 'ca',
    commonName: 'thoughtline-worker',
    extensions: CLIENT_AUTH,
    days: 0,
    keyOf: 'client',
  });
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
