import { describe, expect, it } from 'vitest';
import { MAX_ALLOWED_ORIGINS, parseAllowedOrigin } from '../../src/server/cross-origin';

describe('an --allow-origin value', () => {
  it('is read as the origin a browser sends: scheme, host and port', () => {
    expect(parseAllowedOrigin('https://app.example.com')).toBe('https://app.example.com');
    expect(parseAllowedOrigin('https://app.example.com/')).toBe('https://app.example.com');
    expect(parseAllowedOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(parseAllowedOrigin('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(parseAllowedOrigin('https://App.Example.com')).toBe('https://app.example.com');
    // The default port is dropped, as browsers drop it from Origin.
    expect(parseAllowedOrigin('https://app.example.com:443')).toBe('https://app.example.com');
  });

  it('refuses anything that is not exactly one origin', () => {
    for (const value of [
      '*',
      'null',
      'app.example.com',
      'ftp://app.example.com',
      'file:///tmp/page.html',
      'https://user:pw@app.example.com',
      'https://app.example.com/app',
      'https://app.example.com?x=1',
      'https://app.example.com#top',
      'https://*.example.com',
      '',
    ])
      expect(() => parseAllowedOrigin(value), value).toThrow(/is not an origin a page can have/);
  });

  it('is one of at most a bounded list', () => {
    expect(MAX_ALLOWED_ORIGINS).toBe(64);
  });
});
