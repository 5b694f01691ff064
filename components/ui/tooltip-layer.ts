/**
 * The page's one tooltip. A control names its tooltip in attributes (`tipProps`: `data-tip`, the
 * words, and `data-tip-side`); listeners on the document show it on hover (after a moment, at
 * once when moving on from another) and on keyboard focus, and hide it on leaving, a press,
 * Escape or a scroll that moves it. One element for the page instead of a Radix tooltip mounted
 * with every icon button (some 50 on the chat page with a conversation open: in a profile of its
 * opening, about half the time spent in components was tooltips' contexts and slots).
 * Placed with Floating UI (fetched with the first tooltip shown).
 */
export type TipSide = 'top' | 'bottom' | 'left' | 'right';

/** How long the pointer rests on a control before its tooltip shows; within `SKIP_MS` of another closing, at once. */
const DELAY_MS = 400;
const SKIP_MS = 200;
const ID = 'gc-tooltip';
const LOOK = 'animate-pop pointer-events-none fixed left-0 top-0 z-50 max-w-64 rounded-sm bg-fg px-2 py-1 text-xs text-bg shadow-pop';

const installed = new WeakSet<Document>();

/** Listens for tooltips in `doc`, once. */
export function installTooltips(doc: Document = document): void {
  if (installed.has(doc)) return;
  installed.add(doc);
  let trigger: HTMLElement | undefined;
  let tip: HTMLElement | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closedAt = -Infinity;
  let pressing = false;

  const hide = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (tip !== undefined) {
      tip.remove();
      tip = undefined;
      closedAt = performance.now();
    }
    if (trigger !== undefined && trigger.getAttribute('aria-describedby') === ID) trigger.removeAttribute('aria-describedby');
    trigger = undefined;
  };
  const show = (target: HTMLElement): void => {
    clearTimeout(timer);
    timer = undefined;
    const text = target.dataset.tip ?? '';
    if (!target.isConnected || text === '') return;
    const element = tip ?? doc.createElement('div');
    element.id = ID;
    element.setAttribute('role', 'tooltip');
    element.className = LOOK;
    element.textContent = text;
    element.style.visibility = 'hidden';
    if (tip === undefined) doc.body.append(element);
    tip = element;
    // Read as the control's description when it says more than its name.
    if (text !== target.getAttribute('aria-label') && !target.hasAttribute('aria-describedby')) target.setAttribute('aria-describedby', ID);
    const side = (target.dataset.tipSide ?? 'bottom') as TipSide;
    void place(target, element, side).then(() => {
      if (tip === element && trigger === target) element.style.visibility = '';
    });
  };
  const tipOf = (node: EventTarget | null): HTMLElement | undefined =>
    (node instanceof Element ? node.closest<HTMLElement>('[data-tip]') ?? undefined : undefined);

  doc.addEventListener('pointerover', (event) => {
    const target = tipOf(event.target);
    if (target === trigger) return;
    hide();
    if (target === undefined || event.pointerType === 'touch') return;
    trigger = target;
    timer = setTimeout(() => show(target), performance.now() - closedAt < SKIP_MS ? 0 : DELAY_MS);
  }, true);
  doc.addEventListener('pointerout', (event) => {
    if (trigger !== undefined && !(event.relatedTarget instanceof Node && trigger.contains(event.relatedTarget))) hide();
  }, true);
  // Keyboard focus shows it at once; focus that comes with a press does not.
  doc.addEventListener('pointerdown', () => {
    pressing = true;
    hide();
  }, true);
  doc.addEventListener('pointerup', () => {
    pressing = false;
  }, true);
  doc.addEventListener('focusin', (event) => {
    const target = tipOf(event.target);
    if (target === undefined || pressing) return;
    hide();
    trigger = target;
    show(target);
  }, true);
  // Leaving it, or a scroll that moves it (not one elsewhere: a reply streaming below), hides it.
  const around = (event: Event): void => {
    if (trigger !== undefined && event.target instanceof Node && (event.target.contains(trigger) || trigger.contains(event.target))) hide();
  };
  doc.addEventListener('focusout', around, true);
  doc.addEventListener('scroll', around, true);
  doc.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') hide();
  }, true);
}

async function place(target: HTMLElement, element: HTMLElement, side: TipSide): Promise<void> {
  const { computePosition, flip, offset, shift } = await import('@floating-ui/dom');
  const { x, y } = await computePosition(target, element, { strategy: 'fixed', placement: side, middleware: [offset(6), flip(), shift({ padding: 8 })] });
  element.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
}
