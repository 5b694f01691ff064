/**
 * Filling an action's prompt. Page text is data, not instructions: the selection goes into
 * the user message inside a fenced block that no text in it can close, never into the system
 * prompt; and placeholders are filled in one pass, so a selection that contains "{{url}}"
 * stays as written.
 */

export interface TemplateFields {
  selection: string;
  title?: string;
  url?: string;
  language: string;
}

const PLACEHOLDER = /\{\{\s*(selection|title|url|language)\s*\}\}/g;

/** The selection as quoted material: a ``` fence longer than any run of backticks inside it. */
export function quoteSelection(selection: string): string {
  const longest = Math.max(0, ...[...selection.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${selection}\n${fence}`;
}

export function renderTemplate(template: string, fields: TemplateFields): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    switch (name) {
      case 'selection':
        return quoteSelection(fields.selection);
      case 'title':
        return fields.title === undefined || fields.title.trim() === '' ? '(untitled page)' : fields.title.trim();
      case 'url':
        return fields.url === undefined || fields.url === '' ? '(no address)' : fields.url;
      default:
        return fields.language;
    }
  });
}

/** An action's name as a menu shows it ("Translate to {{language}}" → "Translate to French"). */
export function actionTitle(name: string, language: string): string {
  return name.replace(/\{\{\s*language\s*\}\}/g, language);
}

/** The user's language, from a BCP 47 tag such as the browser's UI language. */
export function languageName(tag: string): string {
  try {
    const names = new Intl.DisplayNames(['en'], { type: 'language' });
    return names.of(tag) ?? tag;
  } catch {
    return tag;
  }
}
