/**
 * What a run asks of tools: which to offer the model (the conversation's "Tools" menu, the
 * user's MCP servers and search provider, the model's catalogue entry), and running one the
 * user allowed. Framework-free: the browser's parts (reading a tab, the fetch that carries host
 * access) are passed in by the background.
 */
import { BUILTIN_SPECS, fetchPage, webSearch } from './builtin';
import type { ToolConfig } from './config';
import type { McpConnections, McpProblem } from './mcp';
import { modelToolName } from './names';
import { BUILTIN_SOURCE, BUILTIN_TOOLS, MAX_TOOL_OUTPUT, toolKey, toolSwitch, type BuiltinTool, type ToolDefinition, type ToolOutcome } from './types';

export interface ToolRunContext {
  /** The tab "Read this page" reads: the one beside the popup or side panel that asked. */
  tabId?: number | undefined;
  /** Tools switched off in the conversation (`toolSwitch`). */
  toolsOff: readonly string[];
}

export interface ToolHost {
  config(): Promise<ToolConfig>;
  /**
   * The tools to offer, and the servers that could not give theirs (with why); `gatewaySearch`:
   * web search is the gateway's own (the interface's search tool, not one of ours).
   */
  offer(context: ToolRunContext, signal?: AbortSignal): Promise<{ tools: ToolDefinition[]; failed: McpProblem[]; gatewaySearch: boolean }>;
  run(tool: ToolDefinition, args: Record<string, unknown>, context: ToolRunContext, signal: AbortSignal): Promise<ToolOutcome>;
  /** What a call of `tool` would act on, for its card before it runs: "Read this page"'s page's address. */
  target(tool: ToolDefinition, context: ToolRunContext): Promise<string | undefined>;
  /** "Always allow this tool": kept in the tool config. */
  allowAlways(key: string): Promise<void>;
}

export interface ToolHostDeps {
  loadConfig(): Promise<ToolConfig>;
  updateConfig(change: (config: ToolConfig) => ToolConfig): Promise<unknown>;
  mcp: McpConnections;
  /** The fetch for web search and fetched pages (the background's: host access to an origin lets it through). */
  fetch: typeof fetch;
  /** Reads a tab's page (the `readability` script); absent where there are no tabs to read. */
  readTab?(tabId: number, maxChars: number): Promise<ToolOutcome>;
  /** The address of a tab's page, where the browser tells it (undefined otherwise). */
  tabAddress?(tabId: number): Promise<string | undefined>;
  /** Keeps host access to an address while a tool uses it (the page asked for it on "Allow once"); returns the release. */
  holdAccess?(address: string): () => void;
}

/** How long an MCP server has to list its tools before a run goes on without them. */
const LIST_DEADLINE_MS = 10_000;

export function createToolHost(deps: ToolHostDeps): ToolHost {
  return {
    config: () => deps.loadConfig(),
    async offer(context, signal) {
      const config = await deps.loadConfig();
      const off = new Set(context.toolsOff);
      const taken = new Set<string>();
      const tools: ToolDefinition[] = [];
      const failed: McpProblem[] = [];
      const available: Record<BuiltinTool, boolean> = {
        read_page: context.tabId !== undefined && deps.readTab !== undefined,
        fetch_page: true,
        web_search: config.search.provider !== 'none' && config.search.provider !== 'gateway',
      };
      for (const name of BUILTIN_TOOLS) {
        if (!available[name] || off.has(name)) continue;
        taken.add(name);
        tools.push({ name, tool: name, source: BUILTIN_SOURCE, ...BUILTIN_SPECS[name] });
      }
      const servers = config.mcpServers.filter((s) => !off.has(toolSwitch(s.id, '')));
      const listings = await Promise.all(servers.map((server) => {
        const deadline = AbortSignal.timeout(LIST_DEADLINE_MS);
        return deps.mcp.list(server, signal === undefined ? deadline : AbortSignal.any([signal, deadline]));
      }));
      servers.forEach((server, i) => {
        const listing = listings[i]!;
        if (!listing.ok) {
          failed.push({ code: listing.code, params: listing.params });
          return;
        }
        for (const tool of listing.tools) {
          if (server.disabledTools.includes(tool.name)) continue;
          const name = modelToolName(server.id, server.name, tool.name, taken);
          taken.add(name);
          tools.push({ name, tool: tool.name, source: server.id, address: server.url, server: server.name, description: tool.description, parameters: tool.inputSchema });
        }
      });
      // The gateway's search runs on its side, with no card: only when the user lets web search run without asking.
      const searchAllowed = config.alwaysAllow.includes(toolKey(BUILTIN_SOURCE, 'web_search'));
      return { tools, failed, gatewaySearch: config.search.provider === 'gateway' && searchAllowed && !off.has('web_search') };
    },
    async run(tool, args, context, signal) {
      if (tool.source === BUILTIN_SOURCE) {
        if (tool.tool === 'web_search') return webSearch((await deps.loadConfig()).search, args, deps.fetch, signal);
        if (tool.tool === 'fetch_page') {
          const release = typeof args.url === 'string' ? deps.holdAccess?.(args.url) : undefined;
          try {
            return await fetchPage(args, deps.fetch, signal);
          } finally {
            release?.();
          }
        }
        if (tool.tool === 'read_page') {
          if (context.tabId === undefined || deps.readTab === undefined) return { ok: false, code: 'page_unreadable', params: { reason: 'no_tab' } };
          return deps.readTab(context.tabId, MAX_TOOL_OUTPUT);
        }
        return { ok: false, code: 'unknown_tool', params: { name: tool.name } };
      }
      const server = (await deps.loadConfig()).mcpServers.find((s) => s.id === tool.source);
      if (server === undefined) return { ok: false, code: 'tool_gone', params: { address: tool.address ?? '', name: tool.tool } };
      return deps.mcp.call(server, tool.tool, args, signal);
    },
    async target(tool, context) {
      if (tool.source !== BUILTIN_SOURCE || tool.tool !== 'read_page' || context.tabId === undefined) return undefined;
      return deps.tabAddress?.(context.tabId).catch(() => undefined);
    },
    async allowAlways(key) {
      await deps.updateConfig((config) => (config.alwaysAllow.includes(key) ? config : { ...config, alwaysAllow: [...config.alwaysAllow, key] }));
    },
  };
}
