/**
 * Stands in for the MCP SDK's Ajv validator (`@modelcontextprotocol/sdk/.../validation/ajv-provider.js`)
 * in the extension's build (wxt.config.ts aliases it here). Ajv compiles schemas with `new Function`,
 * which an extension's worker and pages refuse; our client passes the SDK's eval-free
 * `CfWorkerJsonSchemaValidator` instead (lib/tools/mcp.ts), so Ajv is never used, and is not shipped.
 */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('Ajv is not in this build: pass a jsonSchemaValidator (lib/tools/mcp.ts uses CfWorkerJsonSchemaValidator).');
  }
}
