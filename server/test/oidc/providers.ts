/**
 * The OpenID providers of the single sign-on tests, real HTTP servers on 127.0.0.1: a certified
 * provider (oidc-provider) whose login and consent the test answers for a chosen person, and a
 * provider that lies (its ID tokens signed by jose with a wrong issuer, audience, nonce, expiry or
 * key, as a test asks).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

export const PUBLIC_URL = 'http://runs.test';
export const CLIENT_ID = 'running-times';
export const CLIENT_SECRET = 'a-client-secret-of-the-tests';
export const REDIRECT_URI = `${PUBLIC_URL}/api/v1/auth/oidc/callback`;

export interface Person {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  /** Who signs in at the provider's next login. */
  people: Map<string, Person>;
  close(): Promise<void>;
}

function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * oidc-provider, with PKCE required: its interaction page signs in `login` (the `login` query of
 * the test's request to it, else the provider's `nextLogin`) and grants the scopes asked for.
 */
export async function startCertifiedProvider({
  redirectUri = REDIRECT_URI,
  devInteractions = false,
}: {
  redirectUri?: string;
  /** oidc-provider's own login and consent pages (a browser fills them in) instead of the test's answers. */
  devInteractions?: boolean;
} = {}): Promise<TestProvider & { nextLogin: string }> {
  const people = new Map<string, Person>();
  let provider: Provider | null = null;
  const { server, url } = await listen((req, res) => {
    if (!provider) return res.end();
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (interaction && !devInteractions) return void finishInteraction(provider, req, res);
    return provider.callback()(req, res);
  });
  const state = {
    issuer: url,
    people,
    nextLogin: '',
    close: () => closeServer(server),
  };
  const finishInteraction = async (p: Provider, req: IncomingMessage, res: ServerResponse) => {
    const details = await p.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      return p.interactionFinished(
        req,
        res,
        { login: { accountId: state.nextLogin } },
        { mergeWithLastSubmission: false },
      );
    }
    const grant = details.grantId
      ? ((await p.Grant.find(details.grantId)) ??
        new p.Grant({ accountId: details.session?.accountId ?? '', clientId: CLIENT_ID }))
      : new p.Grant({ accountId: details.session?.accountId ?? '', clientId: CLIENT_ID });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    return p.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };
  provider = new Provider(url, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: devInteractions } },
    ...(devInteractions
      ? {}
      : { interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` } }),
    cookies: { keys: ['a-cookie-key-of-the-tests'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, ...people.get(id) }),
    }),
  });
  return state;
}

/** What the lying provider gets wrong in its next ID token. */
export interface Lie {
  iss?: string;
  aud?: string;
  nonce?: string;
  /** Seconds from now (negative: expired). */
  expiresIn?: number;
  /** Signed by a key that is not in its JWKS. */
  foreignKey?: boolean;
  /** The discovery document names another issuer. */
  discoveryIssuer?: string;
}

export interface LyingProvider extends TestProvider {
  /** The person of the next sign-in (subject and claims), and the lie told about it. */
  next: { subject: string; person: Person; lie: Lie };
}

/** A provider written here with jose, honest unless told a lie. */
export async function startLyingProvider(): Promise<LyingProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { nonce: string; subject: string; person: Person; lie: Lie }>();
  const self: LyingProvider = {
    issuer: '',
    people: new Map(),
    next: { subject: 'liar-1', person: {}, lie: {} },
    close: async () => undefined,
  };
  const json = (res: ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const { server, url } = await listen((req, res) => {
    const target = new URL(req.url ?? '/', url);
    if (target.pathname === '/.well-known/openid-configuration') {
      return json(res, {
        issuer: self.next.lie.discoveryIssuer ?? url,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/token`,
        userinfo_endpoint: `${url}/userinfo`,
        jwks_uri: `${url}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (target.pathname === '/jwks') return json(res, { keys: [jwk] });
    if (target.pathname === '/authorize') {
      const code = `code-${codes.size + 1}`;
      codes.set(code, { nonce: target.searchParams.get('nonce') ?? '', ...self.next });
      const back = new URL(target.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', target.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (target.pathname === '/token') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const grant = codes.get(new URLSearchParams(body).get('code') ?? '');
        if (!grant) return json(res, { error: 'invalid_grant' }, 400);
        const now = Math.floor(Date.now() / 1000);
        void new SignJWT({ nonce: grant.lie.nonce ?? grant.nonce, ...grant.person })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(grant.lie.iss ?? url)
          .setAudience(grant.lie.aud ?? CLIENT_ID)
          .setSubject(grant.subject)
          .setIssuedAt(now - 5)
          .setExpirationTime(now + (grant.lie.expiresIn ?? 300))
          .sign(grant.lie.foreignKey ? foreign.privateKey : privateKey)
          .then((idToken) =>
            json(res, { access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken }),
          );
      });
      return;
    }
    if (target.pathname === '/userinfo') return json(res, { sub: self.next.subject, ...self.next.person });
    res.writeHead(404);
    res.end();
  });
  self.issuer = url;
  self.close = () => closeServer(server);
  return self;
}

/**
 * A browser's part between the app's start and its callback: follows the provider's redirects
 * (keeping its cookies) until one leads back to PUBLIC_URL, and answers with that address.
 */
export async function throughProvider(location: string): Promise<string> {
  const jar = new Map<string, string>();
  let next = location;
  for (let hop = 0; hop < 20; hop++) {
    if (next.startsWith(PUBLIC_URL)) return next;
    const res = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) jar.set(name.trim(), value.join('='));
    }
    const to = res.headers.get('location');
    if (!to) throw new Error(`The provider answered ${res.status} at ${next}: ${await res.text()}`);
    next = new URL(to, next).href;
  }
  throw new Error('The provider redirected too many times.');
}
