// examples/react/main.tsx
import { createRoot } from 'react-dom/client';
import { ThoughtlineProvider } from 'thoughtline/react';
import { App } from './app';

// The token `thoughtline serve` printed, passed in the address's fragment: #token=tl_…
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? undefined;

createRoot(document.getElementById('root')!).render(
  <ThoughtlineProvider token={token}>
    <App />
  </ThoughtlineProvider>,
);
