import { describe, expect, it } from 'vitest';
import { PREVIEW_DOCUMENT_CSP, PREVIEW_SANDBOX_CSP, previewDocument, previewHash, readPreviewHash } from '@/lib/render/preview-page';

const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
  const [name, ...values] = d.split(/\s+/);
  return [name!, values] as const;
}));

describe('the preview page contract', () => {
  it('carries any code through the hash unchanged, and nothing else is taken for a request', () => {
    const code = '<p>a & b # c ? d=e %25 “quotes” 中文 😀</p>\n<script>location.hash = "#x"</script>';
    const hash = previewHash({ kind: 'html', code, title: 'Preview' });
    expect(hash.startsWith('#')).toBe(true);
    expect(readPreviewHash(hash)).toEqual({ kind: 'html', code, title: 'Preview' });
    expect(readPreviewHash(previewHash({ kind: 'svg', code: '<svg/>', title: '预览' }))).toEqual({ kind: 'svg', code: '<svg/>', title: '预览' });
    expect(readPreviewHash('')).toBeUndefined();
    expect(readPreviewHash('#kind=js&code=alert(1)&title=x')).toBeUndefined();
    expect(readPreviewHash('#kind=html&title=x')).toBeUndefined();
  });

  it('the sandbox gives scripts and nothing else: no same origin, navigation, popups, forms, network or frames', () => {
    const rules = directives(PREVIEW_SANDBOX_CSP);
    expect(rules.get('sandbox')).toEqual(['allow-scripts']);
    expect(rules.get('script-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(rules.get('default-src')).toEqual(["'none'"]);
    for (const name of ['connect-src', 'frame-src', 'child-src', 'worker-src', 'object-src', 'form-action', 'base-uri']) expect(rules.get(name)).toEqual(["'none'"]);
    for (const name of ['img-src', 'media-src', 'font-src']) expect(rules.get(name)).toEqual(['data:']);
    expect(rules.get('style-src')).toEqual(["'unsafe-inline'"]);
  });

  it('the preview document states its rules before the code, and lets only inline script run', () => {
    const doc = previewDocument({ kind: 'html', code: '<meta http-equiv="Content-Security-Policy" content="script-src *"><p>hi</p>', title: 'Preview' });
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<p>hi</p>'));
    expect(doc.startsWith(`<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${PREVIEW_DOCUMENT_CSP}">`)).toBe(true);
    expect(directives(PREVIEW_DOCUMENT_CSP).get('script-src')).toEqual(["'unsafe-inline'"]);
    expect(directives(PREVIEW_DOCUMENT_CSP).get('connect-src')).toEqual(["'none'"]);
  });
});
