import { z } from 'zod';
import { say, useTool, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import { defineTool } from '../../src/tools/define-tool';

/**
 * A run whose answer repeats two sensitive values: one a tool marks sensitive itself
 * (`read_account`'s `account.number`), one only the tenant's policy masks (`lookup_customer`'s
 * `email` for tenant acme). Neither is secret-shaped, so only the views' sensitive-field rules
 * hide them: the auditor sees both, every other view neither, on every door.
 */
export const ACCOUNT = 'ACCT-7731-9902-ZETA';
export const EMAIL = 'ada.lovelace@example.org';
export const SENSITIVE_ANSWER = `Account ${ACCOUNT} belongs to ${EMAIL}.`;

/** The tenant layer that masks the customer's email (THOUGHTLINE_VISIBILITY_POLICY / --policy). */
export const TENANT_MASKS_EMAIL = `version: 1
tenants:
  acme:
    sensitiveFields:
      lookup_customer: [email]
      email_customer: [to]
`;

export function sensitiveTools() {
  const readAccount = defineTool({
    name: 'read_account',
    description: 'Reads the account of a customer',
    input: z.object({ customer: z.string() }),
    sensitiveFields: ['account.number'],
    execute: () => ({ account: { number: ACCOUNT, kind: 'current' } }),
  });
  const lookupCustomer = defineTool({
    name: 'lookup_customer',
    description: 'Looks a customer up',
    input: z.object({ customer: z.string() }),
    execute: ({ customer }) => ({ customer, email: EMAIL }),
  });
  // Waits for a person's approval: its pending record carries the email as an argument.
  const emailCustomer = defineTool({
    name: 'email_customer',
    description: 'Emails a customer',
    input: z.object({ to: z.string(), text: z.string() }),
    approval: 'always',
    execute: () => ({ sent: true }),
  });
  return [readAccount, lookupCustomer, emailCustomer];
}

/** The model's turns: read both, then answer repeating both values (`answer` to end otherwise). */
export const sensitiveTurns = (answer = SENSITIVE_ANSWER): ScriptedTurn[] => [
  {
    content: [
      say('Reading the account and the customer.'),
      useTool('read_account', { customer: 'ada' }),
      useTool('lookup_customer', { customer: 'ada' }),
    ],
  },
  { content: [useTool('finish', { result: answer })] },
];

/** Whether `value`, as JSON, shows either sensitive value. */
export const showsSensitive = (value: unknown): boolean => {
  const json = JSON.stringify(value);
  return json.includes(ACCOUNT) || json.includes(EMAIL);
};
