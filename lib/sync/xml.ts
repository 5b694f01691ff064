/**
 * The text of XML elements by where they are (their local names, outermost first), for the
 * answers of WebDAV (PROPFIND) and S3 (listings, errors). htmlparser2 in XML mode: the
 * background has no DOMParser.
 */
import { Parser } from 'htmlparser2';

export interface XmlText {
  /** The local names of the element and its ancestors, outermost first. */
  path: string[];
  text: string;
}

export function xmlTexts(xml: string): XmlText[] {
  const out: XmlText[] = [];
  const stack: { name: string; text: string }[] = [];
  const local = (name: string): string => name.slice(name.indexOf(':') + 1);
  const parser = new Parser({
    onopentag(name) {
      stack.push({ name: local(name), text: '' });
    },
    ontext(data) {
      const top = stack.at(-1);
      if (top !== undefined) top.text += data;
    },
    onclosetag() {
      const top = stack.at(-1);
      if (top === undefined) return;
      out.push({ path: stack.map((s) => s.name), text: top.text.trim() });
      stack.pop();
    },
  }, { xmlMode: true, decodeEntities: true });
  parser.write(xml);
  parser.end();
  return out;
}

/** The texts of the elements whose path ends with `tail` (case as the server writes it). */
export function textsAt(texts: readonly XmlText[], ...tail: string[]): string[] {
  return texts.filter((t) => t.path.length >= tail.length && tail.every((name, i) => t.path[t.path.length - tail.length + i]!.toLowerCase() === name.toLowerCase())).map((t) => t.text);
}

/**
 * Each `container` element's descendants named in `fields`, by local name (lower case), in order:
 * a PROPFIND answer's responses, an S3 listing's Contents.
 */
export function groupsAt(texts: readonly XmlText[], container: string, fields: readonly string[]): Record<string, string>[] {
  const wanted = new Set(fields.map((f) => f.toLowerCase()));
  const target = container.toLowerCase();
  const groups: Record<string, string>[] = [];
  let current: Record<string, string> = {};
  for (const t of texts) {
    const names = t.path.map((n) => n.toLowerCase());
    const last = names.at(-1)!;
    if (last === target) {
      groups.push(current);
      current = {};
    } else if (names.slice(0, -1).includes(target) && wanted.has(last)) {
      current[last] = t.text;
    }
  }
  return groups;
}
