import type { Identity } from '../auth/identity';
import { personKey } from '../auth/person-key';

/** The key a person's preferences are stored under: the person (`personKey`: tenant, id, how they signed in). */
export const preferencesKey = (identity: Pick<Identity, 'id' | 'tenant' | 'via'>): string => personKey(identity);
