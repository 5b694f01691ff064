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
