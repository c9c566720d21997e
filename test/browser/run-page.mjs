#!/usr/bin/env node
/**
 * Opens the built page (web/dist) in Chromium, waits for every demo, prints what the page exported
 * (backend, adapter, each demo's checks) as JSON and saves a full-page screenshot. For trying the page on
 * other machines and browsers, e.g. a GPU machine; not a test (the tests are page.test.mjs).
 *
 *   node test/browser/run-page.mjs [--chromium PATH] [--flags "a b"] [--no-default-flags]
 *                                  [--query "?bench=full"] [--out DIR (out/run-page)] [--timeout SECONDS]
 * Exit status 0 when every demo passed, 1 otherwise.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { BASE_FLAGS, WEBGPU_FLAGS, WEB, serve } from './harness.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const chromiumPath = opt('chromium', process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
const extra = (opt('flags', '') ?? '').split(/\s+/).filter(Boolean);
const flags = args.includes('--no-default-flags')
  ? [...BASE_FLAGS, ...extra]
  : [...BASE_FLAGS, ...WEBGPU_FLAGS, ...extra];
const query = opt('query', '');
const outDir = opt('out', 'out/run-page');
const timeoutMs = 1000 * Number(opt('timeout', '300'));

const { chromium } = createRequire(join(WEB, 'package.json'))('playwright-core');
const server = await serve();
const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: flags });
const lines = [];
let summary = { flags, chromium: chromiumPath, version: browser.version() };
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  page.on('console', (m) => lines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => lines.push(`pageerror: ${e.message}`));
  const t0 = Date.now();
  await page.goto(server.url + query);
  await page.waitForFunction(() => ['ready', 'error'].includes(window.__butterfly?.status), null, {
    timeout: timeoutMs,
    polling: 500,
  });
  const s = await page.evaluate(() => {
    const b = window.__butterfly;
    return {
      status: b.status,
      backend: b.backend,
      adapter: b.adapter,
      fallbackReason: b.fallbackReason,
      limits: b.limits,
      errors: b.errors,
      demos: b.demos,
    };
  });
  summary = { ...summary, seconds: (Date.now() - t0) / 1000, ...s };
  mkdirSync(outDir, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(outDir, 'page.png'), fullPage: true });
} catch (e) {
  summary.error = String(e);
} finally {
  summary.console = lines.slice(-40);
  await browser.close();
  await server.close();
}
const json = JSON.stringify(summary, null, 1);
console.log(json);
writeFileSync(join(outDir, 'summary.json'), json);
const ok =
  summary.status === 'ready' && summary.errors?.length === 0 && Object.values(summary.demos ?? {}).every((d) => d.pass);
process.exit(ok ? 0 : 1);
