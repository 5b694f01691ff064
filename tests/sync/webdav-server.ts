/**
 * A real WebDAV server for sync's tests: Debian's Apache with mod_dav, on 127.0.0.1, with Basic
 * authentication, its files in a fresh folder. Installed by the test command
 * (scripts/browser-deps.sh); without it, this says how to install it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const APACHE = process.env.APACHE_PATH ?? '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

export interface WebDavServer {
  /** The WebDAV address (ends with /dav/). */
  address: string;
  username: string;
  password: string;
  /** Where the server keeps what is written to it. */
  files: string;
  /** Every request served so far, as "METHOD /path status" lines, in the order they arrived. */
  requests(): string[];
  /** Stops the server at once (SIGKILL: as a crash would). */
  kill(): Promise<void>;
  /** Starts it again, on the same port and files. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function waitForPort(port: number, up: boolean, timeoutMs = 10_000, gone?: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone?.() === true) throw new Error(`Apache exited instead of starting on port ${port}`);
    const open = await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false);
    if (open === up) return;
    if (Date.now() > deadline) throw new Error(`Apache did not ${up ? 'start' : 'stop'} on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startWebDavServer(username = 'sync-user', password = 'sync pass ✓'): Promise<WebDavServer> {
  if (!existsSync(APACHE) || !existsSync(join(MODULES, 'mod_dav_fs.so'))) {
    throw new Error(`No Apache with mod_dav at ${APACHE}: install Debian's apache2 (apt-get install -y apache2), or run npm test, which does.`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'gateway-chat-webdav-'));
  chmodSync(dir, 0o755);
  const files = join(dir, 'www');
  const dav = join(files, 'dav');
  const locks = join(dir, 'locks');
  mkdirSync(dav, { recursive: true });
  mkdirSync(locks);
  const root = process.getuid?.() === 0;
  if (root) {
    // Apache will not serve as root: its workers run as www-data, which must own what they write.
    const uid = Number(execFileSync('id', ['-u', 'www-data']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'www-data']).toString().trim());
    for (const path of [files, dav, locks]) chownSync(path, uid, gid);
  }
  // The password file, bcrypt, written by htpasswd.
  execFileSync('htpasswd', ['-cbB', join(dir, 'htpasswd'), username, password], { stdio: 'ignore' });
  chmodSync(join(dir, 'htpasswd'), 0o644);
  const port = await freePort();
  const modules = ['mpm_event', 'authn_core', 'authn_file', 'auth_basic', 'authz_core', 'authz_user', 'dav', 'dav_fs'];
  writeFileSync(join(dir, 'httpd.conf'), [
    `ServerRoot "${dir}"`,
    ...modules.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`),
    `Listen 127.0.0.1:${port}`,
    'ServerName 127.0.0.1',
    ...(root ? ['User www-data', 'Group www-data'] : []),
    `PidFile "${join(dir, 'httpd.pid')}"`,
    `ErrorLog "${join(dir, 'error.log')}"`,
    'LogLevel warn',
    // Every request, for counting: method, path, status (mod_log_config is built into Debian's Apache).
    // Each line starts with when the request arrived (µs): Apache writes a line once it has
    // answered, so a long PUT's line can follow the next request's; requests() puts them back in order.
    `CustomLog "${join(dir, 'access.log')}" "%{usec}t %m %U %>s"`,
    `DocumentRoot "${files}"`,
    `DAVLockDB "${join(locks, 'DavLock')}"`,
    `<Directory "${dav}">`,
    '  DAV On',
    '  AuthType Basic',
    '  AuthName "Gateway Chat sync test"',
    `  AuthUserFile "${join(dir, 'htpasswd')}"`,
    '  Require valid-user',
    '</Directory>',
    '',
  ].join('\n'));
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    rmSync(join(dir, 'httpd.pid'), { force: true });
    child = spawn(APACHE, ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], { stdio: 'ignore' });
    try {
      await waitForPort(port, true, 10_000, () => child?.exitCode !== null);
    } catch (error) {
      const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
      throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
    }
  };
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill(signal);
    await exited;
    if (signal === 'SIGKILL') {
      // Its workers die with it (they are its children); wait until nothing answers.
      try {
        execFileSync('pkill', ['-9', '-f', join(dir, 'httpd.conf')]);
      } catch {
        // none left
      }
    }
    await waitForPort(port, false);
  };
  await start();
  return {
    address: `http://127.0.0.1:${port}/dav/`,
    username,
    password,
    files: dav,
    requests: () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter((line) => line !== '') : [])
      .map((line) => ({ at: Number(line.slice(0, line.indexOf(' '))), request: line.slice(line.indexOf(' ') + 1) }))
      .sort((a, b) => a.at - b.at)
      .map((r) => r.request),
    kill: () => stop('SIGKILL'),
    restart: start,
    close: async () => {
      await stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
