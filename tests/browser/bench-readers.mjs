// Chromium benchmark of reading a big List with 1, 2 and 4 workers (issue 43), not a test: one page
// per worker count (`?readers=K`), the dump dropped on each in turn, round after round, so that the
// machine's load falls on every count alike. Prints the median of each worker step and of the time
// to the report, per count. `node bench-readers.mjs DUMP [ROUNDS]` (default 7 rounds).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { basename, extname, join, normalize, resolve } from 'node:path';
import { DIST, launchBrowser } from './harness.mjs';

const dump = resolve(process.argv[2] ?? '');
const rounds = Number(process.argv[3] ?? 7);
const counts = (process.env.BENCH_READERS ?? '1,2,4').split(',').map(Number);
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
const server = createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const file = path.startsWith('/app/') ? join(DIST, normalize(path.slice(5) || 'index.html'))
    : path === `/bench/${basename(dump)}` ? dump : undefined;
  if (!file) return res.writeHead(404).end();
  try {
    const { size } = await stat(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size });
    createReadStream(file).pipe(res);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchBrowser();
const name = basename(dump);

const pages = [];
for (const k of counts) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${origin}/app/?readers=${k}`, { waitUntil: 'load' });
  await page.locator('html[data-engine="warm"]').waitFor({ state: 'attached', timeout: 60_000 });
  await page.evaluate(async (url) => { window.__text = await (await fetch(url)).text(); }, `${origin}/bench/${name}`);
  pages.push({ k, page, runs: [] });
}
const idle = (page) => page.locator('.app[data-analysis="idle"]').waitFor({ state: 'attached', timeout: 120_000 });
for (let round = 0; round < rounds; round++) {
  for (const p of pages) {
    await p.page.getByRole('button', { name: 'Clear all' }).click();
    await idle(p.page);
    await p.page.evaluate((name) => { window.__file = new File([window.__text], name); }, name);
    const ms = await p.page.evaluate((name) => new Promise((done) => {
      const t0 = performance.now();
      const observer = new MutationObserver(() => {
        const row = [...document.querySelectorAll('.input-row .source')].some((e) => e.textContent.startsWith(name));
        if (!row || document.querySelector('.app')?.dataset.analysis === 'running') return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0)));
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      const dt = new DataTransfer();
      dt.items.add(window.__file);
      document.querySelector('.drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }), name);
    await idle(p.page);
    const steps = await p.page.locator('.analysis-time').getAttribute('data-steps');
    const parsed = Object.fromEntries(steps.split(' ').map((s) => s.split('=')).map(([k, v]) => [k.replace(/^reading-\d+\./, 'reading.'), Number(v)]));
    // The reading: one step with one worker, its parts' steps summed with more.
    const parts = Object.entries(parsed).filter(([k]) => k.startsWith('reading.'));
    if (parts.length) parsed.reading = parts.reduce((sum, [, v]) => sum + v, 0);
    p.runs.push({ ms, steps: parsed });
  }
}
await browser.close();
server.close();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log(`${name}: median of ${rounds} rounds (the first round included: each page's first big analysis)`);
const stepNames = ['files', 'reading', 'reading.post', 'reading.check', 'reading.own', 'reading.wait', 'reading.merge', 'parts', 'relating', 'diagnosing', 'judging', 'timeline', 'sending'];
for (const p of pages) {
  const steps = stepNames.filter((s) => p.runs.some((r) => r.steps[s] !== undefined))
    .map((s) => `${s}=${median(p.runs.map((r) => r.steps[s] ?? 0)).toFixed(0)}`).join(' ');
  console.log(`  ${p.k} worker(s): report ${(median(p.runs.map((r) => r.ms)) / 1000).toFixed(2)} s; reading each round: ${p.runs.map((r) => r.steps.reading).join(' ')}; ${steps}`);
}
