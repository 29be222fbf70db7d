import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('npm start', () => {
  let child: ChildProcess | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'awards-start-'));
  afterAll(() => {
    // Whatever the outcome, nothing of this test stays running (its own process group).
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('passes SIGTERM on to the server: npm exits and no server is left on the port', async () => {
    const port = await freePort();
    child = spawn('npm', ['start', '--silent'], {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        DEMO_DATA: 'false',
        ADMIN_EMAIL: 'start.admin@example.com',
        ADMIN_PASSWORD: 'start-admin-long-passphrase',
        BACKUP_INTERVAL_HOURS: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined))?.status, { timeout: 90_000, interval: 250 })
      .toBe(200);
    child.kill('SIGTERM');
    await exited(child);
    await expect.poll(() => listening(port), { timeout: 15_000, interval: 200 }).toBe(false);
    expect(output).not.toContain('Error');
  }, 120_000);
});
