import { FileText, ShieldCheck } from 'lucide-react';
import { buttonClass } from '@/components/ui/Button';
import { useWords } from '@/components/i18n/words';
import { bundledTextUrl, extensionVersion } from '@/lib/surfaces/open.adapter';
import { Section } from './Section';

/** The version of this build, with what changed in it and the privacy statement (both shipped inside the extension). */
export function About() {
  const w = useWords();
  return (
    <Section id="about" title={w.t('options.section.about')}>
      <p className="text-sm"><span className="font-semibold">{w.t('app.name')}</span> <span className="version tabular-nums">{w.t('about.version', { version: extensionVersion() })}</span></p>
      <p className="flex flex-wrap gap-2">
        <a className={buttonClass('secondary', 'sm')} href={bundledTextUrl('CHANGELOG.txt')} target="_blank" rel="noopener noreferrer"><FileText aria-hidden />{w.t('about.changelog')}</a>
        <a className={buttonClass('secondary', 'sm')} href={bundledTextUrl('PRIVACY.txt')} target="_blank" rel="noopener noreferrer"><ShieldCheck aria-hidden />{w.t('about.privacy')}</a>
      </p>
    </Section>
  );
}
