/**
 * An imported file is data, never instructions. What it says is kept; what it could make the
 * extension do is not taken on trust:
 * - dates lie within [0, now] (an `updatedAt` far ahead would pin a conversation to the top of
 *   the list for ever, and hold the search index's watermark past every later change; a
 *   `retryAt` far ahead would hold Retry back for ever);
 * - an error's address and remedy links are rebuilt from the profile the conversation will
 *   live under (a stored "Keys page" link could point anywhere), and dropped where none is known;
 * - images are `data:image/` URLs only (anything else would be fetched from wherever it names);
 * - a conversation's own system prompt waits for the user to keep or remove it
 *   (`systemPromptReview`), as it steers every reply without being shown.
 * A record with nothing to change is returned as it is (the same object), so an export
 * imported again gives back the same bytes.
 */
import { remedyFor, type RemedyLink } from '../gateway/errors';
import type { Conversation, Message, MessageVersion, StoredError } from '../conversations/records';

/** Where a profile lives: all an import needs of it (never its key). */
export interface ProfileAddress {
  id: string;
  siteUrl: string;
  baseUrl: string;
}

export interface AsDataContext {
  /** The importing (active) profile: conversations whose own profile is not here go under it. */
  profileId: string;
  /** The profiles here. */
  profiles: readonly ProfileAddress[];
  now: number;
}

const clamp = (time: number, now: number): number => Math.min(Math.max(time, 0), now);

const isDataImage = (url: string): boolean => url.slice(0, 11).toLowerCase() === 'data:image/';

/** Whether `url` is the profile's base address or below it. */
function within(url: string, baseUrl: string): boolean {
  const base = baseUrl.replace(/\/+$/, '');
  return url === base || url.startsWith(`${base}/`);
}

function sameLinks(a: readonly RemedyLink[], b: readonly RemedyLink[]): boolean {
  return a.length === b.length && a.every((link, i) => link.id === b[i]!.id && link.url === b[i]!.url);
}

/** The error with its address and links as this profile gives them (none without a profile). */
function rebuiltError(error: StoredError, profile: ProfileAddress | undefined, now: number): StoredError {
  const url = profile === undefined ? '' : within(error.url, profile.baseUrl) ? error.url : profile.baseUrl;
  const siteUrl = profile?.siteUrl ?? '';
  const links = profile === undefined ? [] : remedyFor(error.kind, profile.siteUrl, { url }).links;
  const retryAt = error.retryAt === undefined ? undefined : clamp(error.retryAt, now);
  if (url === error.url && siteUrl === error.siteUrl && sameLinks(links, error.links) && retryAt === error.retryAt) return error;
  return { ...error, url, siteUrl, links, ...(retryAt === undefined ? {} : { retryAt }) };
}

function versionAsData<T extends MessageVersion>(version: T, profile: ProfileAddress | undefined, now: number): T {
  const createdAt = clamp(version.createdAt, now);
  const error = version.error === undefined ? undefined : rebuiltError(version.error, profile, now);
  if (createdAt === version.createdAt && error === version.error) return version;
  return { ...version, createdAt, ...(error === undefined ? {} : { error }) };
}

function messageAsData(message: Message, profile: ProfileAddress | undefined, now: number): Message {
  const reply = versionAsData(message, profile, now);
  const versions = message.versions?.map((v) => versionAsData(v, profile, now));
  const images = message.images?.filter(isDataImage);
  const versionsChanged = versions !== undefined && versions.some((v, i) => v !== message.versions![i]);
  const imagesChanged = images !== undefined && images.length !== message.images!.length;
  if (reply === message && !versionsChanged && !imagesChanged) return message;
  const { images: _images, ...rest } = reply;
  return { ...rest, ...(versionsChanged ? { versions } : {}), ...(images === undefined || images.length === 0 ? {} : { images }) };
}

function conversationAsData(conversation: Conversation, now: number): Conversation {
  const createdAt = clamp(conversation.createdAt, now);
  const updatedAt = clamp(conversation.updatedAt, now);
  const settings = conversation.settings;
  const review = settings?.systemPrompt !== undefined && settings.systemPrompt.trim() !== '' && settings.systemPromptReview === undefined;
  if (createdAt === conversation.createdAt && updatedAt === conversation.updatedAt && !review) return conversation;
  return { ...conversation, createdAt, updatedAt, ...(review ? { settings: { ...settings, systemPromptReview: 'imported' as const } } : {}) };
}

/** An imported conversation as data (see above). */
export function importedAsData<T extends { conversation: Conversation; messages: Message[] }>(item: T, context: AsDataContext): T {
  const { profiles, now } = context;
  const profile = profiles.find((p) => p.id === item.conversation.profileId) ?? profiles.find((p) => p.id === context.profileId);
  const conversation = conversationAsData(item.conversation, now);
  let changed = conversation !== item.conversation;
  const messages = item.messages.map((m) => {
    const kept = messageAsData(m, profile, now);
    if (kept !== m) changed = true;
    return kept;
  });
  return changed ? { ...item, conversation, messages } : item;
}
