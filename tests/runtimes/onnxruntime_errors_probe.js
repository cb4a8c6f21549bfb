#!/usr/bin/env node
// onnxruntime_errors_probe.js PACKAGE_DIR BUILD MODEL.onnx...: creates a session for each model
// with the package (onnxruntime-node or onnxruntime-web) and runs it on zeros of its inputs'
// declared shapes (int64 inputs from MODEL.onnx.json when present), and prints one JSON line per
// model: the error's message, the code it carries, and the rule of runtimes/onnxruntime_errors.js
// that decides it for BUILD (native or web). With PACKAGE_DIR "v8" it instead meets the four
// WebAssembly traps of V8 (a module of four functions written here) and prints them alike.
'use strict';
const fs = require('fs');
const path = require('path');
const ortErrors = require(path.join(__dirname, '..', '..', 'runtimes', 'onnxruntime_errors.js'));

const [pkg, build, ...models] = process.argv.slice(2);

function report(name, message) {
  const code = ortErrors.codeOf(message);
  const rule = ortErrors.ruleOf(message, code, build);
  console.log(JSON.stringify({model: name, message, code, rule: rule ? rule.id : null,
    kind: ortErrors.kindOf(message, code, build)}));
}

// (func (result i32)) four times: i32.div_s 1/0, i32.rem_s 1%0, i32.load at -1, unreachable.
function v8Traps() {
  const bytes = Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f,  // type: () -> i32
    0x03, 0x05, 0x04, 0x00, 0x00, 0x00, 0x00,  // four functions of it
    0x05, 0x03, 0x01, 0x00, 0x01,  // one page of memory
    0x07, 0x11, 0x04, 0x01, 0x64, 0x00, 0x00, 0x01, 0x72, 0x00, 0x01,
    0x01, 0x6d, 0x00, 0x02, 0x01, 0x75, 0x00, 0x03,  // exports d, r, m, u
    0x0a, 0x1d, 0x04,
    0x07, 0x00, 0x41, 0x01, 0x41, 0x00, 0x6d, 0x0b,  // d: 1 / 0
    0x07, 0x00, 0x41, 0x01, 0x41, 0x00, 0x6f, 0x0b,  // r: 1 % 0
    0x07, 0x00, 0x41, 0x7f, 0x28, 0x02, 0x00, 0x0b,  // m: load at -1
    0x03, 0x00, 0x00, 0x0b,  // u: unreachable
  ]);
  const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
  for (const f of ['d', 'r', 'm', 'u']) {
    try {
      exports[f]();
      report(`v8:${f}`, 'no trap');
    } catch (e) {
      report(`v8:${f}`, String(e));
    }
  }
}

async function probe() {
  const ort = require(pkg);
  if (ort.env.wasm) ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'fatal';
  for (const file of models) {
    const name = path.basename(file, '.onnx');
    const spec = JSON.parse(fs.readFileSync(file + '.json', 'utf8'));
    let session;
    try {
      session = await ort.InferenceSession.create(fs.readFileSync(file));
    } catch (e) {
      report(name, String(e.message));
      continue;
    }
    const feeds = {};
    for (const [input, t] of Object.entries(spec.inputs)) {
      const n = t.dims.reduce((a, b) => a * b, 1);
      const data = t.type === 'int64' ? BigInt64Array.from(t.values.map(BigInt))
        : t.type === 'bool' ? new Uint8Array(n) : t.type === 'int8' ? new Int8Array(n)
          : new Float32Array(n);
      feeds[input] = new ort.Tensor(t.type, data, t.dims);
    }
    try {
      await session.run(feeds);
      report(name, 'ran');
    } catch (e) {
      report(name, String(e.message));
    }
  }
}

if (pkg === 'v8') v8Traps();
else probe().catch((e) => { console.error(e); process.exit(1); });
