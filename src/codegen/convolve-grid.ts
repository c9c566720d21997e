/**
 * WGSL generator for batched, zero-padded 2-D FFT convolution on a P×Q grid ("grid convolution"):
 *
 *   y_s = crop( IFFT2( S_{l(s)} ⊙ FFT2( pad(x_s) ) ) ) · scale,     l(s) = ⌊s / comps⌋ mod layers
 *
 * x_s is an inRows×inCols block placed at the grid's origin, the rest of the P×Q grid is zero; the crop
 * keeps rows [outRow0, outRow0 + outRows) and columns [outCol0, outCol0 + outCols). S holds `layers`
 * P×Q spectra; consecutive groups of `comps` slices share one (EDM: the 3 field components of a layer).
 * With `inverse: false` the kernel computes FFT2(pad(x_s)) only and stores the whole grid (used to make
 * kernel spectra).
 *
 * Work saved by the zero padding: only the inRows non-zero rows are transformed on the way in (rows of
 * zeros transform to zeros) and only the outRows kept rows on the way out; the column transforms run
 * over all Q columns.
 *
 * Kernel kinds:
 *  - 'fused': one workgroup holds G whole grids in workgroup memory: load+pad → row FFTs → column FFTs →
 *    multiply → inverse column FFTs → inverse row FFTs → crop+scale → store. One pass over global memory.
 *  - 'rows-fwd' / 'cols' / 'rows-inv': the same chain split in three passes when a grid does not fit a
 *    workgroup: row FFTs of the input rows (→ T1: batch×inRows×Q), column work for a tile of W columns
 *    (forward, multiply, inverse; → T2: batch×outRows×Q), inverse row FFTs and crop (→ out).
 *
 * Every 1-D FFT is a Stockham transform in workgroup memory, in place: in a stage each butterfly reads
 * its R values j + k·N/R into registers, applies the twiddles W_{Ns·R}^{k·(j mod Ns)} and the radix-R DFT
 * (dft-small.ts, straight-line, folded constants), then — after a barrier, once everyone has read —
 * writes them to ⌊j/Ns⌋·Ns·R + (j mod Ns) + k·Ns (the Γ shuffle as an address map). Column lines let
 * consecutive invocations take consecutive columns, so workgroup-memory accesses are unit-stride across
 * invocations whatever the row pitch; row lines let them take consecutive j.
 */
import { stableKey } from './kernel-source.js';
import { dftEmitter, emitDft, f32 } from './dft-small.js';
import type { GridGeometry, GridKernelConfig } from '../planner/convolve-grid.js';

export type { GridGeometry, GridKernelConfig, GridKernelKind } from '../planner/convolve-grid.js';

export type GridBinding = 'src' | 'dst' | 'twiddles' | 'shape' | 'params';

export interface GridKernelSource {
  name: string;
  key: string;
  wgsl: string;
  entryPoint: string;
  /** Bindings the shader uses, in binding order (binding i = index in ['src','dst','twiddles','shape','params']). */
  bindings: GridBinding[];
  /** Workgroups needed for `batch` slices. */
  workgroups(batch: number): number;
  /** Workgroup memory in bytes. */
  workgroupBytes: number;
}

export const GRID_BINDING_INDEX: Record<GridBinding, number> = { src: 0, dst: 1, twiddles: 2, shape: 3, params: 4 };
/** params: batch, grid_x, comps, layers (u32). */
export const GRID_PARAMS_BYTES = 16;

interface LineSet {
  /** Number of lines. */
  lines: number;
  N: number;
  radices: number[];
  /** WGSL expression of the workgroup-memory index of element 0 of line `q` (a u32 expression). */
  base: (q: string) => string;
  /** Element stride within a line. */
  es: number;
  /** Offset of this length's table in the twiddle buffer. */
  twOff: number;
  /** 'line': consecutive invocations take consecutive lines (columns); 'j': consecutive butterflies. */
  order: 'line' | 'j';
}

class Emitter {
  usesTwiddles = false;
  readonly em = dftEmitter('t');
  constructor(private readonly T: number) {}

  /** In-place Stockham FFT of every line of `ls` in workgroup memory; ends with a barrier. */
  fft(ls: LineSet, sign: 1 | -1, out: string[]): void {
    if (ls.N === 1 || ls.lines === 0) return;
    let ns = 1;
    for (const R of ls.radices) {
      this.stage(ls, R, ns, sign, out, null);
      ns *= R;
    }
  }

  /**
   * Forward FFT, point-wise multiply, inverse FFT of every line, with the multiply fused into one stage:
   * the forward transform's last stage leaves butterfly j holding positions j + k·N/R in registers, which
   * are exactly the inputs of butterfly j of an inverse transform whose first radix is R (stage maps of
   * core/stockham.ts). So that stage multiplies by the spectrum and runs the inverse's first DFT without
   * a workgroup-memory round trip; the inverse uses the forward radices reversed.
   * `spectrum(q, pos)` is the WGSL expression of the factor for line q, position pos.
   */
  fftMulIfft(ls: LineSet, spectrum: (q: string, pos: string) => string, out: string[]): boolean {
    if (ls.N === 1 || ls.lines === 0 || ls.radices.length === 0) return false;
    const rad = ls.radices;
    let ns = 1;
    for (let s = 0; s < rad.length - 1; s++) {
      this.stage(ls, rad[s], ns, -1, out, null);
      ns *= rad[s];
    }
    this.stage(ls, rad[rad.length - 1], ns, -1, out, spectrum);
    const inv = [...rad].reverse();
    ns = inv[0];
    for (let s = 1; s < inv.length; s++) {
      this.stage({ ...ls, radices: inv }, inv[s], ns, 1, out, null);
      ns *= inv[s];
    }
    return true;
  }

  private stage(
    ls: LineSet,
    R: number,
    ns: number,
    sign: 1 | -1,
    out: string[],
    spectrum: ((q: string, pos: string) => string) | null,
  ): void {
    const { N, lines } = ls;
    const nb = N / R;
    const total = lines * nb;
    const K = Math.ceil(total / this.T);
    const exact = K * this.T === total;
    out.push(`{ // radix ${R}, Ns ${ns}, N ${N}${spectrum ? ', × spectrum, inverse radix ' + R : ''}`);
    for (let m = 0; m < K; m++) for (let k = 0; k < R; k++) out.push(`  var v${m}_${k}: vec2<f32>;`);
    const head = (m: number) => {
      const h = [`let b = lid + ${m * this.T}u;`];
      if (ls.order === 'line') h.push(`let q = b % ${lines}u;`, `let j = b / ${lines}u;`);
      else h.push(`let q = b / ${nb}u;`, `let j = b % ${nb}u;`);
      h.push(`let base = ${ls.base('q')};`);
      return h;
    };
    const at = (idx: string) => (ls.es === 1 ? `sh[base + ${idx}]` : `sh[base + (${idx}) * ${ls.es}u]`);
    for (let m = 0; m < K; m++) {
      const body: string[] = [...head(m)];
      const regs = Array.from({ length: R }, (_, k) => `v${m}_${k}`);
      for (let k = 0; k < R; k++) body.push(`${regs[k]} = ${at(k === 0 ? 'j' : `j + ${k * nb}u`)};`);
      if (ns > 1) {
        this.usesTwiddles = true;
        const step = N / (ns * R);
        body.push(`let jm = j % ${ns}u;`);
        for (let k = 1; k < R; k++) {
          const w = `twiddles[${ls.twOff}u + jm * ${k * step}u]`;
          body.push(`${regs[k]} = cmul(${regs[k]}, ${sign === -1 ? w : `conj2(${w})`});`);
        }
      }
      this.em.lines.length = 0;
      let outs = emitDft(this.em, regs, sign);
      body.push(...this.em.lines);
      if (spectrum) {
        // outs[k] holds position j + k·nb of the forward transform
        const prod = outs.map((o, k) => `cmul(${o}, ${spectrum('q', k === 0 ? 'j' : `j + ${k * nb}u`)})`);
        const names = prod.map(() => this.em.fresh('p'));
        prod.forEach((e, k) => body.push(`let ${names[k]} = ${e};`));
        this.em.lines.length = 0;
        outs = emitDft(this.em, names, 1);
        body.push(...this.em.lines);
      }
      for (let k = 0; k < R; k++) if (outs[k] !== regs[k]) body.push(`${regs[k]} = ${outs[k]};`);
      out.push(exact ? '  {' : `  if (lid + ${m * this.T}u < ${total}u) {`, ...body.map((l) => '    ' + l), '  }');
    }
    out.push('  workgroupBarrier();');
    // the fused stage ends as the inverse's first stage (Ns = 1)
    const wns = spectrum ? 1 : ns;
    for (let m = 0; m < K; m++) {
      const body: string[] = [...head(m)];
      for (let k = 0; k < R; k++) body.push(`${at(writeIndex(wns, R, nb, k))} = v${m}_${k};`);
      out.push(exact ? '  {' : `  if (lid + ${m * this.T}u < ${total}u) {`, ...body.map((l) => '    ' + l), '  }');
    }
    out.push('  workgroupBarrier();', '}');
  }
}

function writeIndex(ns: number, R: number, nb: number, k: number): string {
  if (ns === nb) return k === 0 ? 'j' : `j + ${k * ns}u`;
  if (ns === 1) return `j * ${R}u + ${k}u`;
  return `(j / ${ns}u) * ${ns * R}u + (j % ${ns}u) + ${k * ns}u`;
}

/** Loop `for (i = lid; i < count; i += T)` over a compile-time count. */
function loop(T: number, count: number, body: string[]): string[] {
  return [`for (var i = lid; i < ${count}u; i += ${T}u) {`, ...body.map((l) => '  ' + l), '}'];
}

export function generateGridKernel(g: GridGeometry, c: GridKernelConfig): GridKernelSource {
  const { P, Q } = g;
  const T = c.threads;
  const G = c.perWorkgroup;
  const em = new Emitter(T);
  const body: string[] = [];
  const scaleMul = c.scale === 1 ? '' : ` * ${f32(c.scale)}`;
  let usesShape = false;
  let shElems = 0;
  let workgroups: (batch: number) => number;
  const multiply = g.inverse;
  body.push('let wg = wid.x + wid.y * params.grid_x;', 'let batch = params.batch;');

  if (c.kind === 'fused') {
    const pitch = c.pitch;
    const SL = P * pitch;
    shElems = G * SL;
    workgroups = (batch) => Math.ceil(batch / G);
    body.push(`let slice0 = wg * ${G}u;`);
    // load + pad: every grid element is written (zeros outside the block)
    body.push(
      ...loop(T, G * P * Q, [
        `let gi = i / ${P * Q}u;`,
        `let rc = i % ${P * Q}u;`,
        `let r = rc / ${Q}u;`,
        `let cc = rc % ${Q}u;`,
        'let s = slice0 + gi;',
        'var v = vec2<f32>(0.0, 0.0);',
        `if (s < batch && r < ${g.inRows}u && cc < ${g.inCols}u) { v = src[s * ${g.inRows * g.inCols}u + r * ${g.inCols}u + cc]; }`,
        `sh[gi * ${SL}u + r * ${pitch}u + cc] = v;`,
      ]),
      'workgroupBarrier();',
    );
    const rowSet = (rows: number, row0: number): LineSet => ({
      lines: G * rows,
      N: Q,
      radices: c.radQ,
      base: (q) => `(${q} / ${rows}u) * ${SL}u + (${row0}u + ${q} % ${rows}u) * ${pitch}u`,
      es: 1,
      twOff: P,
      order: 'j',
    });
    const colSet: LineSet = {
      lines: G * Q,
      N: P,
      radices: c.radP,
      base: (q) => `(${q} / ${Q}u) * ${SL}u + ${q} % ${Q}u`,
      es: pitch,
      twOff: 0,
      order: 'line',
    };
    em.fft(rowSet(g.inRows, 0), -1, body);
    if (multiply) {
      usesShape = true;
      // spectrum factor for column line q (grid q / Q, column q % Q) at row `pos`
      const spec = (q: string, pos: string) =>
        `shape[((slice0 + ${q} / ${Q}u) / params.comps % params.layers) * ${P * Q}u + (${pos}) * ${Q}u + ${q} % ${Q}u]`;
      if (c.fuseMultiply === false || !em.fftMulIfft(colSet, spec, body)) {
        em.fft(colSet, -1, body);
        body.push(
          ...loop(T, G * P * Q, [
            `let gi = i / ${P * Q}u;`,
            `let rc = i % ${P * Q}u;`,
            'let s = slice0 + gi;',
            'let l = (s / params.comps) % params.layers;',
            `let a = gi * ${SL}u + (rc / ${Q}u) * ${pitch}u + rc % ${Q}u;`,
            `sh[a] = cmul(sh[a], shape[l * ${P * Q}u + rc]);`,
          ]),
          'workgroupBarrier();',
        );
        em.fft(colSet, 1, body);
      }
      em.fft(rowSet(g.outRows, g.outRow0), 1, body);
      body.push(
        ...loop(T, G * g.outRows * g.outCols, [
          `let gi = i / ${g.outRows * g.outCols}u;`,
          `let rc = i % ${g.outRows * g.outCols}u;`,
          'let s = slice0 + gi;',
          `let r = rc / ${g.outCols}u;`,
          `let cc = rc % ${g.outCols}u;`,
          `if (s < batch) { dst[s * ${g.outRows * g.outCols}u + rc] = sh[gi * ${SL}u + (${g.outRow0}u + r) * ${pitch}u + ${g.outCol0}u + cc]${scaleMul}; }`,
        ]),
      );
    } else {
      em.fft(colSet, -1, body);
      body.push(
        ...loop(T, G * P * Q, [
          `let gi = i / ${P * Q}u;`,
          `let rc = i % ${P * Q}u;`,
          'let s = slice0 + gi;',
          `if (s < batch) { dst[s * ${P * Q}u + rc] = sh[gi * ${SL}u + (rc / ${Q}u) * ${pitch}u + rc % ${Q}u]${scaleMul}; }`,
        ]),
      );
    }
  } else if (c.kind === 'rows-fwd' || c.kind === 'rows-inv') {
    const fwd = c.kind === 'rows-fwd';
    const pitch = c.pitch;
    const rows = fwd ? g.inRows : g.outRows;
    shElems = G * pitch;
    workgroups = (batch) => Math.ceil((batch * rows) / G);
    body.push(`let total = batch * ${rows}u;`, `let l0 = wg * ${G}u;`);
    // Global line gl = s·rows + r, so the row's data sits at gl·(row length) in src and dst.
    const srcCols = fwd ? g.inCols : Q;
    body.push(
      ...loop(T, G * Q, [
        `let q = i / ${Q}u;`,
        `let cc = i % ${Q}u;`,
        'let gl = l0 + q;',
        'var v = vec2<f32>(0.0, 0.0);',
        `if (gl < total && cc < ${srcCols}u) { v = src[gl * ${srcCols}u + cc]; }`,
        `sh[q * ${pitch}u + cc] = v;`,
      ]),
      'workgroupBarrier();',
    );
    em.fft(
      { lines: G, N: Q, radices: c.radQ, base: (q) => `${q} * ${pitch}u`, es: 1, twOff: P, order: 'j' },
      fwd ? -1 : 1,
      body,
    );
    if (fwd) {
      body.push(
        ...loop(T, G * Q, [
          `let q = i / ${Q}u;`,
          `let cc = i % ${Q}u;`,
          'let gl = l0 + q;',
          `if (gl < total) { dst[gl * ${Q}u + cc] = sh[q * ${pitch}u + cc]; }`,
        ]),
      );
    } else {
      body.push(
        ...loop(T, G * g.outCols, [
          `let q = i / ${g.outCols}u;`,
          `let cc = i % ${g.outCols}u;`,
          'let gl = l0 + q;',
          `if (gl < total) { dst[gl * ${g.outCols}u + cc] = sh[q * ${pitch}u + ${g.outCol0}u + cc]${scaleMul}; }`,
        ]),
      );
    }
  } else {
    // cols: workgroup = (slice, tile of W columns); lines are columns of length P, pitch ≥ P.
    const W = G;
    const pitch = c.pitch;
    const tiles = Q / W;
    shElems = W * pitch;
    workgroups = (batch) => batch * tiles;
    body.push(`let s = wg / ${tiles}u;`, `let c0 = (wg % ${tiles}u) * ${W}u;`, 'let live = s < batch;');
    body.push(
      ...loop(T, W * P, [
        `let r = i / ${W}u;`,
        `let w = i % ${W}u;`,
        'var v = vec2<f32>(0.0, 0.0);',
        `if (live && r < ${g.inRows}u) { v = src[(s * ${g.inRows}u + r) * ${Q}u + c0 + w]; }`,
        `sh[w * ${pitch}u + r] = v;`,
      ]),
      'workgroupBarrier();',
    );
    const colSet: LineSet = {
      lines: W,
      N: P,
      radices: c.radP,
      base: (q) => `${q} * ${pitch}u`,
      es: 1,
      twOff: 0,
      order: 'j',
    };
    if (multiply) {
      usesShape = true;
      body.push('let l = (s / params.comps) % params.layers;');
      const spec = (q: string, pos: string) => `shape[l * ${P * Q}u + (${pos}) * ${Q}u + c0 + ${q}]`;
      if (c.fuseMultiply === false || !em.fftMulIfft(colSet, spec, body)) {
        em.fft(colSet, -1, body);
        body.push(
          ...loop(T, W * P, [
            `let r = i / ${W}u;`,
            `let w = i % ${W}u;`,
            `let a = w * ${pitch}u + r; sh[a] = cmul(sh[a], shape[l * ${P * Q}u + r * ${Q}u + c0 + w]);`,
          ]),
          'workgroupBarrier();',
        );
        em.fft(colSet, 1, body);
      }
      body.push(
        ...loop(T, W * g.outRows, [
          `let r = i / ${W}u;`,
          `let w = i % ${W}u;`,
          `if (live) { dst[(s * ${g.outRows}u + r) * ${Q}u + c0 + w] = sh[w * ${pitch}u + ${g.outRow0}u + r]; }`,
        ]),
      );
    } else {
      em.fft(colSet, -1, body);
      body.push(
        ...loop(T, W * P, [
          `let r = i / ${W}u;`,
          `let w = i % ${W}u;`,
          `if (live) { dst[(s * ${P}u + r) * ${Q}u + c0 + w] = sh[w * ${pitch}u + r]${scaleMul}; }`,
        ]),
      );
    }
  }

  const decl: string[] = [];
  const bindings: GridBinding[] = ['src', 'dst'];
  decl.push('@group(0) @binding(0) var<storage, read> src: array<vec2<f32>>;');
  decl.push('@group(0) @binding(1) var<storage, read_write> dst: array<vec2<f32>>;');
  if (em.usesTwiddles) {
    decl.push('@group(0) @binding(2) var<storage, read> twiddles: array<vec2<f32>>;');
    bindings.push('twiddles');
  }
  if (usesShape) {
    decl.push('@group(0) @binding(3) var<storage, read> shape: array<vec2<f32>>;');
    bindings.push('shape');
  }
  decl.push(
    'struct Params { batch: u32, grid_x: u32, comps: u32, layers: u32 }',
    '@group(0) @binding(4) var<uniform> params: Params;',
  );
  bindings.push('params');
  decl.push(`var<workgroup> sh: array<vec2<f32>, ${shElems}>;`);
  decl.push(
    'fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }',
  );
  decl.push('fn conj2(a: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x, -a.y); }');

  const wgsl = [
    ...decl,
    `@compute @workgroup_size(${T})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    ...body.map((l) => '  ' + l),
    '}',
    '',
  ].join('\n');
  const key = stableKey({ k: 'grid-conv', g, c });
  return {
    name: `gridconv-${c.kind}-${P}x${Q}`,
    key,
    wgsl,
    entryPoint: 'main',
    bindings,
    workgroups,
    workgroupBytes: shElems * 8,
  };
}
