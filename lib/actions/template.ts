/**
 * Filling an action's prompt. Page text is data, not instructions: the selection goes into
 * the user message inside a fenced block that no text in it can close, never into the system
 * prompt; and placeholders are filled in one pass, so a selection that contains "{{url}}"
 * stays as written.
 */
import type { Words } from '../i18n/messages';
import type { Settings } from '../settings/schema';

export interface TemplateFields {
  selection: string;
  title?: string;
  url?: string;
  language: string;
  /** What stands for a missing title or address, in the user's language. */
  untitled?: string;
  noAddress?: string;
}

const PLACEHOLDER = /\{\{\s*(selection|title|url|language)\s*\}\}/g;

/**
 * Text as quoted material: a ``` fence longer than any run of backticks inside it, so nothing in
 * the text can close it. `language` names the fence (`text` for a selection, a file's language).
 */
export function quoteAs(text: string, language = 'text'): string {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/** The selection as quoted material (see quoteAs). */
export function quoteSelection(selection: string): string {
  return quoteAs(selection);
}

export function renderTemplate(template: string, fields: TemplateFields): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    switch (name) {
      case 'selection':
        return quoteSelection(fields.selection);
      case 'title':
        return fields.title === undefined || fields.title.trim() === '' ? fields.untitled ?? '-' : fields.title.trim();
      case 'url':
        return fields.url === undefined || fields.url === '' ? fields.noAddress ?? '-' : fields.url;
      default:
        return fields.language;
    }
  });
}

/** An action's name as a menu shows it ("Translate to {{language}}" → "Translate to French"). */
export function actionTitle(name: string, language: string): string {
  return name.replace(/\{\{\s*language\s*\}\}/g, language);
}

/** A language's name (`tag`, BCP 47) as written in the interface's language (`inLocale`). */
export function languageName(tag: string, inLocale = 'en'): string {
  try {
    const names = new Intl.DisplayNames([inLocale], { type: 'language' });
    return names.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

export type MessagePart = { type: 'text'; text: string } | { type: 'quote'; text: string };

const QUOTED = /(`{3,})text\n([\s\S]*?)\n\1(?!`)/g;

/**
 * A user message split into its own words and the selections quoted in it by
 * `quoteSelection`, so the UI can show a quote where the request holds a fence.
 */
export function splitQuotedSelections(text: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let at = 0;
  for (const match of text.matchAll(QUOTED)) {
    const before = text.slice(at, match.index).trim();
    if (before !== '') parts.push({ type: 'text', text: before });
    parts.push({ type: 'quote', text: match[2] ?? '' });
    at = match.index + match[0].length;
  }
  const rest = text.slice(at).trim();
  if (rest !== '' || parts.length === 0) parts.push({ type: 'text', text: parts.length === 0 ? text : rest });
  return parts;
}

/** The language an action answers in: the user's choice, else the interface's. */
export function actionLanguage(settings: Pick<Settings, 'language'>, words: Words): string {
  // zh-CN's own name for its written language is 简体中文 (zh-Hans), not 中文（中国）.
  return settings.language ?? languageName(words.locale === 'zh-CN' ? 'zh-Hans' : words.locale, words.locale);
}
