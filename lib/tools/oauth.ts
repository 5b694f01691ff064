/**
 * OAuth 2.1 with PKCE for an MCP server that asks for it (issue 33), through the SDK's own auth
 * flow: it finds the server's authorization server, registers this client there, and makes the
 * code challenge; the user signs in in the browser's identity window (tools.adapter.ts), which
 * hands back the code. What the flow keeps (the registration, the PKCE verifier, the tokens) is
 * saved with the server in the tool config (`storage.local`, like the API key; never synced or
 * exported) and read back through the SDK's schemas.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { OAuthClientInformationFullSchema, OAuthTokensSchema, type OAuthClientInformationMixed, type OAuthClientMetadata, type OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthState, McpServer } from './config';

export interface OAuthHost {
  /** The address the authorization server sends the browser back to (the identity API's). */
  redirectUrl(): string;
  /** Keeps the flow's state with the server (its registration, verifier, tokens). */
  save(serverId: string, state: McpOAuthState): Promise<void>;
}

export class StoredOAuth implements OAuthClientProvider {
  /** Where the user signs in, once the flow asked for it (a connection without tokens). */
  authorizationUrl: URL | undefined;
  private saved: McpOAuthState;

  constructor(private readonly server: McpServer, private readonly host: OAuthHost) {
    this.saved = server.oauth ?? {};
  }

  get redirectUrl(): string {
    return this.host.redirectUrl();
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Gateway Chat',
      redirect_uris: [this.host.redirectUrl()],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const parsed = OAuthClientInformationFullSchema.safeParse(this.saved.client);
    return parsed.success ? parsed.data : undefined;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.keep({ ...this.saved, client: client as Record<string, unknown> });
  }

  tokens(): OAuthTokens | undefined {
    const parsed = OAuthTokensSchema.safeParse(this.saved.tokens);
    return parsed.success ? parsed.data : undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.keep({ ...this.saved, tokens: tokens as Record<string, unknown> });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.keep({ ...this.saved, verifier: codeVerifier });
  }

  codeVerifier(): string {
    if (this.saved.verifier === undefined) throw new Error('No PKCE code verifier was saved for this sign-in.');
    return this.saved.verifier;
  }

  /** Forgets what the server no longer takes (the SDK asks, after a refusal). */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'discovery') return;
    const { tokens, client, verifier } = this.saved;
    await this.keep({
      ...(scope === 'all' || scope === 'tokens' ? {} : tokens === undefined ? {} : { tokens }),
      ...(scope === 'all' || scope === 'client' ? {} : client === undefined ? {} : { client }),
      ...(scope === 'all' || scope === 'verifier' ? {} : verifier === undefined ? {} : { verifier }),
    });
  }

  private async keep(state: McpOAuthState): Promise<void> {
    this.saved = state;
    await this.host.save(this.server.id, state);
  }
}

/** How many granted refreshes are remembered (each is one spent refresh token's answer). */
const KEPT_REFRESHES = 8;

/**
 * A fetch that spends each refresh token once. The SDK refreshes an expired access token in every
 * request that met the 401, so two requests at once (two calls after the expiry) send the same
 * refresh token twice; a server that rotates them (OAuth 2.1 asks that of a client like this one)
 * refuses the second as `invalid_grant`, and the SDK then drops the tokens, the first request's
 * new ones with them: signed out. Here the second asks nothing and gets the first's answer (a
 * copy), as does a flow that read the spent token just before the new ones were saved.
 */
export function oneGrantPerRefreshToken(fetcher: typeof fetch): typeof fetch {
  const exchanges = new Map<string, Promise<Response>>();
  return async (input, init) => {
    const refreshToken = refreshTokenOf(init);
    if (refreshToken === undefined) return fetcher(input, init);
    const key = `${input instanceof Request ? input.url : String(input)}\n${refreshToken}`;
    let exchange = exchanges.get(key);
    if (exchange === undefined) {
      exchange = fetcher(input, init);
      exchanges.set(key, exchange);
      // Shared while it is asked; once answered, kept only if granted (a refusal or a failure may be asked again).
      exchange.then((answer) => {
        if (!answer.ok) exchanges.delete(key);
      }, () => exchanges.delete(key));
      for (const old of exchanges.keys()) {
        if (exchanges.size <= KEPT_REFRESHES) break;
        exchanges.delete(old);
      }
    }
    // The kept answer is never read: each asker reads its own copy.
    return (await exchange).clone();
  };
}

/** The refresh token a token request spends (the SDK posts form parameters), if it is one. */
function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  if (init?.method?.toUpperCase() !== 'POST') return undefined;
  const body = init.body;
  const form = body instanceof URLSearchParams ? body : typeof body === 'string' ? new URLSearchParams(body) : undefined;
  if (form?.get('grant_type') !== 'refresh_token') return undefined;
  return form.get('refresh_token') ?? undefined;
}
