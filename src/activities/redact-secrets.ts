import { redactSecrets } from '../shared/secret-patterns';

export type Redactor = (value: unknown) => unknown;

/**
 * Replaces known secret values (8+ characters) and secret-shaped strings anywhere inside
 * `value`. The shapes are the shared ones, so activities and views redact alike.
 */
export function createRedactor(knownSecrets: readonly string[]): Redactor {
  const known = [...knownSecrets];
  return (value) => redactSecrets(value, known);
}
