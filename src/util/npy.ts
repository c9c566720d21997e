/**
 * NumPy .npy reading and writing (format versions 1.0–3.0) for little-endian float32 / float64
 * arrays in C order: what numpy.save writes for np.float32 / np.float64 arrays. No Node APIs, so it
 * works in browsers too.
 */
import { ArgumentError, UnsupportedError } from '../errors.js';

export interface NpyArray {
  shape: number[];
  dtype: 'float32' | 'float64';
  /** The values, converted to float64. */
  data: Float64Array;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** Parses a .npy file's bytes. Throws ArgumentError naming what is wrong with the file. */
export function parseNpy(bytes: Uint8Array, name = 'npy'): NpyArray {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b))
    throw new ArgumentError(name, bytes, 'a .npy file (starting with \\x93NUMPY)');
  const major = bytes[6];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLen: number;
  let start: number;
  if (major === 1) {
    headerLen = view.getUint16(8, true);
    start = 10;
  } else if (major === 2 || major === 3) {
    headerLen = view.getUint32(8, true);
    start = 12;
  } else throw new UnsupportedError(`${name}: .npy format version ${major} is not supported (1, 2 or 3)`);
  if (start + headerLen > bytes.length)
    throw new ArgumentError(name, bytes, `a complete .npy header (${headerLen} bytes)`);
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined)
    throw new ArgumentError(`${name} header`, header, "a dict with 'descr', 'fortran_order' and 'shape'");
  if (fortran === 'True')
    throw new UnsupportedError(`${name}: Fortran-order arrays are not supported; save with np.ascontiguousarray`);
  let dtype: NpyArray['dtype'];
  if (descr === '<f4' || descr === '=f4' || descr === '|f4') dtype = 'float32';
  else if (descr === '<f8' || descr === '=f8' || descr === '|f8') dtype = 'float64';
  else
    throw new UnsupportedError(
      `${name}: dtype ${descr} is not supported (little-endian float32 '<f4' or float64 '<f8')`,
    );
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map(Number);
  if (shape.some((d) => !Number.isInteger(d) || d < 0))
    throw new ArgumentError(`${name} shape`, shapeText, 'non-negative integer dimensions');
  const count = shape.reduce((a, b) => a * b, 1);
  const itemSize = dtype === 'float32' ? 4 : 8;
  const dataStart = start + headerLen;
  if (bytes.length - dataStart < count * itemSize) {
    throw new ArgumentError(
      name,
      bytes,
      `${count * itemSize} data bytes for shape (${shape.join(', ')}) ${descr}, found ${bytes.length - dataStart}`,
    );
  }
  const data = new Float64Array(count);
  for (let i = 0; i < count; i++)
    data[i] = itemSize === 4 ? view.getFloat32(dataStart + 4 * i, true) : view.getFloat64(dataStart + 8 * i, true);
  return { shape, dtype, data };
}

/** Encodes a float32 or float64 array as .npy (version 1.0, C order). */
export function encodeNpy(shape: number[], data: Float32Array | Float64Array): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length) throw new ArgumentError('data', data, `${count} values for shape (${shape.join(', ')})`);
  const descr = data instanceof Float32Array ? '<f4' : '<f8';
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  // Header padded with spaces and a newline so that the data starts at a multiple of 64 bytes.
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header.padEnd(total - 10 - 1, ' ') + '\n';
  const out = new Uint8Array(total + data.byteLength);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  const view = new DataView(out.buffer, total);
  for (let i = 0; i < data.length; i++) {
    if (data instanceof Float32Array) view.setFloat32(4 * i, data[i], true);
    else view.setFloat64(8 * i, data[i], true);
  }
  return out;
}

/**
 * The raw format: ny·nx little-endian float32 or float64 values in row-major order (x fastest), no
 * header; the shape and dtype come from the caller. The byte length is checked against them.
 */
export function parseRaw(
  bytes: Uint8Array,
  nx: number,
  ny: number,
  dtype: 'float32' | 'float64',
  name = 'raw',
): Float64Array {
  const itemSize = dtype === 'float32' ? 4 : 8;
  const expected = nx * ny * itemSize;
  if (bytes.length !== expected)
    throw new ArgumentError(
      name,
      bytes,
      `${expected} bytes (${ny} × ${nx} ${dtype}, row-major, little-endian), got ${bytes.length}`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(nx * ny);
  for (let i = 0; i < out.length; i++)
    out[i] = itemSize === 4 ? view.getFloat32(4 * i, true) : view.getFloat64(8 * i, true);
  return out;
}
