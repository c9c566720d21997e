'use strict';
// butterfly-fft is an ES module. Node >= 20.19 and >= 22.12 can require() ES modules without top-level
// await, so try that first; older Node versions (or --no-experimental-require-module) get an error that says
// what to do instead of a bare ERR_REQUIRE_ESM.
try {
  module.exports = require('../dist/src/index.js');
} catch (e) {
  if (e && (e.code === 'ERR_REQUIRE_ESM' || e.code === 'ERR_REQUIRE_ASYNC_MODULE')) {
    const err = new Error(
      "butterfly-fft is an ES module package, and this Node cannot require() ES modules (Node >= 20.19 and >= 22.12 can). " +
        "Use `import { fft } from 'butterfly-fft'` (an .mjs file or \"type\": \"module\"), or from CommonJS " +
        "`const { fft } = await import('butterfly-fft')`.",
    );
    err.code = 'ERR_REQUIRE_ESM';
    err.cause = e;
    throw err;
  }
  throw e;
}
