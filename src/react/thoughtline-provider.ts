import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import type { ClientLimits } from './client-limits';
import { ThoughtlineClient } from './thoughtline-client';

const ThoughtlineContext = createContext<ThoughtlineClient | undefined>(undefined);

export interface ThoughtlineProviderProps {
  /** Where `thoughtline serve` answers; '' (the default) for this page's own origin. */
  baseUrl?: string;
  /** The bearer token every request and stream sends. */
  token?: string;
  limits?: Partial<ClientLimits>;
  children?: ReactNode;
}

/** Gives the hooks below it the server's address and token; a new token or address opens new streams. */
export function ThoughtlineProvider({ baseUrl = '', token, limits, children }: ThoughtlineProviderProps) {
  const limitsKey = JSON.stringify(limits ?? {});
  const client = useMemo(
    () => new ThoughtlineClient({ baseUrl, ...(token ? { token } : {}), ...(limits ? { limits } : {}) }),
    // The limits by value: an inline object literal must not open new streams on every render.
    [baseUrl, token, limitsKey],
  );
  return createElement(ThoughtlineContext.Provider, { value: client }, children);
}

/** The client of the nearest ThoughtlineProvider; throws outside one. */
export function useThoughtline(): ThoughtlineClient {
  const client = useContext(ThoughtlineContext);
  if (!client) throw new Error('Thoughtline hooks need a <ThoughtlineProvider> above them.');
  return client;
}
