/**
 * The test MCP server's authorization server: the SDK's `OAuthServerProvider` contract, served by
 * its own `mcpAuthRouter` (discovery, registration, `/authorize`, `/token`, `/revoke`) and checked
 * on `/mcp` by its `requireBearerAuth` (which refuses an expired token). Like the SDK's in-memory
 * demo provider it signs the user in at once; unlike it, access tokens can be short-lived and come
 * with refresh tokens (rotated on each refresh), and every sign-in page opened, grant asked for
 * and revocation is logged, so a test can tell a silent refresh from a sign-in.
 */
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { DemoInMemoryClientsStore } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidGrantError, InvalidRequestError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface TestOAuthOptions {
  /** How long an access token lives at least (default an hour; checked in whole seconds, so up to a second longer). */
  accessTtlMs?: number;
  /** Gives a refresh token with every access token (the SDK's demo provider gives none). */
  refreshTokens?: boolean;
}

/** What the authorization server was asked, in order. */
export interface OAuthLogEntry {
  /** `authorize`: the sign-in page was opened; `authorization_code`, `refresh_token`: a grant at `/token`; `revoke`: a revocation. */
  event: 'authorize' | 'authorization_code' | 'refresh_token' | 'revoke';
  /** Whether it was granted (a refused grant is answered `invalid_grant`). */
  ok: boolean;
}

interface Grant {
  /** One sign-in: its access and refresh tokens share it, and a revoked refresh token ends them all. */
  id: string;
  clientId: string;
  scopes: string[];
  resource?: URL;
}

const HOUR_MS = 3_600_000;

export class TestOAuthProvider implements OAuthServerProvider {
  readonly clientsStore = new DemoInMemoryClientsStore();
  readonly log: OAuthLogEntry[] = [];
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  private readonly access = new Map<string, Grant & { expiresAt: number }>();
  private readonly refresh = new Map<string, Grant>();

  constructor(private readonly options: TestOAuthOptions = {}) {}

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    this.log.push({ event: 'authorize', ok: true });
    if (!client.redirect_uris.includes(params.redirectUri)) throw new InvalidRequestError('Unregistered redirect_uri');
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const back = new URL(params.redirectUri);
    back.searchParams.set('code', code);
    if (params.state !== undefined) back.searchParams.set('state', params.state);
    res.redirect(back.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const issued = this.codes.get(code);
    if (issued === undefined) throw new InvalidGrantError('Unknown authorization code');
    return issued.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const issued = this.codes.get(code);
    const ok = issued !== undefined && issued.clientId === client.client_id;
    this.log.push({ event: 'authorization_code', ok });
    if (!ok) throw new InvalidGrantError('The authorization code is not valid');
    this.codes.delete(code);
    const { scopes = [], resource } = issued.params;
    return this.issue({ id: randomUUID(), clientId: client.client_id, scopes, ...(resource === undefined ? {} : { resource }) });
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(refreshToken);
    const ok = grant !== undefined && grant.clientId === client.client_id;
    this.log.push({ event: 'refresh_token', ok });
    if (!ok) throw new InvalidGrantError('The refresh token is not valid');
    // Rotated (OAuth 2.1 for public clients): the one just used is spent.
    this.refresh.delete(refreshToken);
    return this.issue(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.access.get(token);
    if (found === undefined) throw new InvalidTokenError('Unknown token');
    // Expiry is requireBearerAuth's check (it answers 401 "Token has expired"), in whole seconds: rounded up, a token lives at least accessTtlMs.
    return { token, clientId: found.clientId, scopes: found.scopes, expiresAt: Math.ceil(found.expiresAt / 1000), ...(found.resource === undefined ? {} : { resource: found.resource }) };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    this.log.push({ event: 'revoke', ok: true });
    const grant = this.refresh.get(request.token) ?? this.access.get(request.token);
    if (grant === undefined || grant.clientId !== client.client_id) return;
    // RFC 7009 2.1: revoking a refresh token ends the access tokens of its grant too.
    for (const tokens of [this.refresh, this.access]) {
      for (const [token, held] of tokens) if (held.id === grant.id) tokens.delete(token);
    }
  }

  /** As if every access token's lifetime had passed (their refresh tokens still good). */
  expireAccessTokens(): void {
    for (const token of this.access.values()) token.expiresAt = Date.now() - 1000;
  }

  private issue(grant: Grant): OAuthTokens {
    const ttl = this.options.accessTtlMs ?? HOUR_MS;
    const accessToken = randomUUID();
    this.access.set(accessToken, { ...grant, expiresAt: Date.now() + ttl });
    const tokens: OAuthTokens = { access_token: accessToken, token_type: 'bearer', expires_in: Math.max(1, Math.round(ttl / 1000)), scope: grant.scopes.join(' ') };
    if (this.options.refreshTokens !== true) return tokens;
    const refreshToken = randomUUID();
    this.refresh.set(refreshToken, grant);
    return { ...tokens, refresh_token: refreshToken };
  }
}
