/** Single sign-on's settings (CONTRACT.md §21): all three with PUBLIC_URL, or none, each refusal a sentence. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { loggedUrl } from '../../http/log-url.js';

const BASE = { DATABASE_URL: 'sqlite::memory:', PUBLIC_URL: 'https://runs.example.org' };
const OIDC = { OIDC_ISSUER: 'https://auth.example.org', OIDC_CLIENT_ID: 'runs', OIDC_CLIENT_SECRET: 'secret' };

describe('OIDC_* settings', () => {
  it('are off without them', () => {
    expect(loadConfig(BASE).oidc).toBeNull();
  });

  it('are read with their name and OIDC_ONLY', () => {
    expect(loadConfig({ ...BASE, ...OIDC }).oidc).toEqual({
      issuer: 'https://auth.example.org',
      clientId: 'runs',
      clientSecret: 'secret',
      name: 'single sign-on',
      only: false,
    });
    expect(loadConfig({ ...BASE, ...OIDC, OIDC_NAME: ' Authelia ', OIDC_ONLY: '1' }).oidc).toMatchObject({
      name: 'Authelia',
      only: true,
    });
  });

  it.each([
    [{ ...OIDC, OIDC_CLIENT_SECRET: '' }, 'OIDC_CLIENT_SECRET is not set'],
    [{ OIDC_ISSUER: 'https://auth.example.org' }, 'OIDC_CLIENT_ID is not set'],
    [{ ...OIDC, OIDC_ISSUER: 'auth.example.org' }, 'OIDC_ISSUER must be'],
    [{ ...OIDC, OIDC_ISSUER: 'ftp://auth.example.org' }, 'OIDC_ISSUER must be'],
    [{ OIDC_ONLY: '1' }, 'OIDC_ONLY is set but single sign-on is not'],
  ])('refuse %o', (env, message) => {
    expect(() => loadConfig({ ...BASE, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...BASE, ...env })).toThrow(message);
  });

  it('need PUBLIC_URL for the redirect URI', () => {
    expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', ...OIDC })).toThrow(
      'OIDC_ISSUER is set but PUBLIC_URL is not',
    );
  });
});

describe('the request log', () => {
  it('never writes the callback’s code or state', () => {
    expect(loggedUrl('/api/v1/auth/oidc/callback?code=secret&state=also')).toBe('/api/v1/auth/oidc/callback?[hidden]');
    expect(loggedUrl('/api/v1/auth/oidc/start')).toBe('/api/v1/auth/oidc/start');
  });
});
