/**
 * What a gateway error is made of, as codes and facts: its kinds, our detail codes, the pages a
 * remedy links to, the site an address belongs to, and the key's redaction. The error itself
 * (`GatewayError`, errors.ts, which re-exports all of this) is built from them; saved records
 * (lib/conversations/records.ts) need only these, so the pages that read records (the popup's
 * first chunk) do not carry the error class and its remedies.
 */

export const GATEWAY_ERROR_KINDS = [
  'invalid_key',
  'bad_address',
  'model_not_found',
  'insufficient_balance',
  'rate_limited',
  'permission_denied',
  'bad_request',
  'server',
  'network',
  'timeout',
  'aborted',
  'bad_response',
  /** The model's own filter blocked the prompt or stopped the reply (safety, recitation, a refusal). */
  'content_blocked',
] as const;

export type GatewayErrorKind = (typeof GATEWAY_ERROR_KINDS)[number];

/** Which page of the gateway's site a remedy links to; the UI names it. */
export const REMEDY_LINKS = ['keys', 'address', 'catalogue', 'dashboard', 'purchase', 'redeem', 'site'] as const;
export type RemedyLinkId = (typeof REMEDY_LINKS)[number];

export interface RemedyLink {
  id: RemedyLinkId;
  url: string;
}

/**
 * Our own account of a failure the gateway did not explain (a network failure, an unreadable
 * stream), as a code; `text` quotes what the gateway sent, verbatim (redacted, cut short).
 */
export const ERROR_DETAILS = [
  /** An error status with an empty body. */
  'no_explanation',
  /** An error status with a web page for a body. */
  'web_page',
  /** A 2xx web page where the API was expected (the address is the site, not the API). */
  'web_page_not_api',
  /** A 2xx body that is not JSON ({contentType}). */
  'not_json',
  /** An error status with a body we cannot read as an error object: `text` quotes it. */
  'body',
  /** A redirect ({location}): the address should be the final one. */
  'redirected',
  /** A body or a stream over the size this client reads ({megabytes}). */
  'body_too_large',
  'stream_too_large',
  'event_too_large',
  /** The reply's text and reasoning grew past the size a reply may have ({megabytes}, a setting). */
  'reply_too_large',
  /** `/models` did not answer `{"data": [...]}`. */
  'model_list_shape',
  /** A non-streamed reply without `choices[0].message`, or a Responses body without output. */
  'no_message',
  /** A streamed chunk or event that is not JSON, or not of its API's shape: `text` quotes it. */
  'chunk_not_json',
  'chunk_wrong_shape',
  /** `finish_reason: "error"` without an error object. */
  'upstream_failed',
  /** `response.failed` without an error object. */
  'response_failed',
  /**
   * The model's filter refused the prompt itself (Gemini's `promptFeedback.blockReason`), or
   * stopped the reply (a blocking finish reason on any interface): {reason} and, where the
   * vendor names it, {category} (codes of `lib/gateway/blocks.ts`).
   */
  'prompt_blocked',
  'reply_blocked',
  'stopped_before_answer',
  'stopped_while_streaming',
  /** Deadlines ({seconds}). */
  'first_token_timeout',
  'idle_timeout',
  'headers_timeout',
  'body_timeout',
  /** The reply was still streaming when the longest a reply may take had passed ({minutes}, a setting). */
  'total_timeout',
  /** The stream stayed open after it reported an error. */
  'settling_timeout',
  /** No connection to {origin} ({cause}: the platform's code, when known). */
  'connect_failed',
  'connection_dropped',
  /** The user did not grant the extension access to {origin}. */
  'access_not_granted',
  /** Something in this client failed: `text` holds the platform's error text. */
  'internal',
  /**
   * The gateway refused the request under its content policy or moderation (OpenAI's
   * `content_policy_violation`, `moderation_blocked`, new-api's `sensitive_words_detected`, …).
   */
  'content_policy',
  /**
   * The model does not take a value this request set ({param}: `size`, `quality`, …), and, when
   * the gateway listed them, the values it takes ({supported}, comma-joined).
   */
  'unsupported_option',
  /** The gateway or the model does not take tools (a 400 naming `tools`): asked again without them. */
  'tools_refused',
  /** No image, nor any answer, within {seconds} s of asking an image model (a setting). */
  'image_timeout',
  /** An image model's answer held no image. */
  'no_image',
  /** An image the gateway gave by address could not be downloaded ({status} or {contentType} when known): it may have expired. */
  'image_download_failed',
  /** An edit whose images are no longer stored (deleted since it was asked): nothing was sent. */
  'edit_source_missing',
  /** A speech model's answer was not audio ({contentType}, what it was). */
  'not_audio',
  /** A transcription's answer held no transcript. */
  'no_transcript',
] as const;
export type ErrorDetailCode = (typeof ERROR_DETAILS)[number];

export interface ErrorDetail {
  code: ErrorDetailCode;
  params?: Record<string, string | number>;
  /** What the gateway sent, verbatim (redacted and cut), or the platform's own error text. */
  text?: string;
}

export function siteFromUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const v1 = parsed.pathname.indexOf('/v1');
    return parsed.origin + (v1 > 0 ? parsed.pathname.slice(0, v1) : '');
  } catch {
    return url;
  }
}

const SECRET_PATTERN = /\b(sk|pk|rk)-[A-Za-z0-9_\-*.]{6,}/g;
/** The shortest run of a key's characters that counts as a piece of it. */
const KEY_PIECE = 8;
const REMOVED = '[key removed]';

/**
 * Remove the key (and anything shaped like one) from a text the gateway sent back. The
 * configured key is removed whatever it looks like, and so is every piece of it of
 * `KEY_PIECE` characters or more (a gateway that echoes "sk-abcd1234…" or the first half of
 * a key). Redact before cutting a text short: a cut key is no longer the key.
 */
export function redactSecrets(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey !== undefined && apiKey.length >= 4) {
    out = out.split(apiKey).join(REMOVED);
    if (apiKey.length >= KEY_PIECE) out = removeKeyPieces(out, apiKey);
  }
  return out.replace(SECRET_PATTERN, `$1-${REMOVED}`);
}

/** Replaces every run of `KEY_PIECE`+ characters that stands in the key. */
function removeKeyPieces(text: string, apiKey: string): string {
  const pieces = new Set<string>();
  for (let i = 0; i + KEY_PIECE <= apiKey.length; i++) pieces.add(apiKey.slice(i, i + KEY_PIECE));
  let out = '';
  let i = 0;
  let copied = 0;
  while (i + KEY_PIECE <= text.length) {
    if (!pieces.has(text.slice(i, i + KEY_PIECE))) {
      i++;
      continue;
    }
    // Extend the match while each next window is still a piece of the key.
    let end = i + KEY_PIECE;
    while (end < text.length && pieces.has(text.slice(end - KEY_PIECE + 1, end + 1))) end++;
    out += text.slice(copied, i) + REMOVED;
    copied = end;
    i = end;
  }
  return out + text.slice(copied);
}
