// Shared set-up for the browser tests: a static server for dist/ under a sub-path, headless Debian
// Chromium driven by playwright-core, and a recorder of every request the page makes.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { join, extname, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = join(ROOT, 'dist');
export const SCREENSHOTS = join(ROOT, 'tests', 'browser', 'screenshots');
// The app is served from a sub-path to prove its URLs are relative.
export const BASE_PATH = '/some/sub/path/';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};

/** Serves dist/ at BASE_PATH on 127.0.0.1 (a free port); resolves to { url, close }. */
export async function serveDist({ beforeServing } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(BASE_PATH)) {
      res.writeHead(404).end('not under the base path');
      return;
    }
    const rel = normalize(path.slice(BASE_PATH.length) || 'index.html');
    if (rel.startsWith('..')) {
      res.writeHead(403).end();
      return;
    }
    await beforeServing?.(rel);
    try {
      const body = await readFile(join(DIST, rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${BASE_PATH}`, close: () => new Promise((r) => server.close(r)) };
}

/** Launches headless Debian Chromium with a fresh profile and no background networking. */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    // playwright's launch() gives every browser a fresh temporary profile (user data dir) already.
  });
}

/**
 * The engine worker's files: the page loads them on its first analysis, not at page load (the first
 * render needs no worker, and the first load stays small). They are the app's own files from its own
 * origin and carry no input (the input is posted to the worker, never sent).
 */
export const WORKER_FILES = ['engine-worker.js', 'faultline-worker.js', 'faultline-worker_bg.wasm'];

/**
 * Records every request a page makes. `markLoaded()` marks the end of page load; `problems()` lists
 * each request that went to another origin, or was made after load — except the engine worker's own
 * files, fetched from the page's origin when it first analyses.
 */
export function recordRequests(page, origin) {
  const requests = [];
  let loaded = false;
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:')) return; // not a network request (the inline favicon)
    requests.push({ url, afterLoad: loaded });
  });
  return {
    requests,
    markLoaded() { loaded = true; },
    problems() {
      const worker = new Set(WORKER_FILES.map((f) => `${origin}${BASE_PATH}${f}`));
      return requests
        .filter((r) => new URL(r.url).origin !== origin || (r.afterLoad && !worker.has(r.url)))
        .map((r) => `${r.afterLoad ? 'after load' : 'foreign'}: ${r.url}`);
    },
  };
}

/**
 * Waits until the page has no analysis running (the engine's worker answers asynchronously). Right
 * after a click or a fill the page has already rendered the analysis it asked for, so this cannot
 * pass too early; after a file drop, wait for something that shows the file was read first.
 */
export async function analysed(page, timeout = 60_000) {
  await page.locator('.app[data-analysis="idle"]').waitFor({ state: 'attached', timeout });
  // The finding cards of the report's first page come a few a frame: wait for all of them.
  await page.waitForFunction(() => !document.querySelector('.findings[aria-busy="true"]'), null, { timeout });
}

/** The page, whole, down to 16,000 px: Chromium does not finish a full-page capture of a page as
 * tall as the Rules page (45,000 px; a full-page capture resizes the view to the whole height), so a
 * taller page is captured from its top, in a view 16,000 px tall for the moment. */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const viewport = page.viewportSize();
  if (height <= 16_000 || !viewport) {
    await page.screenshot({ path, fullPage: true });
    return;
  }
  await page.setViewportSize({ width: viewport.width, height: 16_000 });
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}
