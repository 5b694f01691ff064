import { describe, expect, it } from 'vitest';
import { AccessKeeper } from '@/lib/settings/access-keeper';
import { serveAccessPort, type PortLike } from '@/lib/protocol/handlers';

/** A browser's permissions in memory: what is granted, what the manifest grants (cannot be removed). */
function browserPermissions(granted: string[], manifest: string[] = []) {
  const state = { granted: [...granted, ...manifest], saved: [] as string[] | undefined, removeCalls: [] as string[] };
  return {
    state,
    deps: {
      savedAddresses: async () => state.saved,
      granted: async () => [...state.granted],
      release: async (pattern: string) => {
        state.removeCalls.push(pattern);
        if (manifest.includes(pattern)) throw new Error('You cannot remove required permissions.');
        state.granted = state.granted.filter((p) => p !== pattern);
      },
    },
  };
}

describe('the access keeper (issue 28, item 10)', () => {
  it('gives back what no saved profile uses; one the manifest grants refuses without keeping the others', async () => {
    const { state, deps } = browserPermissions(['http://localhost:3000/*', 'https://old.example/*', 'https://kept.example/*'], ['http://127.0.0.1/*']);
    state.saved = ['https://kept.example/v1'];
    await new AccessKeeper(deps).reconcile();
    expect(state.granted).toEqual(['https://kept.example/*', 'http://127.0.0.1/*']);
    expect(state.removeCalls).toContain('http://127.0.0.1/*');
  });

  it('settings that cannot be read: nothing is given back (their profiles may use anything)', async () => {
    const { state, deps } = browserPermissions(['https://a.example/*']);
    state.saved = undefined;
    await new AccessKeeper(deps).reconcile();
    expect(state.granted).toEqual(['https://a.example/*']);
    expect(state.removeCalls).toEqual([]);
  });

  it('an address a form holds stays granted through any reconcile; letting go gives it back', async () => {
    const { state, deps } = browserPermissions(['https://tested.example/*']);
    const keeper = new AccessKeeper(deps);
    const letGo = keeper.hold('https://tested.example/v1');
    await keeper.reconcile();
    expect(state.granted).toEqual(['https://tested.example/*']);
    letGo();
    await keeper.reconcile();
    expect(state.granted).toEqual([]);
  });

  it('Test then Save on one address: a pass that read the settings before the save landed does not take back what the form held then', async () => {
    const { state, deps } = browserPermissions(['https://a.example/*', 'https://b.example/*']);
    state.saved = ['https://a.example/v1'];
    let settingsRead!: () => void;
    const reading = new Promise<void>((resolve) => { settingsRead = resolve; });
    let landSave!: () => void;
    const saveLands = new Promise<void>((resolve) => { landSave = resolve; });
    const keeper = new AccessKeeper({
      ...deps,
      // The settings are read as they were before the save; the save lands before the grants are looked at.
      savedAddresses: async () => {
        const before = [...state.saved!];
        settingsRead();
        await saveLands;
        return before;
      },
    });
    const letGo = keeper.hold('https://b.example/v1');
    const pass = keeper.reconcile();
    await reading;
    // The save lands and the form lets go of the address it held.
    state.saved = ['https://a.example/v1', 'https://b.example/v1'];
    letGo();
    landSave();
    await pass;
    expect(state.removeCalls).toEqual([]);
    expect(state.granted).toEqual(['https://a.example/*', 'https://b.example/*']);
  });

  it('a reconcile asked for while the last pass ends still gets a pass of its own', async () => {
    const { state, deps } = browserPermissions(['https://a.example/*']);
    state.saved = ['https://a.example/v1'];
    const keeper = new AccessKeeper(deps);
    const first = keeper.reconcile();
    await first;
    state.saved = [];
    await keeper.reconcile();
    expect(state.granted).toEqual([]);
  });

  it('letting go reconciles by itself, once', async () => {
    const { state, deps } = browserPermissions(['https://tested.example/*']);
    const keeper = new AccessKeeper(deps);
    const letGo = keeper.hold('https://tested.example/v1');
    letGo();
    letGo();
    await keeper.reconcile();
    expect(state.granted).toEqual([]);
    expect(state.removeCalls).toEqual(['https://tested.example/*']);
  });

  it('a hold taken while a pass is reading the grants keeps its address', async () => {
    const { state, deps } = browserPermissions(['https://tested.example/*']);
    let letGo: (() => void) | undefined;
    const keeper = new AccessKeeper({
      ...deps,
      granted: async () => {
        const now = await deps.granted();
        letGo ??= keeper.hold('https://tested.example/v1');
        return now;
      },
    });
    await keeper.reconcile();
    expect(state.granted).toEqual(['https://tested.example/*']);
    letGo?.();
    await keeper.reconcile();
    expect(state.granted).toEqual([]);
  });

  it('one pass at a time: a call during a pass gets one more pass after it, which sees the new settings', async () => {
    const { state, deps } = browserPermissions(['https://a.example/*', 'https://b.example/*']);
    state.saved = ['https://a.example/v1', 'https://b.example/v1'];
    let passes = 0;
    let inPass = 0;
    let overlapped = false;
    const keeper = new AccessKeeper({
      ...deps,
      savedAddresses: async () => {
        passes += 1;
        inPass += 1;
        overlapped ||= inPass > 1;
        await new Promise((r) => setTimeout(r, 5));
        inPass -= 1;
        return state.saved;
      },
    });
    const first = keeper.reconcile();
    // The profile on b moves to a while the first pass runs.
    state.saved = ['https://a.example/v1'];
    const second = keeper.reconcile();
    const third = keeper.reconcile();
    await Promise.all([first, second, third]);
    expect(overlapped).toBe(false);
    expect(passes).toBe(2);
    expect(state.granted).toEqual(['https://a.example/*']);
  });
});

/** A runtime port as the background sees one: messages in, a disconnect. */
function fakePort() {
  const listeners = { message: [] as ((m: unknown) => void)[], disconnect: [] as (() => void)[] };
  const port: PortLike = {
    postMessage: () => undefined,
    onMessage: { addListener: (l) => void listeners.message.push(l) },
    onDisconnect: { addListener: (l) => void listeners.disconnect.push(l) },
  };
  return { port, send: (m: unknown) => listeners.message.forEach((l) => l(m)), close: () => listeners.disconnect.forEach((l) => l()) };
}

describe('a connection form\'s hold over its port', () => {
  it('holds the address it names, moves with it, and lets go when the port closes (the form saved, left, or its page closed)', async () => {
    const { state, deps } = browserPermissions([]);
    const keeper = new AccessKeeper(deps);
    const form = fakePort();
    serveAccessPort(keeper, form.port);
    // Held first, then asked for (as the form does).
    form.send({ type: 'hold', baseUrl: 'https://first.example/v1' });
    state.granted.push('https://first.example/*');
    await keeper.reconcile();
    expect(state.granted).toEqual(['https://first.example/*']);

    form.send({ type: 'hold', baseUrl: 'https://second.example/v1' });
    state.granted.push('https://second.example/*');
    await keeper.reconcile();
    expect(state.granted).toEqual(['https://second.example/*']);

    form.send({ type: 'hold', baseUrl: 42 });
    form.send('constructor');
    await keeper.reconcile();
    expect(state.granted).toEqual(['https://second.example/*']);

    form.close();
    await keeper.reconcile();
    expect(state.granted).toEqual([]);
  });

  it('two forms holding the same origin: it stays until both let go', async () => {
    const { state, deps } = browserPermissions(['https://shared.example/*']);
    const keeper = new AccessKeeper(deps);
    const popup = fakePort();
    const options = fakePort();
    serveAccessPort(keeper, popup.port);
    serveAccessPort(keeper, options.port);
    popup.send({ type: 'hold', baseUrl: 'https://shared.example/v1' });
    options.send({ type: 'hold', baseUrl: 'https://shared.example/other' });
    popup.close();
    await keeper.reconcile();
    expect(state.granted).toEqual(['https://shared.example/*']);
    options.close();
    await keeper.reconcile();
    expect(state.granted).toEqual([]);
  });
});
