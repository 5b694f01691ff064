/**
 * The tools the user set up (issue 33): MCP servers, the web-search provider, what is always
 * allowed, and how many tool steps a reply may take before asking. Kept in `storage.local` under
 * its own key (tokens and search keys are secrets, like the API key: never synced, never in an
 * export); read through `ToolConfigSchema` only.
 */
import * as z from 'zod/mini';

/** `oauth`: OAuth 2.1 with PKCE, signed in through the browser's identity window (lib/tools/oauth.ts). */
export const MCP_AUTH = ['none', 'bearer', 'oauth'] as const;

/** What an OAuth sign-in keeps: the client's registration, the PKCE verifier, the tokens (as the SDK gave them; read back through its schemas). */
export const McpOAuthStateSchema = z.object({
  client: z.optional(z.record(z.string(), z.unknown())),
  verifier: z.optional(z.string()),
  tokens: z.optional(z.record(z.string(), z.unknown())),
});
export type McpOAuthState = z.infer<typeof McpOAuthStateSchema>;

export const McpServerSchema = z.object({
  id: z.string().check(z.minLength(1)),
  /** The server's MCP endpoint (Streamable HTTP; an SSE endpoint is tried when that fails). */
  url: z.string(),
  /** A name the user recognises (the host when they gave none). */
  name: z.string(),
  auth: z._default(z.enum(MCP_AUTH), 'none'),
  /** The bearer token (`auth: 'bearer'`): sent only to `url`'s origin. */
  token: z.optional(z.string()),
  /** Tools of this server the user switched off. */
  disabledTools: z._default(z.array(z.string()), []),
  /** `auth: 'oauth'`: what its sign-in keeps (sent only to its authorization server and to it). */
  oauth: z.optional(McpOAuthStateSchema),
});
export type McpServer = z.infer<typeof McpServerSchema>;

/** `gateway`: the gateway's own search, where the interface has one (lib/gateway ChatRequest.webSearch). */
export const SEARCH_PROVIDERS = ['none', 'searxng', 'brave', 'tavily', 'exa', 'gateway'] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];

export const SearchConfigSchema = z.object({
  provider: z._default(z.catch(z.enum(SEARCH_PROVIDERS), 'none'), 'none'),
  /** A SearXNG instance's address (its JSON format must be on). */
  address: z.optional(z.string()),
  /** The user's own key for Brave, Tavily or Exa: sent only to that provider. */
  key: z.optional(z.string()),
});
export type SearchConfig = z.infer<typeof SearchConfigSchema>;

export const MAX_TOOL_STEPS = { min: 1, max: 50, default: 8 } as const;

export const ToolConfigSchema = z.object({
  mcpServers: z._default(z.array(McpServerSchema), []),
  search: z._default(SearchConfigSchema, () => ({ provider: 'none' as const })),
  /** Tools (`toolKey`) that run without a card: only by the user's "Always allow" or tick. */
  alwaysAllow: z._default(z.array(z.string()), []),
  /** Tool steps of one reply before every further call asks, whatever is always allowed. */
  maxSteps: z._default(z.int().check(z.gte(MAX_TOOL_STEPS.min), z.lte(MAX_TOOL_STEPS.max)), MAX_TOOL_STEPS.default),
});
export type ToolConfig = z.infer<typeof ToolConfigSchema>;

export function defaultToolConfig(): ToolConfig {
  return ToolConfigSchema.parse({});
}

/** The search providers' API origins (host access asked for the one chosen). */
export const SEARCH_ENDPOINTS: Readonly<Record<Exclude<SearchProvider, 'none' | 'searxng' | 'gateway'>, string>> = {
  brave: 'https://api.search.brave.com/res/v1/web/search',
  tavily: 'https://api.tavily.com/search',
  exa: 'https://api.exa.ai/search',
};

/** The addresses the tools use (their origins keep host access). */
export function toolAddresses(config: ToolConfig): string[] {
  const search = config.search.provider === 'none' || config.search.provider === 'gateway' ? []
    : config.search.provider === 'searxng' ? (config.search.address === undefined ? [] : [config.search.address])
      : [SEARCH_ENDPOINTS[config.search.provider]];
  return [...config.mcpServers.map((s) => s.url), ...search];
}
