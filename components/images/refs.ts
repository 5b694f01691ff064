import { IMAGE_REF_SCHEME } from '@/lib/images/types';

/** `![alt](gc-image:id)`, with the line break after it (the image shows in the reply's group instead). */
const REF = new RegExp(String.raw`!\[[^\]\n]*\]\(${IMAGE_REF_SCHEME}[^)\s]*\)[ \t]*\n?`, 'g');

/** A reply's text without its image references: the images are shown in "Generated images". */
export function withoutImageRefs(text: string): string {
  return text.includes(IMAGE_REF_SCHEME) ? text.replace(REF, '').trim() : text;
}

/** The image ids a reply's text names, in order. */
export function imageRefIds(text: string): string[] {
  if (!text.includes(IMAGE_REF_SCHEME)) return [];
  return [...text.matchAll(new RegExp(String.raw`!\[[^\]\n]*\]\(${IMAGE_REF_SCHEME}([^)\s]*)\)`, 'g'))].map((m) => m[1] ?? '').filter((id) => id !== '');
}
