import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { gatewayAccessHolder } from '@/lib/protocol/background.adapter';

/** Ports to the background as a page sees them; `stop` is the worker stopping (Chrome stops idle ones). */
function backgroundPorts() {
  const ports: { name: string; messages: unknown[]; closed: boolean; stop(): void }[] = [];
  vi.spyOn(fakeBrowser.runtime, 'connect').mockImplementation(((info?: { name?: string }) => {
    const disconnected: (() => void)[] = [];
    const port = { name: info?.name ?? '', messages: [] as unknown[], closed: false, stop: () => disconnected.forEach((l) => l()) };
    ports.push(port);
    return {
      name: port.name,
      postMessage: (m: unknown) => void port.messages.push(m),
      disconnect: () => void (port.closed = true),
      onDisconnect: { addListener: (l: () => void) => void disconnected.push(l) },
      onMessage: { addListener: () => undefined },
    };
  }) as unknown as typeof fakeBrowser.runtime.connect);
  return ports;
}

describe('a connection form\'s hold on host access (issue 28, item 10)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('connects only to hold, says what it holds, moves on the same port, and closes it to let go', () => {
    const ports = backgroundPorts();
    const holder = gatewayAccessHolder();
    expect(ports).toHaveLength(0);
    holder.hold('https://a.example/v1');
    holder.hold('https://b.example/v1');
    expect(ports).toHaveLength(1);
    expect(ports[0]!.name).toBe('gateway-access');
    expect(ports[0]!.messages).toEqual([{ type: 'hold', baseUrl: 'https://a.example/v1' }, { type: 'hold', baseUrl: 'https://b.example/v1' }]);
    holder.release();
    expect(ports[0]!.closed).toBe(true);
  });

  it('the worker stopped: a new one learns of the hold again; after letting go, nothing reconnects', async () => {
    vi.useFakeTimers();
    const ports = backgroundPorts();
    const holder = gatewayAccessHolder();
    holder.hold('https://a.example/v1');
    ports[0]!.stop();
    await vi.advanceTimersByTimeAsync(250);
    expect(ports).toHaveLength(2);
    expect(ports[1]!.messages).toEqual([{ type: 'hold', baseUrl: 'https://a.example/v1' }]);
    holder.release();
    ports[1]!.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(ports).toHaveLength(2);
  });

  it('no background to reach: holding does not throw', () => {
    vi.spyOn(fakeBrowser.runtime, 'connect').mockImplementation(() => {
      throw new Error('Extension context invalidated.');
    });
    const holder = gatewayAccessHolder();
    expect(() => holder.hold('https://a.example/v1')).not.toThrow();
    expect(() => holder.release()).not.toThrow();
  });
});
