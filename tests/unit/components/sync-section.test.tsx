// @vitest-environment jsdom
/**
 * The options page's Sync section (issue 31), used as a user would: the setup form for WebDAV
 * and S3, "Test sync" against a real WebDAV server (Apache mod_dav), the passphrase, "Start
 * syncing", the status in every state, "Sync now", "Stop syncing on this device" and the erase
 * dialog's typed confirmation; and the chat page's indicator.
 */
import 'fake-indexeddb/auto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '@/components/settings/OptionsApp';
import { SyncSection } from '@/components/settings/SyncSection';
import { useSettingsStore } from '@/components/stores/settings';
import { useSyncStore } from '@/components/stores/sync';
import { SyncIndicator } from '@/components/sync/SyncIndicator';
import { defaultSettings } from '@/lib/settings/schema';
import { newDeviceId, storageFor, type SyncConfig } from '@/lib/sync/config';
import { joinSync } from '@/lib/sync/setup';
import { loadSyncConfig, loadSyncKey, saveSyncConfig, saveSyncKey, saveSyncStatus } from '@/lib/sync/sync.adapter';
import { startWebDavServer, type WebDavServer } from '../../sync/webdav-server';

let server: WebDavServer;
beforeAll(async () => {
  server = await startWebDavServer();
}, 30_000);
afterAll(async () => {
  await server?.close();
});

let folders = 0;
/** A folder no other test uses: each starts with no synced data. */
const freshFolder = (): string => `Gateway Chat ${++folders}`;

const webdav = (folder: string, overrides: Partial<Extract<SyncConfig, { service: 'webdav' }>> = {}): SyncConfig => ({
  service: 'webdav', address: server.address, username: server.username, password: server.password, folder, deviceId: newDeviceId(), syncSettings: false, ...overrides,
});

let permissionRequests: string[][] = [];
beforeEach(() => {
  fakeBrowser.reset();
  useSyncStore.setState({ loaded: false, summary: undefined, status: { state: 'off' }, seenAt: 0 });
  permissionRequests = [];
  // The user allows host access when the browser asks (the fake browser grants nothing by itself).
  vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async (permissions) => {
    permissionRequests.push(permissions.origins ?? []);
    return true;
  });
});

const section = async (): Promise<HTMLElement> => screen.findByRole('region', { name: 'Sync' });

/** What the page asks the background (which answers yes), in order. */
function backgroundAsked(): unknown[] {
  const asked: unknown[] = [];
  fakeBrowser.runtime.onMessage.addListener((message: unknown) => {
    asked.push(message);
    return Promise.resolve({ ok: true });
  });
  return asked;
}

/** Fills the WebDAV details as a user types them. */
async function fillWebDav(sync: HTMLElement, { password = server.password, folder }: { password?: string; folder: string }): Promise<void> {
  const form = within(sync);
  await userEvent.selectOptions(form.getByRole('combobox', { name: 'Sync service' }), 'WebDAV');
  await userEvent.type(form.getByRole('textbox', { name: 'Server address' }), server.address);
  await userEvent.type(form.getByRole('textbox', { name: 'Username' }), server.username);
  await userEvent.type(form.getByLabelText('Password'), password);
  await userEvent.clear(form.getByRole('textbox', { name: 'Folder' }));
  await userEvent.type(form.getByRole('textbox', { name: 'Folder' }), folder);
}

describe('setting sync up', () => {
  it('offers WebDAV first: server address, username, password, folder "Gateway Chat"; a malformed address says which field and what to do', async () => {
    render(<SyncSection />);
    const sync = within(await section());
    expect(sync.getByText(/End-to-end encrypted: the storage sees only ciphertext\. API keys never sync\./)).toBeInTheDocument();
    const service = sync.getByRole('combobox', { name: 'Sync service' });
    expect(service).toHaveValue('webdav');
    expect(within(service).getAllByRole('option').map((o) => o.textContent)).toEqual(['WebDAV', 'S3-compatible']);
    expect(sync.getByRole('textbox', { name: 'Server address' })).toHaveValue('');
    expect(sync.getByRole('textbox', { name: 'Username' })).toBeInTheDocument();
    expect(sync.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(sync.getByRole('textbox', { name: 'Folder' })).toHaveValue('Gateway Chat');
    expect(sync.getByRole('button', { name: 'Test sync' })).toBeDisabled();

    await userEvent.type(sync.getByRole('textbox', { name: 'Server address' }), 'dav.example.com/remote.php');
    expect(sync.getByRole('alert')).toHaveTextContent('The server address must be a whole address starting with https:// (or http://)');
    expect(sync.getByRole('textbox', { name: 'Server address' })).toHaveAccessibleDescription(/The server address must be a whole address/);
    expect(sync.getByRole('button', { name: 'Test sync' })).toBeDisabled();
    await userEvent.clear(sync.getByRole('textbox', { name: 'Server address' }));
    await userEvent.type(sync.getByRole('textbox', { name: 'Server address' }), 'https://dav.example.com/remote.php');
    expect(sync.queryByRole('alert')).toBeNull();
    expect(sync.getByRole('button', { name: 'Test sync' })).toBeEnabled();
    // http:// to another machine sends the password in the clear: said.
    await userEvent.clear(sync.getByRole('textbox', { name: 'Server address' }));
    await userEvent.type(sync.getByRole('textbox', { name: 'Server address' }), 'http://dav.example.com/');
    expect(sync.getByRole('note', { name: 'Security warning' })).toHaveTextContent('the password would cross the network unencrypted');
  });

  it('S3-compatible asks for endpoint, bucket, region ("auto"), access key ID and secret access key', async () => {
    render(<SyncSection />);
    const sync = within(await section());
    await userEvent.selectOptions(sync.getByRole('combobox', { name: 'Sync service' }), 'S3-compatible');
    expect(sync.queryByRole('textbox', { name: 'Server address' })).toBeNull();
    expect(sync.getByRole('textbox', { name: 'Endpoint' })).toBeInTheDocument();
    expect(sync.getByRole('textbox', { name: 'Region' })).toHaveValue('auto');
    expect(sync.getByLabelText('Secret access key')).toHaveAttribute('type', 'password');
    expect(sync.getByRole('textbox', { name: 'Folder' })).toHaveValue('Gateway Chat');
    await userEvent.type(sync.getByRole('textbox', { name: 'Endpoint' }), 'https://acct.r2.cloudflarestorage.com');
    await userEvent.type(sync.getByRole('textbox', { name: 'Bucket' }), 'gc');
    expect(sync.getByRole('alert')).toHaveTextContent('A bucket name has at least 3 characters');
    await userEvent.type(sync.getByRole('textbox', { name: 'Bucket' }), '-sync');
    await userEvent.type(sync.getByRole('textbox', { name: 'Access key ID' }), 'AKIAEXAMPLE');
    expect(sync.getByRole('button', { name: 'Test sync' })).toBeDisabled();
    await userEvent.type(sync.getByLabelText('Secret access key'), 'secret');
    expect(sync.queryByRole('alert')).toBeNull();
    expect(sync.getByRole('button', { name: 'Test sync' })).toBeEnabled();
  });

  it('"Test sync" asks for that one origin, then finds an empty folder: this device starts it', async () => {
    render(<SyncSection />);
    const sync = await section();
    await fillWebDav(sync, { folder: freshFolder() });
    await userEvent.click(within(sync).getByRole('button', { name: 'Test sync' }));
    expect(await within(sync).findByRole('status', {}, { timeout: 10_000 })).toBeInTheDocument();
    await within(sync).findByText('No synced data here yet: this device starts it. Choose an encryption passphrase.', {}, { timeout: 10_000 });
    expect(permissionRequests).toEqual([[`${new URL(server.address).origin}/*`]]);
    expect(within(sync).getByLabelText('Encryption passphrase')).toHaveAttribute('type', 'password');
    expect(within(sync).getByLabelText('Confirm passphrase')).toBeInTheDocument();
    expect(within(sync).getByRole('note')).toHaveTextContent('The passphrase cannot be recovered');
    expect(within(sync).getByRole('note')).toHaveTextContent('never stored or sent');
    // Changing a detail after the test asks for another test.
    await userEvent.type(within(sync).getByRole('textbox', { name: 'Folder' }), 'x');
    expect(within(sync).queryByLabelText('Encryption passphrase')).toBeNull();
    expect(within(sync).queryByRole('button', { name: 'Start syncing' })).toBeNull();
  });

  it('a wrong password: the 401, the exact address and what to do, and never the password', async () => {
    render(<SyncSection />);
    const sync = await section();
    await fillWebDav(sync, { folder: freshFolder(), password: 'not-the-password' });
    await userEvent.click(within(sync).getByRole('button', { name: 'Test sync' }));
    const alert = await within(sync).findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent(`The server refused the user name or password (401) at ${server.address}`);
    expect(alert).toHaveTextContent('Check them and test again.');
    expect(alert).toHaveTextContent('The test stopped at step 1 of 4: listing the folder.');
    expect(alert).not.toHaveTextContent('not-the-password');
    expect(within(sync).queryByLabelText('Encryption passphrase')).toBeNull();
  });

  it('host access refused: nothing is tested, and it says which origin it needs', async () => {
    vi.mocked(fakeBrowser.permissions.request).mockResolvedValue(false);
    const fetching = vi.spyOn(globalThis, 'fetch');
    render(<SyncSection />);
    const sync = await section();
    await fillWebDav(sync, { folder: freshFolder() });
    await userEvent.click(within(sync).getByRole('button', { name: 'Test sync' }));
    expect(await within(sync).findByRole('alert')).toHaveTextContent(`needs host access to ${new URL(server.address).origin} to reach the storage`);
    expect(fetching).not.toHaveBeenCalled();
    fetching.mockRestore();
  });

  it('the first device types the passphrase twice: a mismatch is said and nothing starts; the same twice saves the key and the details', async () => {
    const folder = freshFolder();
    render(<SyncSection />);
    const sync = await section();
    await fillWebDav(sync, { folder });
    await userEvent.click(within(sync).getByRole('button', { name: 'Test sync' }));
    await within(sync).findByText(/No synced data here yet/, {}, { timeout: 10_000 });
    await userEvent.type(within(sync).getByLabelText('Encryption passphrase'), 'correct horse battery');
    await userEvent.type(within(sync).getByLabelText('Confirm passphrase'), 'correct horse batterz');
    expect(within(sync).getByRole('alert')).toHaveTextContent('The two passphrases differ: type the same one twice.');
    await userEvent.click(within(sync).getByRole('button', { name: 'Start syncing' }));
    expect(await loadSyncConfig()).toBeUndefined();
    expect(existsSync(join(server.files, folder, 'gateway-chat', 'keycheck.json'))).toBe(false);

    await userEvent.clear(within(sync).getByLabelText('Confirm passphrase'));
    await userEvent.type(within(sync).getByLabelText('Confirm passphrase'), 'correct horse battery');
    expect(within(sync).queryByRole('alert')).toBeNull();
    await userEvent.click(within(sync).getByRole('button', { name: 'Start syncing' }));
    // On: the section shows where sync goes and its status instead of the form.
    const status = await within(sync).findByRole('status', { name: 'Sync status' }, { timeout: 15_000 });
    expect(status).toHaveTextContent('Not synced yet');
    const saved = await loadSyncConfig();
    expect(saved).toMatchObject({ service: 'webdav', address: server.address, username: server.username, password: server.password, folder });
    expect(existsSync(join(server.files, folder, 'gateway-chat', 'keycheck.json'))).toBe(true);
    // The key the passphrase gave, not extractable; the passphrase itself is kept nowhere.
    const key = await loadSyncKey();
    expect(key?.key.extractable).toBe(false);
    expect(within(sync).getByRole('status', { name: 'Sync status' })).toBeInTheDocument();
    expect(within(sync).queryByRole('textbox', { name: 'Server address' })).toBeNull();
    expect(sync).toHaveTextContent(server.address);
    expect(sync).toHaveTextContent(folder);
    // The store holds no credential.
    expect(JSON.stringify(useSyncStore.getState())).not.toContain(server.password);
  });

  it('another device finds the data and must give its passphrase: a wrong one is refused with nothing saved', async () => {
    const folder = freshFolder();
    expect((await joinSync(storageFor(webdav(folder)), 'the right one, long enough', true)).ok).toBe(true);
    render(<SyncSection />);
    const sync = await section();
    await fillWebDav(sync, { folder });
    await userEvent.click(within(sync).getByRole('button', { name: 'Test sync' }));
    await within(sync).findByText('Synced data found here. Enter its encryption passphrase.', {}, { timeout: 10_000 });
    expect(within(sync).queryByLabelText('Confirm passphrase')).toBeNull();
    await userEvent.type(within(sync).getByLabelText('Encryption passphrase'), 'the wrong one');
    await userEvent.click(within(sync).getByRole('button', { name: 'Start syncing' }));
    expect(await within(sync).findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent('That is not the passphrase this storage was set up with. Nothing was read or written.');
    expect(await loadSyncConfig()).toBeUndefined();
  });
});

describe('sync on', () => {
  const minutes = (n: number): number => n * 60_000;

  it('says the status in each state: synced when, syncing, paused with why and where, trying again at what time, not yet', async () => {
    await saveSyncConfig(webdav('Gateway Chat'));
    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now() - minutes(2) });
    render(<SyncSection />);
    const sync = within(await section());
    const status = await sync.findByRole('status', { name: 'Sync status' });
    expect(status).toHaveTextContent(/^Synced 2 minutes ago$/);
    expect(sync.getByText('WebDAV')).toBeInTheDocument();
    expect(sync.getByText(server.address)).toBeInTheDocument();

    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now() });
    await waitFor(() => expect(sync.getByRole('status', { name: 'Sync status' })).toHaveTextContent(/^Synced just now$/));
    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now(), unreadable: 2 });
    expect(await sync.findByText('2 files from other devices could not be read (changed, missing or older than before on the server); they are read again each time.')).toBeInTheDocument();

    await saveSyncStatus({ state: 'syncing', lastSyncedAt: Date.now() - minutes(5) });
    await waitFor(() => expect(sync.getByRole('status', { name: 'Sync status' })).toHaveTextContent(/^Syncing…$/));
    expect(sync.getByText('Last synced 5 minutes ago')).toBeInTheDocument();
    await saveSyncStatus({ state: 'syncing', lastSyncedAt: Date.now() - minutes(5), progress: { phase: 'down', done: 12, total: 1053 } });
    await waitFor(() => expect(sync.getByRole('status', { name: 'Sync status' })).toHaveTextContent(/^Syncing: receiving 12 of 1,053 parts…$/));

    const at = `${server.address}Gateway%20Chat/gateway-chat/`;
    await saveSyncStatus({ state: 'paused', code: 'unauthorized', status: 401, address: at });
    await waitFor(() => expect(sync.getByRole('status', { name: 'Sync status' })).toHaveTextContent(`Sync paused: the server refused the user name or password (401, ${at})`));
    expect(sync.getByRole('note')).toHaveTextContent('Once this is mended, press Sync now.');

    const retryAt = Date.now() + minutes(1);
    await saveSyncStatus({ state: 'retrying', code: 'unreachable', address: at, retryAt });
    const time = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(retryAt);
    await waitFor(() => expect(sync.getByRole('status', { name: 'Sync status' })).toHaveTextContent(`Sync will try again at ${time}: no answer from the server (${at})`));

    await saveSyncStatus({ state: 'idle' });
    await waitFor(() => expect(sync.getByRole('status', { name: 'Sync status' })).toHaveTextContent(/^Not synced yet$/));
  });

  it('a lost key or passphrase pauses sync: it says the passphrase must be entered again and sets up again from the same details', async () => {
    await saveSyncConfig(webdav('Gateway Chat'));
    await saveSyncStatus({ state: 'paused', code: 'no_key' });
    render(<SyncSection />);
    const sync = within(await section());
    await waitFor(() => expect(sync.getByRole('status', { name: 'Sync status' })).toHaveTextContent('Sync paused: this device has no sync key'));
    expect(sync.getByRole('note')).toHaveTextContent('Enter the encryption passphrase: sync goes on where it stopped, and nothing is sent again.');
    await userEvent.click(sync.getByRole('button', { name: 'Stop and set up again' }));
    expect(await sync.findByRole('textbox', { name: 'Server address' })).toHaveValue(server.address);
    expect(sync.getByRole('textbox', { name: 'Username' })).toHaveValue(server.username);
    expect(sync.getByRole('textbox', { name: 'Folder' })).toHaveValue('Gateway Chat');
    expect(await loadSyncConfig()).toBeUndefined();
  });

  it('the passphrase entered in the paused note unlocks sync where it stopped: a wrong one is refused, the right one kept, and a round asked for', async () => {
    const folder = freshFolder();
    const config = webdav(folder);
    expect((await joinSync(storageFor(config), 'the passphrase of record', true)).ok).toBe(true);
    await saveSyncConfig(config);
    await saveSyncStatus({ state: 'paused', code: 'no_key' });
    const asked = backgroundAsked();
    render(<SyncSection />);
    const sync = within(await section());
    const note = within(await sync.findByRole('note'));
    await userEvent.type(note.getByLabelText('Encryption passphrase'), 'not the one');
    await userEvent.click(note.getByRole('button', { name: 'Unlock' }));
    expect(await note.findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent('That is not the passphrase this storage was set up with.');
    expect(await loadSyncKey()).toBeUndefined();
    await userEvent.clear(note.getByLabelText('Encryption passphrase'));
    await userEvent.type(note.getByLabelText('Encryption passphrase'), 'the passphrase of record');
    await userEvent.click(note.getByRole('button', { name: 'Unlock' }));
    expect(await sync.findByText('Unlocked: sync goes on.', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect((await loadSyncKey())?.generation).toBe(1);
    expect(asked).toEqual([{ type: 'sync.now' }]);
    // The details were kept: sync is still on.
    expect(await loadSyncConfig()).toMatchObject({ folder, deviceId: config.deviceId });
  }, 40_000);

  it('a passphrase changed on another device pauses sync and says so', async () => {
    await saveSyncConfig(webdav('Gateway Chat'));
    await saveSyncStatus({ state: 'paused', code: 'passphrase_changed' });
    render(<SyncSection />);
    const sync = within(await section());
    await waitFor(() => expect(sync.getByRole('status', { name: 'Sync status' })).toHaveTextContent('Sync paused: the encryption passphrase was changed on another device'));
    expect(within(sync.getByRole('note')).getByRole('button', { name: 'Unlock' })).toBeInTheDocument();
  });

  it('"Change passphrase" takes the new one twice, writes the next key check on the server, keeps the new key with the old, and asks for a round', async () => {
    const folder = freshFolder();
    const config = webdav(folder);
    const joined = await joinSync(storageFor(config), 'the first passphrase', true);
    if (!joined.ok) throw new Error(joined.code);
    await saveSyncKey(joined.key);
    await saveSyncConfig(config);
    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now() });
    const asked = backgroundAsked();
    render(<SyncSection />);
    const sync = within(await section());
    await userEvent.click(await sync.findByRole('button', { name: 'Change passphrase' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Change the encryption passphrase?' }));
    await userEvent.type(dialog.getByLabelText('Current passphrase'), 'not the first one');
    await userEvent.type(dialog.getByLabelText('New passphrase'), 'the second passphrase');
    await userEvent.type(dialog.getByLabelText('Confirm new passphrase'), 'the second passphrasf');
    expect(dialog.getByText('The two passphrases differ: type the same one twice.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Change passphrase' })).toBeDisabled();
    await userEvent.clear(dialog.getByLabelText('Confirm new passphrase'));
    await userEvent.type(dialog.getByLabelText('Confirm new passphrase'), 'the second passphrase');
    // The current one is asked first: a wrong one changes nothing.
    await userEvent.click(dialog.getByRole('button', { name: 'Change passphrase' }));
    expect(await dialog.findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent('That is not the passphrase this storage was set up with.');
    expect(existsSync(join(server.files, folder, 'gateway-chat', 'keychecks', '2.json'))).toBe(false);
    await userEvent.clear(dialog.getByLabelText('Current passphrase'));
    await userEvent.type(dialog.getByLabelText('Current passphrase'), 'the first passphrase');
    await userEvent.click(dialog.getByRole('button', { name: 'Change passphrase' }));
    expect(await sync.findByText(/^The passphrase was changed\./, {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    const keys = await loadSyncKey();
    expect(keys?.generation).toBe(2);
    expect(keys?.older).toHaveLength(1);
    expect(existsSync(join(server.files, folder, 'gateway-chat', 'keychecks', '2.json'))).toBe(true);
    expect(asked).toEqual([{ type: 'sync.now' }]);
    expect((await joinSync(storageFor(config), 'the second passphrase', false)).ok).toBe(true);
  }, 40_000);

  it('"Sync now" asks the background for a round', async () => {
    await saveSyncConfig(webdav('Gateway Chat'));
    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now() });
    const asked = backgroundAsked();
    render(<SyncSection />);
    const sync = within(await section());
    await userEvent.click(await sync.findByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(asked).toEqual([{ type: 'sync.now' }]));
    expect(sync.queryByRole('alert')).toBeNull();
  });

  it('"Sync settings" is off at first; switched on, the stored details say so (the background then syncs the settings too)', async () => {
    await saveSyncConfig(webdav('Gateway Chat'));
    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now() });
    render(<SyncSection />);
    const sync = within(await section());
    const toggle = await sync.findByRole('switch', { name: 'Sync settings' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    await waitFor(async () => expect((await loadSyncConfig())?.syncSettings).toBe(true));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
  });

  it('"Stop syncing on this device" says local conversations stay; confirmed, the background says so on the server first, then the details go and the form is back', async () => {
    await saveSyncConfig(webdav('Gateway Chat'));
    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now() });
    const asked: { message: unknown; configured: boolean }[] = [];
    fakeBrowser.runtime.onMessage.addListener((message: unknown) => loadSyncConfig().then((config) => {
      asked.push({ message, configured: config !== undefined });
      return { ok: true };
    }));
    render(<SyncSection />);
    const sync = within(await section());
    await userEvent.click(await sync.findByRole('button', { name: 'Stop syncing on this device' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop syncing on this device?' });
    expect(dialog).toHaveTextContent('Local conversations stay on this device');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stop syncing' }));
    expect(await sync.findByRole('textbox', { name: 'Server address' })).toHaveValue('');
    expect(await loadSyncConfig()).toBeUndefined();
    expect(sync.getByRole('status')).toHaveTextContent('Sync is off on this device. Its conversations are still here.');
    expect(asked).toEqual([{ message: { type: 'sync.leave' }, configured: true }]);
  });

  it('"Erase synced data on the server" waits for the folder\'s name typed, then removes sync\'s folder on the server and stops here', async () => {
    const folder = freshFolder();
    expect((await joinSync(storageFor(webdav(folder)), 'a passphrase long enough', true)).ok).toBe(true);
    expect(existsSync(join(server.files, folder, 'gateway-chat', 'keycheck.json'))).toBe(true);
    await saveSyncConfig(webdav(folder));
    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now() });
    render(<SyncSection />);
    const sync = within(await section());
    await userEvent.click(await sync.findByRole('button', { name: 'Erase synced data on the server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase synced data on the server?' });
    expect(dialog).toHaveTextContent(`gateway-chat folder inside “${folder}”`);
    const erase = within(dialog).getByRole('button', { name: 'Erase' });
    expect(erase).toBeDisabled();
    const typed = within(dialog).getByRole('textbox', { name: 'Type the folder name to confirm' });
    await userEvent.type(typed, 'Gateway');
    expect(erase).toBeDisabled();
    await userEvent.clear(typed);
    await userEvent.type(typed, folder);
    expect(erase).toBeEnabled();
    await userEvent.click(erase);
    await waitFor(() => expect(existsSync(join(server.files, folder, 'gateway-chat'))).toBe(false), { timeout: 10_000 });
    expect(await sync.findByRole('textbox', { name: 'Server address' })).toBeInTheDocument();
    expect(await loadSyncConfig()).toBeUndefined();
    expect(sync.getByRole('status')).toHaveTextContent('The synced data was erased on the server');
  });

  it('an erase the server refuses says why, where and with what status, and keeps sync on', async () => {
    const folder = freshFolder();
    await saveSyncConfig(webdav(folder, { password: 'changed since' }));
    render(<SyncSection />);
    const sync = within(await section());
    await userEvent.click(await sync.findByRole('button', { name: 'Erase synced data on the server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase synced data on the server?' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type the folder name to confirm' }), folder);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase' }));
    expect(await within(dialog).findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(`The server refused the user name or password (401) at ${server.address}`);
    expect(await loadSyncConfig()).toMatchObject({ folder });
  });
});

describe('where sync shows', () => {
  beforeEach(() => {
    // The options page's sidebar follows the section in view (jsdom has no layout).
    (globalThis as Record<string, unknown>).IntersectionObserver ??= class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    };
    fakeBrowser.runtime.getManifest = () => ({ manifest_version: 3, name: 'Gateway Chat', version: '1.0.0' });
  });

  it('the options page has "Sync" after Appearance and before Data, in the sidebar too', async () => {
    useSettingsStore.setState({ parsed: { ok: true, settings: defaultSettings() } as never });
    render(<OptionsApp />);
    await section();
    const names = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(names.indexOf('Sync')).toBe(names.indexOf('Appearance') + 1);
    expect(names.indexOf('Data')).toBe(names.indexOf('Sync') + 1);
    expect(within(screen.getByRole('navigation', { name: 'Settings sections' })).getByRole('link', { name: 'Sync' })).toHaveAttribute('href', '#sync');
  });

  it('the chat page\'s indicator: nothing while sync is off; its short status, linking to the Sync section, while it is on', async () => {
    const { container } = render(<SyncIndicator />);
    await waitFor(() => expect(useSyncStore.getState().loaded).toBe(true));
    expect(container).toBeEmptyDOMElement();
    await saveSyncStatus({ state: 'idle', lastSyncedAt: Date.now() - 2 * 60_000 });
    await saveSyncConfig(webdav('Gateway Chat'));
    const status = await screen.findByRole('status', { name: 'Sync status' });
    expect(status).toHaveTextContent(/^Synced 2 min\. ago$/);
    expect(within(status).getByRole('link')).toHaveAttribute('href', expect.stringMatching(/\/options\.html#sync$/));
    await saveSyncStatus({ state: 'syncing' });
    await waitFor(() => expect(screen.getByRole('status', { name: 'Sync status' })).toHaveTextContent(/^Syncing…$/));
    await saveSyncStatus({ state: 'paused', code: 'wrong_passphrase' });
    await waitFor(() => expect(screen.getByRole('status', { name: 'Sync status' })).toHaveTextContent(/^Sync paused$/));
    expect(within(screen.getByRole('status', { name: 'Sync status' })).getByRole('link')).toHaveAttribute('title', 'Sync paused: the passphrase no longer matches this storage');
  });
});
