/**
 * The render lab (e2e builds only: wxt.config.ts drops it from others). Browser tests put
 * rendered reply HTML here, as the worker emits it, and the page's enhancers and click handling
 * run on it as on a chat page, without a gateway.
 */
import '@/components/styles.css';
import '@/components/chat/render/diagram.css';
import { enhanceDiagrams } from '@/components/chat/render/diagrams';
import { enhancePreviews, handlePreviewClick } from '@/components/chat/render/preview';
import { currentWords, prepareWords } from '@/components/i18n/words';

const root = document.getElementById('root')!;
root.addEventListener('click', (event) => {
  handlePreviewClick(event, currentWords());
});

async function mount(html: string): Promise<void> {
  await prepareWords();
  root.innerHTML = html;
  enhancePreviews(root, currentWords());
  await enhanceDiagrams(root, currentWords());
}

Object.assign(globalThis, { __renderLab: { mount } });
