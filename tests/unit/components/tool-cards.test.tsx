// @vitest-environment jsdom
/**
 * Tool cards (issue 33) as a user meets them: a call waiting with its arguments and the three
 * answers, one running, done (a long result folded), failed with its reason, denied; the sources
 * as numbered links (pages only); "Allow once" on "Fetch a web page" asks for that origin first.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ToolCalls } from '@/components/tools/ToolCalls';
import type { Request } from '@/lib/protocol/messages';
import type { ToolCallRecord } from '@/lib/tools/types';

const asked: Request[] = [];
vi.mock('@/lib/protocol/background.adapter', () => ({
  askBackground: async (request: Request) => {
    asked.push(request);
    return { ok: true, decided: true };
  },
}));

const call = (over: Partial<ToolCallRecord>): ToolCallRecord => ({
  id: 'c1', name: 'notes__add', tool: 'add', source: 'srv', address: 'http://127.0.0.1:9/mcp', server: 'notes', arguments: '{"a":2,"b":3}', status: 'waiting', step: 1, at: 0, ...over,
});

let requests: string[][] = [];
beforeEach(() => {
  asked.length = 0;
  fakeBrowser.reset();
  requests = [];
  vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async (p) => {
    requests.push(p.origins ?? []);
    return true;
  });
});

describe('a tool card', () => {
  it('waiting: names the tool and its server, shows the arguments, and sends the answer chosen', async () => {
    render(<ToolCalls messageId="m1" calls={[call({})]} />);
    const card = screen.getByRole('region', { name: 'Tool call: add' });
    expect(within(card).getByText('Waiting for you')).toBeTruthy();
    expect(within(card).getByText('The model wants to run add on notes. Nothing runs until you allow it.')).toBeTruthy();
    expect(within(card).getByText(/"a": 2,\s+"b": 3/)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Always allow this tool' }));
    expect(asked).toEqual([{ type: 'run.tool', messageId: 'm1', callId: 'c1', decision: 'always' }]);
    expect(requests).toEqual([]);
  });

  it('"Read this page" waiting names the page it would read (its host)', () => {
    const read = call({ name: 'read_page', tool: 'read_page', source: 'builtin', address: 'https://news.example.com', server: undefined, arguments: '{}' });
    render(<ToolCalls messageId="m1" calls={[read]} />);
    const card = screen.getByRole('region', { name: 'Tool call: Read this page' });
    expect(within(card).getByText('The model wants to read this page (news.example.com). Nothing is read until you allow it.')).toBeTruthy();
    expect(within(card).getByText('news.example.com').getAttribute('title')).toBe('https://news.example.com');
  });

  it('"Allow once" on Fetch a web page asks for that page\'s origin first; refused, nothing is sent', async () => {
    const fetch = call({ name: 'fetch_page', tool: 'fetch_page', source: 'builtin', address: undefined, server: undefined, arguments: '{"url":"https://news.example.com/a?b=1"}' });
    render(<ToolCalls messageId="m1" calls={[fetch]} />);
    const card = screen.getByRole('region', { name: 'Tool call: Fetch a web page' });
    expect(within(card).getByText('The model wants to run Fetch a web page. Nothing runs until you allow it.')).toBeTruthy();
    // Each page is asked for on its own card: no "Always allow" for fetching.
    expect((within(card).getByRole('button', { name: 'Always allow this tool' }) as HTMLButtonElement).disabled).toBe(true);
    vi.mocked(fakeBrowser.permissions.request).mockResolvedValueOnce(false);
    await userEvent.click(within(card).getByRole('button', { name: 'Allow once' }));
    expect((await within(card).findByRole('alert')).textContent).toBe('Access to https://news.example.com was not granted: the page was not fetched.');
    expect(asked).toEqual([]);
    await userEvent.click(within(card).getByRole('button', { name: 'Allow once' }));
    expect(requests.at(-1)).toEqual(['https://news.example.com/*']);
    expect(asked).toEqual([{ type: 'run.tool', messageId: 'm1', callId: 'c1', decision: 'once' }]);
  });

  it('past the step cap: says so, and "Always allow" is not offered', () => {
    render(<ToolCalls messageId="m1" calls={[call({ step: 9, pastCap: true })]} />);
    expect(screen.getByText('This reply has already used tools 8 times: allow one more step?')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Always allow this tool' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('done, failed, denied and stopped: their state, the result (folded when long), the reason', () => {
    const long = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    render(<ToolCalls messageId="m1" calls={[
      call({ id: 'a', status: 'done', result: '2 + 3 = 5', preAllowed: true }),
      call({ id: 'b', tool: 'list', status: 'done', result: long, cutFrom: 90_000 }),
      call({ id: 'c', tool: 'fail', status: 'failed', error: { code: 'unauthorized', params: { address: 'http://127.0.0.1:9/mcp', status: 401 } } }),
      call({ id: 'd', tool: 'delete_note', status: 'denied' }),
      call({ id: 'e', tool: 'slow', status: 'stopped' }),
    ]} />);
    const done = screen.getByRole('region', { name: 'Tool call: add' });
    expect(within(done).getByText('Done')).toBeTruthy();
    expect(within(done).getByText('Ran without asking: you always allow this tool.')).toBeTruthy();
    expect((within(done).getByText('2 + 3 = 5').closest('details') as HTMLDetailsElement).open).toBe(true);
    const folded = screen.getByRole('region', { name: 'Tool call: list' });
    expect((within(folded).getByText(/line 20/).closest('details') as HTMLDetailsElement).open).toBe(false);
    expect(within(folded).getByText(`Result (${long.length} characters)`)).toBeTruthy();
    expect(within(folded).getByText(`Cut to ${long.length} of 90,000 characters for the model.`)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Tool call: fail' })).getByRole('note').textContent)
      .toBe('http://127.0.0.1:9/mcp refused the credentials (HTTP 401). Check the token in Options → MCP servers.');
    expect(within(screen.getByRole('region', { name: 'Tool call: delete_note' })).getByText('Denied')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Tool call: slow' })).getByText('Stopped')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow once' })).toBeNull();
  });

  it('a reply that no longer streams: its unfinished calls show as stopped, with nothing to answer', () => {
    render(<ToolCalls messageId="m1" live={false} calls={[call({}), call({ id: 'c2', tool: 'slow', status: 'running' })]} />);
    expect(within(screen.getByRole('region', { name: 'Tool call: add' })).getByText('Stopped')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Tool call: slow' })).getByText('Stopped')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow once' })).toBeNull();
  });

  it('sources: numbered, each a link to its page; an address that is not a page is not a link', () => {
    render(<ToolCalls messageId="m1" calls={[call({
      tool: 'web_search', source: 'builtin', status: 'done', result: '…',
      sources: [{ title: 'The Moon', url: 'https://tides.example.org/moon' }, { title: 'Trap', url: 'javascript:alert(1)' }, { title: 'Tables', url: 'https://sea.example.net/t' }],
    })]} />);
    const nav = screen.getByRole('navigation', { name: 'Sources' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')])).toEqual([
      ['The Moon', 'https://tides.example.org/moon', 'noopener noreferrer nofollow'],
      ['Tables', 'https://sea.example.net/t', 'noopener noreferrer nofollow'],
    ]);
    expect(within(nav).getByText('Trap').tagName).toBe('SPAN');
    expect(nav.textContent).toMatch(/\[1\]The Moon\[2\]Trap\[3\]Tables/);
  });
});
