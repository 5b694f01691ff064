import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { withMoreWords } from '@/components/i18n/words';

/**
 * A component whose code is fetched the first time it is needed (a dialog when it first opens),
 * or earlier with `preload()` when the page is idle: until then it draws nothing. Unlike
 * `lazy`, no Suspense boundary holds the reveal back, and once loaded it stays mounted, so a
 * closing dialog still animates and returns focus. Its code comes with the more words, as
 * `lazyWithWords`'s does (components/i18n/words.ts).
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, isNeeded: (props: P) => boolean): { View: (props: P) => ReactNode; preload(): Promise<void> } {
  let Loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const preload = (): Promise<void> => (loading ??= withMoreWords(load).then((component) => {
    Loaded = component;
  }));
  function View(props: P): ReactNode {
    const [, setArrived] = useState(false);
    const needed = isNeeded(props);
    useEffect(() => {
      if (needed && Loaded === undefined) void preload().then(() => setArrived(true));
    }, [needed]);
    return Loaded === undefined ? null : <Loaded {...props} />;
  }
  return { View, preload };
}
