/**
 * Browser-test plumbing: build the page with Vite, serve web/dist on 127.0.0.1 (a random free port,
 * loopback only), start Debian's Chromium through playwright-core with WebGPU on SwiftShader.
 * Never downloads a browser: the executable is /usr/bin/chromium (or $CHROMIUM_PATH).
 *
 * playwright-core and vite are dependencies of web/package.json (npm --prefix web ci).
 */
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const WEB = join(ROOT, 'web');
export const DIST = join(WEB, 'dist');
// An ignored folder, so a test run leaves the checkout clean; BUTTERFLY_SCREENSHOTS=docs/screenshots refreshes
// the README's images.
export const SCREENSHOTS = resolve(ROOT, process.env.BUTTERFLY_SCREENSHOTS || join('out', 'screenshots'));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CI = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

const webRequire = createRequire(join(WEB, 'package.json'));

/**
 * Flags. WebGPU in headless Chromium without a GPU: the SwiftShader (Vulkan on the CPU) adapter.
 * --enable-unsafe-webgpu exposes WebGPU on Linux; the swiftshader flags pick the software adapter when
 * there is no GPU; --no-sandbox because CI runs as root; the rest keep Chromium off the (closed) network.
 */
export const WEBGPU_FLAGS = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-angle=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--enable-unsafe-swiftshader',
];
export const BASE_FLAGS = [
  '--no-sandbox',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-quic',
];

/** Why the browser tests cannot run here, or null. In CI a reason is a failure, elsewhere a skip. */
export function unavailableReason() {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (run: bash scripts/browser-deps.sh)`;
  try {
    webRequire.resolve('playwright-core');
    webRequire.resolve('vite');
  } catch {
    return 'web/ dependencies are not installed (run: npm --prefix web ci)';
  }
  return null;
}

export async function buildPage() {
  const vite = await import(pathToFileURL(webRequire.resolve('vite')).href);
  await vite.build({ configFile: join(WEB, 'vite.config.ts'), root: WEB, logLevel: 'warn' });
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('vite build wrote no web/dist/index.html');
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Static server for web/dist on 127.0.0.1; resolves to { url, close }. */
export function serve(dir = DIST) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    res.end(readFileSync(file));
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      ok({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

export async function launch(extraFlags = []) {
  const { chromium } = webRequire('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...BASE_FLAGS, ...WEBGPU_FLAGS, ...extraFlags],
    // Only loopback is ever contacted; nothing is downloaded.
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
}

/** Naive float64 DFT of one real frame: bins 0..n/2 as interleaved complex. Independent of the library. */
export function naiveRealDft(x) {
  const n = x.length;
  const out = new Float64Array(2 * (n / 2 + 1));
  for (let k = 0; k <= n / 2; k++) {
    let re = 0,
      im = 0;
    for (let j = 0; j < n; j++) {
      const a = (-2 * Math.PI * ((k * j) % n)) / n;
      re += x[j] * Math.cos(a);
      im += x[j] * Math.sin(a);
    }
    out[2 * k] = re;
    out[2 * k + 1] = im;
  }
  return out;
}

export function relL2(a, ref) {
  let num = 0,
    den = 0;
  for (let i = 0; i < ref.length; i++) {
    if (!Number.isFinite(a[i])) return Infinity;
    num += (a[i] - ref[i]) ** 2;
    den += ref[i] ** 2;
  }
  return Math.sqrt(num / den);
}
