// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Profile } from '@/lib/settings/schema';
import { ConnectionForm } from '@/components/settings/ConnectionForm';

const KEY = 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ';

describe('ConnectionForm', () => {
  it('shows the exact endpoint as the address is typed, for the chosen API style', async () => {
    render(<ConnectionForm onSave={async () => undefined} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'gw.example.com/v1/v1/');
    expect(screen.getByLabelText('Endpoint')).toHaveTextContent('Requests go to https://gw.example.com/v1/chat/completions');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'API style' }), 'responses');
    expect(screen.getByLabelText('Endpoint')).toHaveTextContent('https://gw.example.com/v1/responses');
  });

  it('says what is wrong with the address and the key, each in its own words; Save waits', async () => {
    render(<ConnectionForm onSave={async () => undefined} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'ftp://gw.example.com');
    expect(screen.getByRole('alert')).toHaveTextContent('must start with http:// or https://');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Gateway address' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'https://gw.example.com');
    await userEvent.type(screen.getByLabelText('API key'), 'sk-short');
    expect(screen.getByRole('alert')).toHaveTextContent('only 8 characters long');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.clear(screen.getByLabelText('API key'));
    await userEvent.type(screen.getByLabelText('API key'), 'https://gw.example.com');
    expect(screen.getByRole('alert')).toHaveTextContent('This is an address, not a key');
  });

  it('paste to import fills the fields and says what it found, with the key masked', async () => {
    render(<ConnectionForm onSave={async () => undefined} />);
    await userEvent.click(screen.getByRole('textbox', { name: 'Paste to import' }));
    await userEvent.paste(`OPENAI_BASE_URL=https://gw.example.com/v1\nOPENAI_API_KEY=${KEY}`);
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(screen.getByRole('status')).toHaveTextContent('Found in the OPENAI_* environment lines: address https://gw.example.com/v1, key sk-Ab…GHIJ.');
    expect(screen.getByRole('status')).not.toHaveTextContent(KEY);
    expect(screen.getByRole('textbox', { name: 'Gateway address' })).toHaveValue('https://gw.example.com/v1');
    expect(screen.getByLabelText('API key')).toHaveValue(KEY);
    expect(screen.getByLabelText('API key')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('Save asks for access to that one origin; refused, nothing is saved and it says why', async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConnectionForm onSave={onSave} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'https://gw.example.com');
    await userEvent.type(screen.getByLabelText('API key'), KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The fake browser grants nothing: the form must not save silently without access.
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: without access to https://gw.example.com');
    expect(onSave).not.toHaveBeenCalled();
  });
});

const saved: Profile = { id: 'p1', name: 'A', siteUrl: 'https://a.example', baseUrl: 'https://a.example/v1', apiKey: KEY, apiStyle: 'chat', confirmedImageModels: [] };

describe('the key stays with its address (issue 8)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the address moved to another origin: nothing can be sent until the user clears the key or keeps it for the new address', async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConnectionForm profile={saved} onSave={onSave} />);
    const address = screen.getByRole('textbox', { name: 'Gateway address' });
    await userEvent.clear(address);
    await userEvent.type(address, 'https://b.example/v1');
    const warning = screen.getByRole('alert', { name: 'Key for another address' });
    expect(warning).toHaveTextContent('entered for https://a.example');
    expect(warning).toHaveTextContent('now points at https://b.example');
    expect(screen.getByRole('button', { name: 'Test connection' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Clear the key' }));
    expect(screen.getByLabelText('API key')).toHaveValue('');
    expect(screen.getByRole('status')).toHaveTextContent('The key for https://a.example was cleared: paste the key for https://b.example.');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('the same origin (another path) keeps the key; keeping it for a new origin is the user\'s choice', async () => {
    render(<ConnectionForm profile={saved} onSave={async () => undefined} />);
    const address = screen.getByRole('textbox', { name: 'Gateway address' });
    await userEvent.clear(address);
    await userEvent.type(address, 'https://a.example/v1beta/openai');
    expect(screen.queryByRole('alert', { name: 'Key for another address' })).toBeNull();
    await userEvent.clear(address);
    await userEvent.type(address, 'https://b.example');
    await userEvent.click(screen.getByRole('button', { name: 'Keep the key for the new address' }));
    expect(screen.getByLabelText('API key')).toHaveValue(KEY);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('importing an address without a key clears the key of the old address', async () => {
    render(<ConnectionForm profile={saved} onSave={async () => undefined} />);
    await userEvent.click(screen.getByRole('textbox', { name: 'Paste to import' }));
    await userEvent.paste('OPENAI_BASE_URL=https://b.example/v1');
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(screen.getByRole('textbox', { name: 'Gateway address' })).toHaveValue('https://b.example/v1');
    expect(screen.getByLabelText('API key')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Test connection' })).toBeDisabled();
  });

  it('a test still running when the address changes never reports "Connected" for the new one', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    let answer: ((r: Response) => void) | undefined;
    const seen: AbortSignal[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation((_url, init) => {
      if (init?.signal) seen.push(init.signal);
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    });
    render(<ConnectionForm profile={saved} onSave={async () => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Testing…')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'x');
    expect(seen[0]?.aborted).toBe(true);
    await act(async () => {
      answer?.(new Response(JSON.stringify({ data: [{ id: 'm1' }] }), { headers: { 'content-type': 'application/json' } }));
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(screen.queryByText(/Connected/)).toBeNull();
    expect(screen.queryByText('Testing…')).toBeNull();
  });

  it('a plain http:// address to another machine is flagged; loopback is not', async () => {
    render(<ConnectionForm onSave={async () => undefined} />);
    const address = screen.getByRole('textbox', { name: 'Gateway address' });
    await userEvent.type(address, 'http://gw.example.com');
    expect(screen.getByRole('note', { name: 'Security warning' })).toHaveTextContent('unencrypted');
    await userEvent.clear(address);
    await userEvent.type(address, 'http://127.0.0.1:3000');
    expect(screen.queryByRole('note', { name: 'Security warning' })).toBeNull();
  });
});

describe('one status per form, and a saved gateway that can chat (issue 9, item 4)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function answering(response: () => Response): void {
    vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => response());
  }

  it('Save after a failed test asks first; "Save anyway" saves, and its status replaces the test\'s', async () => {
    answering(() => new Response(JSON.stringify({ error: { message: 'Invalid token', type: 'invalid_request_error', code: '' } }), { status: 401, headers: { 'content-type': 'application/json' } }));
    const onSave = vi.fn(async () => undefined);
    render(<ConnectionForm profile={saved} onSave={onSave} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('The API key was rejected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert', { name: 'Save after a failed test' })).toHaveTextContent('The connection test just failed.');
    expect(onSave).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Save anyway' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(/^Saved\. Requests go to/)).toBeInTheDocument();
    expect(screen.queryByText('The API key was rejected')).toBeNull();
  });

  it('a new gateway saved after a good test starts with its first chat model', async () => {
    answering(() => new Response(JSON.stringify({ object: 'list', data: [
      { id: 'text-embedding-3-small', object: 'model', supported_endpoint_types: ['embeddings'] },
      { id: 'gpt-4o-mini', object: 'model', supported_endpoint_types: ['openai'] },
    ] }), { headers: { 'content-type': 'application/json' } }));
    const onSave = vi.fn(async (_profile: Profile) => undefined);
    render(<ConnectionForm onSave={onSave} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'https://gw.example.com');
    await userEvent.type(screen.getByLabelText('API key'), KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(/Connected: 2 models available/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave.mock.calls[0]?.[0].defaultModel).toBe('gpt-4o-mini');
  });
});

describe('host access the form works on (issue 28, item 10)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The background's end of the form's access port, as the background sees it: what was held, when it let go. */
  function backgroundPorts() {
    const events: string[] = [];
    vi.spyOn(fakeBrowser.runtime, 'connect').mockImplementation(((info?: { name?: string }) => {
      events.push(`connect ${info?.name}`);
      return {
        name: info?.name ?? '',
        postMessage: (m: { baseUrl: string }) => void events.push(`hold ${m.baseUrl}`),
        disconnect: () => void events.push('let go'),
        onDisconnect: { addListener: () => undefined },
        onMessage: { addListener: () => undefined },
      };
    }) as unknown as typeof fakeBrowser.runtime.connect);
    vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => {
      events.push('asked');
      return true;
    });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(JSON.stringify({ data: [{ id: 'm1' }] }), { headers: { 'content-type': 'application/json' } }));
    return events;
  }

  it('a Test holds its address before asking for it; moving to another origin lets go; the same origin keeps it', async () => {
    const events = backgroundPorts();
    render(<ConnectionForm profile={saved} onSave={async () => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(/Connected: 1 model available/)).toBeInTheDocument();
    expect(events).toEqual(['connect gateway-access', 'hold https://a.example/v1', 'asked']);
    const address = screen.getByRole('textbox', { name: 'Gateway address' });
    await userEvent.type(address, 'beta');
    expect(events.at(-1)).toBe('asked');
    await userEvent.clear(address);
    await userEvent.type(address, 'https://b.example/v1');
    expect(events.filter((e) => e === 'let go')).toHaveLength(1);
  });

  it('leaving the form without saving lets go', async () => {
    const events = backgroundPorts();
    const { unmount } = render(<ConnectionForm profile={saved} onSave={async () => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(/Connected/)).toBeInTheDocument();
    unmount();
    expect(events.at(-1)).toBe('let go');
  });

  it('Save holds the address until it is saved, then lets the saved profile keep it', async () => {
    const events = backgroundPorts();
    const onSave = vi.fn(async () => {
      events.push('saved');
      return undefined;
    });
    render(<ConnectionForm profile={saved} onSave={onSave} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(events).toEqual(['connect gateway-access', 'hold https://a.example/v1', 'asked', 'saved', 'let go']));
  });
});

describe('no pasted text can hang the page (issue 28)', () => {
  it('the paste box and the address field refuse text over their limit, naming it', async () => {
    render(<ConnectionForm onSave={async () => undefined} />);
    await userEvent.click(screen.getByRole('textbox', { name: 'Paste to import' }));
    await userEvent.paste(`OPENAI_API_KEY=${KEY}\n${'#'.repeat(25_000)}`);
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(screen.getByRole('alert')).toHaveTextContent('this box reads at most 20,000');
    expect(screen.getByLabelText('API key')).toHaveValue('');

    const address = screen.getByRole('textbox', { name: 'Gateway address' });
    await userEvent.click(address);
    await userEvent.paste(`https://gw.example.com/v1?${'q'.repeat(3000)}`);
    expect(address).toBeInvalid();
    expect(address).toHaveAccessibleDescription(/an address is at most 2,048/);
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });
});
