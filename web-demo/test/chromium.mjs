// Shared by the browser tests: Debian's chromium driven by playwright-core (no browser download),
// headless, with a fresh profile and every background network feature off, so the only traffic
// is to the local server on 127.0.0.1.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../serve.mjs';

export const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Screenshots and bundles the tests leave behind (git-ignored). */
export const artifacts = join(repo, 'build', 'web-demo');
mkdirSync(artifacts, { recursive: true });

export const CHROMIUM = process.env.EDITCORE_CHROMIUM || '/usr/bin/chromium';

/** Starts the static server and chromium. Resolves to { server, browser (a context), page(), close() }.
 *  `headers` go on every file the server answers with; `args` are added to chromium's. */
export async function launch({ mounts = {}, headers = {}, args = [] } = {}) {
  const server = await startServer({ mounts, headers });
  const profile = mkdtempSync(join(tmpdir(), 'editcore-chromium-'));
  // launchPersistentContext is playwright's way to pass --user-data-dir (a fresh one here).
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', ...args],
  });
  const errors = [];
  return {
    server,
    browser,
    errors,
    /** A new page; console errors and uncaught exceptions are collected in `errors`. */
    async page(viewport = { width: 1280, height: 900 }) {
      const page = await browser.newPage();
      await page.setViewportSize(viewport);
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
