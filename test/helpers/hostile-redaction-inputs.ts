/**
 * Text built to make a backtracking secret pattern slow: long runs of the characters the patterns
 * start with, repeated prefixes, separators and base64. Shared by the unit test and the bench.
 */
const fill = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length));

export const HOSTILE_INPUTS: Readonly<Record<string, (size: number) => string>> = {
  'sk- prefixes': (n) => fill('sk-', n),
  'sk-ant- prefixes': (n) => fill('sk-ant-', n),
  '= chains': (n) => fill('=', n),
  'api_key= chains': (n) => fill('api_key=', n),
  'password: without values': (n) => fill('password: ', n),
  'base64 run': (n) => fill('QWxhZGRpbjpvcGVuIHNlc2FtZQ+/', n),
  'letters only': (n) => fill('a', n),
  'spaces after a label': (n) => `api_key${' '.repeat(n)}`,
  'Bearer repeated': (n) => fill('Bearer ', n),
  'eyJ runs with dots': (n) => fill('eyJabc.', n),
  'PEM BEGIN without END': (n) => fill('-----BEGIN RSA PRIVATE KEY-----\n', n),
  'URL schemes without @': (n) => fill('a://b:', n),
  'ENV names without =': (n) => fill('DB_PASSWORD_SECRET_TOKEN ', n),
  'Authorization: headers': (n) => fill('Authorization: Bearer ', n),
  'cookie: headers': (n) => fill('Cookie: ', n),
  'AKIA runs': (n) => fill('AKIA', n),
  'digits and colons': (n) => fill('123456789:', n),
  'hex run': (n) => fill('3f9a0c7e15bd', n),
  '--password options without values': (n) => fill('--db-password ', n),
  '-u user: chains': (n) => fill('-u a:', n),
  'mysql without -p': (n) => fill('mysql ', n),
  'URL users without @': (n) => fill('a://b1234567890123456', n),
  'quoted --secret without a closing quote': (n) => fill('--secret "', n),
  'mixed identifiers': (n) => fill('dbPasswordTokenSecretApiKey_', n),
};
