import type { ReactNode } from 'react';

/** One settings section: a heading, a line on what it is for, its fields in a card. */
export function Section({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section id={id} aria-label={title} className="scroll-mt-6">
      <h2 className="text-lg font-semibold">{title}</h2>
      {intro !== undefined && <p className="mt-0.5 text-sm text-muted">{intro}</p>}
      <div className="mt-3 flex flex-col gap-4 rounded-lg border border-line bg-raised p-5 shadow-xs">{children}</div>
    </section>
  );
}
