import { isIban } from './iban';

/**
 * Patterns piiGuardrail adds to @redactpii/node's, which has none for IBANs and reads only US
 * phone numbers. They run before the library's, so the library's phone and card patterns never
 * see an IBAN's digits (they used to mask "1234 5698" inside one as a phone number). Written for
 * RE2 (re2js): linear time, no look-around.
 */
export interface OwnPiiRule {
  /** The kind as piiGuardrail's `kinds` option names it. */
  option: 'IBAN' | 'PHONE';
  /** The mask's name: `[IBAN]`, `[PHONE_NUMBER]` (the library's name for phones). */
  kind: string;
  source: string;
  /** A match is masked only when this holds (the IBAN's mod-97 check); by default every match is. */
  accept?: (match: string) => boolean;
}

/** Two capitals, two check digits, then groups of four (spaced or not) and a last short group: 15–34 characters. */
const IBAN = String.raw`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b`;

/**
 * UK numbers: +44 (with an optional "(0)") or a leading 0, then an area or mobile code of 2–5
 * digits and two groups of 3–4 ("+44 20 7946 0958", "020 7946 0958", "07700 900123"), single
 * spaces or hyphens between groups.
 */
const UK_PHONE = String.raw`(?:\+44[ -]?(?:\(0\)[ -]?)?[1-9]|\b0[1-9])\d{1,4}[ -]?\d{3,4}[ -]?\d{3,4}\b`;

export const OWN_PII_RULES: readonly OwnPiiRule[] = [
  { option: 'IBAN', kind: 'IBAN', source: IBAN, accept: isIban },
  { option: 'PHONE', kind: 'PHONE_NUMBER', source: UK_PHONE },
];
