import { defaultGpuContext } from './src/backends/webgpu/device.js';
import { WebGpuR2r } from './src/backends/webgpu/r2r.js';
import { writeFileSync } from 'node:fs';
const [fam, nS, batchS, ...rest] = process.argv.slice(2);
const n = Number(nS), batch = Number(batchS);
const opts = rest.length ? JSON.parse(rest[0]) : {};
const base = await defaultGpuContext();
let i = 0;
const dev = base.device;
const orig = dev.createShaderModule.bind(dev);
(dev as any).createShaderModule = (d: any) => { writeFileSync(`/tmp/wgsl/${fam}-${n}-${i++}.wgsl`, d.code); return orig(d); };
const ctx = Object.create(base); Object.defineProperty(ctx, "limits", { value: { ...base.limits, maxComputeWorkgroupStorageSize: 49152, maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024 } });
try {
  await WebGpuR2r.create(ctx as any, { family: fam as any, type: 2, shape: [batch, n], axes: [-1], planner: opts });
} catch (e) { console.log('create failed:', String(e).slice(0, 300)); }
console.log('wrote', i);
process.exit(0);
