/**
 * The interface a reply goes through: the one chosen for it, unless its gateway is known not to
 * serve that one (lib/settings/unserved-routes.ts), and the note a reply carries when it went
 * through Chat Completions instead.
 */
import type { Notice } from '../conversations/records';
import type { ApiStyle } from '../gateway/interfaces/names';

/** The interface a reply goes through, and the notice it carries when that is not the one chosen. */
export interface Route {
  api: ApiStyle;
  notice?: Notice;
}

/** Said on a reply asked through Chat Completions instead of `from`. */
export function reroutedFrom(from: ApiStyle): Required<Route> {
  return { api: 'chat', notice: { code: 'sent_through_chat', params: { api: from } } };
}

/** The chosen interface, or Chat Completions when the gateway is known not to serve it. */
export function routeAround(chosen: ApiStyle, unserved: readonly ApiStyle[]): Route {
  return chosen !== 'chat' && unserved.includes(chosen) ? reroutedFrom(chosen) : { api: chosen };
}

/** A reply's fields for its route: its notice, if it has one. */
export function withNotice(route: Route): { notice?: Notice } {
  return route.notice === undefined ? {} : { notice: route.notice };
}
