/**
 * Which interfaces a gateway was found not to serve. The catalogue names the interfaces a model
 * is served through (new-api's `supported_endpoint_types`), but a gateway may list one whose
 * route it does not have; a request there is then asked again through Chat Completions (see
 * `routeNotServed` in lib/gateway/client.ts), and the gateway's answer is remembered so the next
 * request goes straight there (lib/runs/route.ts). Remembered per profile for its address (a new
 * address may serve it) and for a day (the gateway may be updated); kept by storage.adapter.ts.
 */
import * as z from 'zod/mini';
import { API_STYLES, type ApiStyle } from '../gateway/interfaces/names';

export const UNSERVED_FOR_MS = 24 * 60 * 60 * 1000;

export const UnservedRoutesSchema = z.object({
  /** The profile's {base_url} when the routes were found missing. */
  baseUrl: z.string(),
  /** Each interface found missing, and when (epoch ms). */
  apis: z.array(z.object({ api: z.enum(API_STYLES), at: z.number() })),
});
export type UnservedRoutes = z.infer<typeof UnservedRoutesSchema>;

/** The interfaces still known to be missing at `baseUrl`. */
export function unservedAt(record: UnservedRoutes | undefined, baseUrl: string, now: number): ApiStyle[] {
  if (record === undefined || record.baseUrl !== baseUrl) return [];
  return record.apis.filter((entry) => entry.at <= now && now - entry.at < UNSERVED_FOR_MS).map((entry) => entry.api);
}

/** The record with `api` noted missing at `baseUrl` now (what was known of another address is dropped). */
export function withUnserved(record: UnservedRoutes | undefined, baseUrl: string, api: ApiStyle, now: number): UnservedRoutes {
  const kept = record === undefined || record.baseUrl !== baseUrl ? [] : record.apis.filter((entry) => entry.api !== api && now - entry.at < UNSERVED_FOR_MS);
  return { baseUrl, apis: [...kept, { api, at: now }] };
}
