/**
 * Single sign-on (CONTRACT.md §21, decision 051): the identities of an OpenID provider linked to
 * an account (its issuer and subject); the sign-ins started and not yet back from the provider
 * (the hash of their `state`, their nonce and PKCE verifier, the hash of the browser's cookie, a
 * short expiry; each taken once); and the one-use codes the callback hands the web app (the hash
 * of the code, the account it signs in, or the identity a password sign-in would link). Instants
 * in milliseconds. Every row of an account goes with it.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const both = [
  `create table oidc_identities (issuer varchar(255) not null, subject varchar(255) not null, user_id integer not null references users (id) on delete cascade, created_at varchar(32) not null, primary key (issuer, subject))`,
  `create index oidc_identities_user_idx on oidc_identities (user_id)`,
  `create table oidc_sign_ins (state_hash varchar(64) primary key, browser_hash varchar(64) not null, nonce varchar(128) not null, code_verifier varchar(128) not null, expires_at bigint not null)`,
  `create index oidc_sign_ins_expiry_idx on oidc_sign_ins (expires_at)`,
  `create table oidc_codes (code_hash varchar(64) primary key, purpose varchar(8) not null, user_id integer not null references users (id) on delete cascade, issuer varchar(255) not null, subject varchar(255) not null, expires_at bigint not null)`,
  `create index oidc_codes_expiry_idx on oidc_codes (expires_at)`,
];

export const statements = { sqlite: both, postgres: both };
