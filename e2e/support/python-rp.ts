import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { E2E_DIR } from './paths.ts';

/**
 * The relying party outside Node (e2e/clients/authlib_rp.py): Debian's Python with python3-authlib
 * and python3-requests, the distribution's own packages, as a team running Python would use them.
 */
const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(E2E_DIR, 'clients', 'authlib_rp.py');
const READY = /relying party listening on (http:\/\/127\.0\.0\.1:\d+)/;
const START_TIMEOUT_MS = 20_000;

export interface PythonRelyingParty {
  readonly url: string;
  stop(): Promise<void>;
}

export interface PythonRelyingPartyOptions {
  readonly issuer: string;
  readonly clientId: string;
  /** Absent: a public client (token endpoint authentication `none`, PKCE). */
  readonly clientSecret?: string;
  readonly scope?: string;
  /** `consent` asks for offline_access (OpenID Connect Core §11). */
  readonly prompt?: string;
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts the Python relying party on a free loopback port; resolves once it serves. */
export function startPythonRelyingParty(options: PythonRelyingPartyOptions): Promise<PythonRelyingParty> {
  if (!existsSync(PYTHON)) {
    throw new Error(`${PYTHON} is missing: apt-get install -y python3-authlib python3-requests`);
  }
  const child = spawn(PYTHON, [SCRIPT], {
    env: {
      PATH: process.env.PATH,
      KEYCARD_ISSUER: options.issuer,
      RP_CLIENT_ID: options.clientId,
      RP_CLIENT_SECRET: options.clientSecret ?? '',
      ...(options.scope ? { RP_SCOPE: options.scope } : {}),
      ...(options.prompt ? { RP_PROMPT: options.prompt } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${message}\n${output}`));
    };
    const timer = setTimeout(
      () => fail(`the Python relying party did not start within ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS,
    );
    child.once('exit', (code) =>
      fail(
        `the Python relying party exited (${code}); is python3-authlib installed? ` +
          '(apt-get install -y python3-authlib python3-requests)',
      ),
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = READY.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ url, stop: () => stopped(child) });
    });
  });
}
