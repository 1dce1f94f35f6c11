// Chromium benchmark (not a test; run by scripts/bench.sh, `make bench`). For each dump given, in one
// page of the built app (dist/, served on 127.0.0.1), on the same text loaded once into the page:
//   - js-yaml `load` alone (YAML dumps) or `JSON.parse` alone (JSON dumps), in the page's main thread;
//   - Faultline end to end: the text dropped as a file, read and analysed in the app's worker, the
//     report sent back and rendered (the worker loaded and warmed up first, as the page does on its
//     own once idle), and the secret scan that follows the report in the worker, to its end;
//   - the longest main-thread task seen during Faultline's run (PerformanceObserver long tasks), and
//     when it started, in seconds after the drop.
// Faultline runs once per worker count in BENCH_READERS (default "1,2,4": `?readers=K`, how many
// workers read a big List at once; 1 is the engine's worker alone). Then the app's first render
// (median of 5 fresh loads). Prints a table; exits 0 even when a run
// fails (the row says why): figures, not a verdict.
import { createServer } from 'node:http';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { basename, extname, join, normalize, resolve } from 'node:path';
import { DIST, launchBrowser } from './harness.mjs';

const dumps = process.argv.slice(2).map((p) => resolve(p));
if (dumps.length === 0) {
  console.error('usage: node bench.mjs DUMP...');
  process.exit(2);
}
const JS_YAML = join(import.meta.dirname, 'node_modules', 'js-yaml', 'dist', 'js-yaml.min.js');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

// The app at /app/, the dumps and js-yaml at /bench/: one origin, so the app's CSP lets the page load them.
const server = createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file;
  if (path.startsWith('/app/')) file = join(DIST, normalize(path.slice(5) || 'index.html'));
  else if (path === '/bench/js-yaml.min.js') file = JS_YAML;
  else if (path.startsWith('/bench/')) file = dumps.find((d) => basename(d) === path.slice(7));
  if (!file || (path.startsWith('/app/') && !file.startsWith(DIST))) return res.writeHead(404).end();
  try {
    const { size } = await stat(file.endsWith('/') ? join(file, 'index.html') : file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size });
    createReadStream(file).pipe(res);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const app = `${origin}/app/`;

const browser = await launchBrowser();
const runsFor = (bytes) => Number(process.env.BENCH_RUNS ?? 3) > 1 && bytes < 100e6 ? Number(process.env.BENCH_RUNS ?? 3) : 1;
// Of the figures there are: a paint entry can be missing from a load.
const median = (xs) => { const ok = xs.filter(Number.isFinite).sort((a, b) => a - b); return ok.length ? ok[Math.floor(ok.length / 2)] : NaN; };

const readerCounts = (process.env.BENCH_READERS ?? '1,2,4').split(',').map(Number).filter((k) => k >= 1);

async function openApp(readers) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(readers ? `${app}?readers=${readers}` : app, { waitUntil: 'load' });
  await page.locator('.finding').first().waitFor();
  return { context, page };
}

async function idle(page, timeout) {
  await page.locator('.app[data-analysis="idle"]').waitFor({ state: 'attached', timeout });
}

async function benchDump(dump, readers) {
  const name = basename(dump);
  const bytes = (await stat(dump)).size;
  const json = name.endsWith('.json');
  const runs = runsFor(bytes);
  const { context, page } = await openApp(readers);
  try {
    await page.evaluate(async (url) => {
      window.__text = await (await fetch(url)).text();
    }, `${origin}/bench/${name}`);
    // The baseline: js-yaml for YAML, JSON.parse for JSON, on the same string, main thread.
    if (!json) await page.addScriptTag({ url: `${origin}/bench/js-yaml.min.js` });
    const baseline = [];
    for (let i = 0; i < runs; i++) {
      baseline.push(await page.evaluate((json) => {
        const t0 = performance.now();
        const value = json ? JSON.parse(window.__text) : window.jsyaml.load(window.__text);
        const ms = performance.now() - t0;
        if (!value) throw new Error('nothing parsed');
        return ms;
      }, json));
    }
    // Faultline: the page has started its worker and warmed it up, as it does once idle after its
    // first render; then the dump is dropped.
    await page.locator('html[data-engine="warm"]').waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByRole('button', { name: 'Clear all' }).click();
    await idle(page, 60_000);
    const faultline = [];
    const withScan = [];
    let longest = 0;
    let longestAt = 0;
    let steps = '';
    let firstSteps = '';
    let failure = '';
    for (let i = 0; i < runs && !failure; i++) {
      // The file first, in its own task: encoding the text is the benchmark's set-up, not the app's
      // work, and must not count as one of the app's long tasks.
      await page.evaluate((name) => {
        window.__file = new File([window.__text], name);
      }, name);
      await page.evaluate(() => {
        window.__long = [];
        window.__observer = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
        });
        window.__observer.observe({ type: 'longtask' });
      });
      // Two times: to the report on screen (the worker then goes on looking for secrets), and to
      // the end of the secret scan.
      const { report: ms, scanned } = await page.evaluate((name) => new Promise((done) => {
        const t0 = performance.now();
        window.__t0 = t0;
        const times = {};
        // On screen once this frame is painted.
        const painted = (key) => requestAnimationFrame(() => setTimeout(() => {
          times[key] = performance.now() - t0;
          if (times.report !== undefined && times.scanned !== undefined) done(times);
        }));
        let reported = false;
        const observer = new MutationObserver(() => {
          const analysis = document.querySelector('.app')?.dataset.analysis;
          const row = [...document.querySelectorAll('.input-row .source, .input-error .where')]
            .some((e) => e.textContent.startsWith(name));
          if (analysis === 'running' || !row) return;
          if (!reported) {
            reported = true;
            painted('report');
          }
          if (analysis === 'idle') {
            observer.disconnect();
            painted('scanned');
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        const dt = new DataTransfer();
        dt.items.add(window.__file);
        document.querySelector('.drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }), name);
      const result = await page.evaluate(() => {
        window.__observer.disconnect();
        const steps = document.querySelector('.analysis-time')?.dataset.steps ?? '';
        const failed = [...document.querySelectorAll('.input-error .message')].map((e) => e.textContent)
          .find((m) => /stopped|too large/.test(m));
        // Each long task: how long it took, and when it started (ms after the drop).
        return { long: window.__long.map(([start, ms]) => [ms, start - window.__t0]), failed, steps };
      });
      if (result.failed) failure = result.failed.slice(0, 90);
      for (const [ms, at] of result.long) if (ms > longest) [longest, longestAt] = [ms, at];
      faultline.push(ms);
      withScan.push(scanned);
      if (i === 0) firstSteps = result.steps;
      steps = result.steps;
      await page.getByRole('button', { name: 'Clear all' }).click();
      await idle(page, 60_000);
    }
    return { name, readers, bytes, json, baseline: median(baseline), faultline: median(faultline), scanned: median(withScan), first: faultline[0], longest, longestAt, steps, firstSteps, failure };
  } catch (e) {
    return { name, readers, bytes, json, failure: String(e.message ?? e).split('\n')[0].slice(0, 90) };
  } finally {
    await context.close();
  }
}

// A paste of the dump's text into the paste box (issue 27): a paste over 1 MB becomes an input of its
// own, read by the worker. The time to the report on screen and the longest main-thread task from the
// paste event to then (the paste's own handling included: the text copied into a Blob).
async function benchPaste(dump) {
  const name = basename(dump);
  const bytes = (await stat(dump)).size;
  const { context, page } = await openApp();
  try {
    await page.evaluate(async (url) => {
      window.__text = await (await fetch(url)).text();
    }, `${origin}/bench/${name}`);
    await page.locator('html[data-engine="warm"]').waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByRole('button', { name: 'Clear all' }).click();
    await idle(page, 60_000);
    const result = await page.evaluate(() => new Promise((done) => {
      const long = [];
      const observer = new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration)));
      observer.observe({ type: 'longtask' });
      const dt = new DataTransfer();
      dt.setData('text/plain', window.__text);
      const t0 = performance.now();
      const seen = new MutationObserver(() => {
        const row = [...document.querySelectorAll('.input-row .source')].some((e) => e.textContent.startsWith('paste-'));
        if (!row || document.querySelector('.app')?.dataset.analysis === 'running') return;
        seen.disconnect();
        requestAnimationFrame(() => setTimeout(() => {
          observer.disconnect();
          done({ ms: performance.now() - t0, longest: Math.max(0, ...long), count: long.length });
        }));
      });
      seen.observe(document.body, { subtree: true, childList: true, attributes: true });
      document.querySelector('#paste').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }));
    return { name, bytes, ...result };
  } catch (e) {
    return { name, bytes, failure: String(e.message ?? e).split('\n')[0].slice(0, 90) };
  } finally {
    await context.close();
  }
}

async function firstRender() {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.querySelector('.finding')) {
          window.__firstFinding = performance.now();
          observer.disconnect();
        }
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(app, { waitUntil: 'load' });
    await page.locator('.finding').first().waitFor();
    times.push(await page.evaluate(() => ({
      finding: window.__firstFinding,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    })));
    await context.close();
  }
  return { finding: median(times.map((t) => t.finding)), fcp: median(times.map((t) => t.fcp)) };
}

const mb = (bytes) => bytes / 1e6;
const rows = [];
for (const dump of dumps) for (const readers of readerCounts) rows.push(await benchDump(dump, readers));
const cores = await (async () => {
  const { context, page } = await openApp();
  try { return await page.evaluate(() => navigator.hardwareConcurrency); } finally { await context.close(); }
})();
const pastes = [];
for (const dump of dumps) if ((await stat(dump)).size <= 60e6) pastes.push(await benchPaste(dump));
const render = await firstRender();
await browser.close();
server.close();

const pad = (s, n) => String(s).padStart(n);
console.log('Chromium (headless, 2 shared cores): one page per dump, the same text for each column.');
console.log('Faultline = drop -> read, analysed in the app\'s worker, report rendered (worker warm); "+ secrets" is');
console.log('to the end of the secret scan that follows the report. The baseline is js-yaml 4.3.2 load (YAML) or');
console.log('JSON.parse (JSON) alone on the main thread. Seconds, median; "first" is the first big analysis of the');
console.log('page, after its worker\'s warm-up on small inputs (the browser still optimises some of the engine\'s code');
console.log('during it). Long tasks: to the end of the scan. "w" is how many workers read a big List at once');
console.log(`(?readers=K; the browser says navigator.hardwareConcurrency = ${cores}).`);
console.log(`${'input'.padEnd(18)}${pad('w', 3)}${pad('MB', 8)}${pad('baseline s', 12)}${pad('Faultline s', 13)}${pad('+ secrets s', 13)}${pad('first s', 9)}${pad('MB/s', 8)}${pad('ratio', 8)}${pad('longest task ms', 17)}${pad('at s', 8)}`);
for (const r of rows) {
  if (r.faultline === undefined || r.failure) {
    const partial = r.baseline !== undefined ? `${pad((r.baseline / 1000).toFixed(2), 12)}` : '';
    console.log(`${r.name.padEnd(18)}${pad(r.readers, 3)}${pad(mb(r.bytes).toFixed(1), 8)}${partial}  FAILED: ${r.failure}`);
    continue;
  }
  const ratio = r.faultline / r.baseline;
  console.log(`${r.name.padEnd(18)}${pad(r.readers, 3)}${pad(mb(r.bytes).toFixed(1), 8)}${pad((r.baseline / 1000).toFixed(2), 12)}`
    + `${pad((r.faultline / 1000).toFixed(2), 13)}${pad((r.scanned / 1000).toFixed(2), 13)}${pad((r.first / 1000).toFixed(2), 9)}${pad((mb(r.bytes) / (r.faultline / 1000)).toFixed(1), 8)}`
    + `${pad(ratio.toFixed(2), 8)}${pad(r.longest.toFixed(0), 17)}${pad(r.longest ? (r.longestAt / 1000).toFixed(2) : '-', 8)}   (Faultline/${r.json ? 'JSON.parse' : 'js-yaml'})`);
}
console.log('Where the time goes in the worker (ms, as the app shows them on hover), first run and last run:');
for (const r of rows) {
  if (r.firstSteps) console.log(`${r.name.padEnd(18)}${pad(r.readers, 3)} first ${r.firstSteps}`);
  if (r.steps && r.steps !== r.firstSteps) console.log(`${''.padEnd(21)} last  ${r.steps}`);
}
console.log('Pasted into the paste box (Ctrl+V of the same text; over 1 MB it becomes an input of its own): seconds to');
console.log('the report on screen, and the main thread\'s long tasks (over 50 ms) from the paste event to then.');
for (const p of pastes) {
  if (p.failure) console.log(`${p.name.padEnd(18)}${pad(mb(p.bytes).toFixed(1), 8)}  FAILED: ${p.failure}`);
  else console.log(`${p.name.padEnd(18)}${pad(mb(p.bytes).toFixed(1), 8)}${pad((p.ms / 1000).toFixed(2), 8)} s   long tasks ${p.count}, longest ${p.longest.toFixed(0)} ms`);
}
console.log(`first render of the app (sample diagnosed, localhost): ${render.finding.toFixed(0)} ms; first contentful paint ${render.fcp.toFixed(0)} ms (median of 5)`);

// For the ratchet (scripts/ratchet.py): each figure a JSON line in BENCH_FIGURES, if set. The steps
// are the last run's, as the worker timed them.
if (process.env.BENCH_FIGURES) {
  const figures = [];
  const add = (figure, value) => { if (Number.isFinite(value)) figures.push(JSON.stringify({ figure: `chromium ${figure}`, value })); };
  for (const r of rows) {
    if (r.failure || r.faultline === undefined) continue;
    // One worker's figures keep their names; the others say how many workers read.
    const w = r.readers === 1 ? '' : ` ${r.readers} workers`;
    if (r.readers !== 1) {
      add(`${r.name}${w} faultline s`, r.faultline / 1000);
      for (const [step, ms] of r.steps.split(' ').filter(Boolean).map((s) => s.split('='))) add(`${r.name}${w} step ${step} ms`, Number(ms));
      continue;
    }
    add(`${r.name} baseline s`, r.baseline / 1000);
    add(`${r.name} faultline s`, r.faultline / 1000);
    add(`${r.name} + secrets s`, r.scanned / 1000);
    add(`${r.name} ratio to baseline`, r.faultline / r.baseline);
    add(`${r.name} longest task ms`, r.longest);
    for (const [step, ms] of r.steps.split(' ').filter(Boolean).map((s) => s.split('='))) add(`${r.name} step ${step} ms`, Number(ms));
  }
  for (const p of pastes) if (!p.failure) add(`${p.name} paste s`, p.ms / 1000);
  add('first render ms', render.finding);
  await appendFile(process.env.BENCH_FIGURES, figures.map((f) => `${f}\n`).join(''));
}
