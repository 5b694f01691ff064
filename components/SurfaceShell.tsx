export type Surface = 'popup' | 'sidepanel' | 'options' | 'chat';

const TITLES: Record<Surface, string> = {
  popup: 'Quick chat',
  sidepanel: 'Conversations',
  options: 'Settings',
  chat: 'Chat',
};

/** The frame every surface renders inside; each surface's real content arrives with its issue. */
export function SurfaceShell({ surface }: { surface: Surface }) {
  return (
    <main aria-label={TITLES[surface]} data-surface={surface}>
      <h1>Gateway Chat: {TITLES[surface]}</h1>
    </main>
  );
}
