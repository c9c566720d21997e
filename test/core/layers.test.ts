/**
 * Layering of src/: each layer imports only from itself and the layers below it.
 *   errors.ts ← core ← util ← planner ← codegen ← backends ← api ← apps ← cli ← index.ts
 * (util may import only core and errors.) The test reads every src/**\/*.ts file's relative imports
 * (static, `export … from` and dynamic) and fails on any upward one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const LAYERS: Record<string, number> = {
  errors: 0,
  core: 1,
  util: 2,
  planner: 3,
  codegen: 4,
  backends: 5,
  api: 6,
  apps: 7,
  cli: 8,
  index: 9,
};

/** The repository root: the first folder above this file holding src/index.ts (works from dist/ too). */
function repoRoot(): string {
  let d = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(d, 'src', 'index.ts')) || !existsSync(join(d, 'package.json'))) {
    const up = dirname(d);
    if (up === d) throw new Error('src/index.ts not found above ' + fileURLToPath(import.meta.url));
    d = up;
  }
  return d;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative module specifiers of `import … from`, `export … from`, `import '…'` and `import('…')`. */
export function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
}

function layerOf(rel: string): string {
  const parts = rel.split('/');
  return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : parts[0];
}

test('the import parser sees static, re-export, side-effect and dynamic imports', () => {
  const text = [
    "import { a } from './a.js';",
    "import type {\n  B,\n} from '../b/b.js';",
    "export { c } from './c.js';",
    "import './d.js';",
    "const e = await import('../e.js');",
    "import { f } from 'node:fs';",
  ].join('\n');
  assert.deepEqual(relativeImports(text), ['./a.js', '../b/b.js', './c.js', './d.js', '../e.js']);
});

test('no src/ file imports from a higher layer', () => {
  const src = join(repoRoot(), 'src');
  const files = tsFiles(src);
  assert.ok(files.length > 50, `only ${files.length} files found under ${src}`);
  const upward: string[] = [];
  for (const file of files) {
    const from = relative(src, file).split('\\').join('/');
    const level = LAYERS[layerOf(from)];
    assert.ok(level !== undefined, `${from}: folder not in LAYERS (add it at its level)`);
    for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
      const to = relative(src, resolve(dirname(file), spec))
        .split('\\')
        .join('/')
        .replace(/\.js$/, '.ts');
      assert.ok(!to.startsWith('..'), `${from} imports ${spec}, outside src/`);
      const target = LAYERS[layerOf(to)];
      assert.ok(target !== undefined, `${from} imports ${to}: folder not in LAYERS`);
      if (target <= level) continue;
      upward.push(`${from} -> ${to} (${layerOf(from)} imports ${layerOf(to)})`);
    }
  }
  assert.deepEqual(upward, [], `upward imports:\n${upward.join('\n')}`);
});

test('butterfly plan is pure planning: src/cli/plan.ts imports no backend', () => {
  const text = readFileSync(join(repoRoot(), 'src', 'cli', 'plan.ts'), 'utf8');
  const backends = relativeImports(text).filter((spec) => spec.includes('/backends/'));
  assert.deepEqual(backends, [], 'plan.ts reaches a backend directly');
});
