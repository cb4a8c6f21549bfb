#!/usr/bin/env node
// Reproduces one departure of an ONNX runtime from the ONNX specification, on the runtime's own
// JavaScript API, without seqconf. Everything it needs is in this folder:
//   values.json  the inputs, the values the specification gives and what to run
//   *.onnx       the model (and, when the model takes or gives sequences, which the JavaScript
//                API cannot pass, the same model with its sequences lifted to tensors)
// Usage:   node repro.js            (needs the package named in README.md, e.g. onnxruntime-node)
// Exit:    1 while the departure holds, 0 once the runtime gives what the specification says,
//          2 when the check itself cannot be made (package missing, a type the API cannot pass).
// It runs the model in a child process, so that a crash or a hang of the runtime is shown and
// judged rather than ending this script; it writes nothing (ONNX Runtime's telemetry is off).
'use strict';

const fs = require('fs');
const path = require('path');
const childProcess = require('child_process');

const here = __dirname;
const spec = JSON.parse(fs.readFileSync(path.join(here, 'values.json'), 'utf8'));
const run = spec.repro;

// ---- the parent: runs the child, shows a crash or a hang ---------------------------------
function parent() {
  const env = Object.assign({}, process.env, {ORT_DISABLE_TELEMETRY: '1'});
  const limitMs = run.time_limit_ms;
  const child = childProcess.spawnSync(process.execPath, [__filename, '--child'], {
    env,
    cwd: here,
    timeout: limitMs,
    killSignal: 'SIGKILL',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // ONNX Runtime releases that ignore ORT_DISABLE_TELEMETRY leave an empty log per process.
  if (child.pid) {
    try {
      const log = `/tmp/mat-debug-${child.pid}.log`;
      if (fs.existsSync(log) && fs.statSync(log).size === 0) fs.unlinkSync(log);
    } catch (e) {
      // not ours to worry about
    }
  }
  process.stdout.write(child.stdout || '');
  const stderr = (child.stderr || '').trim();
  if (child.error && child.error.code === 'ETIMEDOUT') {
    console.log(`DEPARTURE HOLDS: the runtime gave no answer within ${limitMs / 1000} s (stopped)`);
    return 1;
  }
  if (child.signal) {
    console.log(`DEPARTURE HOLDS: the process running the model died from ${child.signal}`);
    if (stderr) console.log('its last words: ' + stderr.split('\n').slice(-3).join(' | '));
    return 1;
  }
  if (child.status !== 0 && child.status !== 1 && child.status !== 2) {
    console.log(`DEPARTURE HOLDS: the process running the model ended with exit status ${child.status}`);
    if (stderr) console.log('its last words: ' + stderr.split('\n').slice(-3).join(' | '));
    return 1;
  }
  if (child.status === 2 && stderr) console.log(stderr);
  return child.status;
}

// ---- the child: loads the model, runs it, compares ----------------------------------------
const ORT_TYPE = {
  float: 'float32', double: 'float64', float16: 'float16',
  int8: 'int8', uint8: 'uint8', int16: 'int16', uint16: 'uint16', int32: 'int32',
  uint32: 'uint32', int64: 'int64', uint64: 'uint64', bool: 'bool', string: 'string',
};
const ARRAY = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array,
  uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array,
  uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array,
};
const FLOATING = new Set(['float32', 'float64', 'float16']);

class CannotCheck extends Error {}

function ortType(t) {
  const name = ORT_TYPE[t.type];
  if (!name) throw new CannotCheck(`the JavaScript API cannot pass a tensor of ${t.type}`);
  return name;
}

// A tensor of values.json -> ort.Tensor. Floating elements come from their bits, exactly.
function toOrt(ort, t) {
  const type = ortType(t);
  const dims = t.dims.map(Number);
  if (type === 'string') {
    return new ort.Tensor('string', t.values.map((s) => {
      if (typeof s !== 'string') throw new CannotCheck('a string that is not UTF-8 cannot be passed from JavaScript');
      return s;
    }), dims);
  }
  const Array_ = ARRAY[type];
  const data = new Array_(t.values.length);
  if (FLOATING.has(type)) {
    const view = new DataView(data.buffer);
    t.bits.forEach((hex, i) => {
      if (type === 'float32') view.setUint32(i * 4, Number(BigInt(hex)), true);
      else if (type === 'float16') view.setUint16(i * 2, Number(BigInt(hex)), true);
      else view.setBigUint64(i * 8, BigInt(hex), true);
    });
  } else if (type === 'int64' || type === 'uint64') {
    t.values.forEach((v, i) => { data[i] = BigInt(v); });
  } else if (type === 'bool') {
    t.values.forEach((v, i) => { data[i] = v ? 1 : 0; });
  } else {
    t.values.forEach((v, i) => { data[i] = v; });
  }
  return new ort.Tensor(type, data, dims);
}

function bitsOf(tensor, i) {
  const data = tensor.data;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (tensor.type === 'float32') return '0x' + view.getUint32(i * 4, true).toString(16).padStart(8, '0');
  if (tensor.type === 'float16') return '0x' + view.getUint16(i * 2, true).toString(16).padStart(4, '0');
  return '0x' + view.getBigUint64(i * 8, true).toString(16).padStart(16, '0');
}

function halfToNumber(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

function shown(tensor, i) {
  if (tensor.type === 'float16') return `${halfToNumber(tensor.data[i])} (${bitsOf(tensor, i)})`;
  if (FLOATING.has(tensor.type)) return `${tensor.data[i]} (${bitsOf(tensor, i)})`;
  if (tensor.type === 'string') return JSON.stringify(tensor.data[i]);
  return String(tensor.data[i]);
}

function expectedShown(t, i) {
  const v = t.values[i];
  const text = typeof v === 'string' && t.type === 'string' ? JSON.stringify(v) : String(typeof v === 'object' ? JSON.stringify(v) : v);
  return FLOATING.has(ORT_TYPE[t.type]) ? `${text} (${t.bits[i]})` : text;
}

function expectedNumber(t, i) {
  const v = t.values[i];
  if (typeof v === 'number') return v;
  if (v === '-0') return -0;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return NaN;
}

// The first difference between one output and its expected tensor, or null.
function difference(name, expected, actual, comparison) {
  const type = ORT_TYPE[expected.type];
  if (actual.type !== type) return `output '${name}': element type ${actual.type}, expected ${type}`;
  const dims = expected.dims.map(Number);
  if (actual.dims.length !== dims.length || actual.dims.some((d, k) => Number(d) !== dims[k]))
    return `output '${name}': shape [${actual.dims.join(',')}], expected [${dims.join(',')}]`;
  for (let i = 0; i < expected.values.length; ++i) {
    let same;
    if (FLOATING.has(type)) {
      if (comparison.rule === 'exact') {
        same = bitsOf(actual, i) === expected.bits[i].toLowerCase();
      } else {
        const a = type === 'float16' ? halfToNumber(actual.data[i]) : Number(actual.data[i]);
        const e = expectedNumber(expected, i);
        same = (Number.isNaN(a) && Number.isNaN(e)) || a === e ||
          Math.abs(a - e) <= comparison.atol + comparison.rtol * Math.abs(e);
      }
    } else if (type === 'int64' || type === 'uint64') {
      same = actual.data[i] === BigInt(expected.values[i]);
    } else if (type === 'bool') {
      same = Boolean(actual.data[i]) === Boolean(expected.values[i]);
    } else {
      same = actual.data[i] === expected.values[i];
    }
    if (!same)
      return `output '${name}' element ${i}: ${shown(actual, i)}, expected ${expectedShown(expected, i)}`;
  }
  return null;
}

async function child() {
  let ort;
  try {
    ort = require(run.package);
  } catch (e) {
    throw new CannotCheck(`cannot load ${run.package} (npm install ${run.package}@${run.version}): ${e.message}`);
  }
  if (ort.env) {
    ort.env.logLevel = 'fatal';
    if (ort.env.wasm) ort.env.wasm.numThreads = 1;
  }
  let version = '';
  try {
    version = require(run.package + '/package.json').version;
  } catch (e) {
    version = '(version unknown)';
  }
  console.log(`runtime: ${run.package} ${version}`);
  console.log(`expected: ${run.expect.kind === 'rejected' ? 'the runtime rejects the model or its inputs (' + run.expect.why + ')' : run.expect.summary}`);

  // Inputs are made once the session exists: a runtime that cannot load the model departs
  // before a value the API cannot pass (a complex tensor, say) matters.
  const feeds = {};
  for (const f of run.feeds) feeds[f.name] = f;

  // Runs one model of this folder; an error of the runtime is a result, not an exception.
  async function runModel(file) {
    let session;
    try {
      session = await ort.InferenceSession.create(path.join(here, file));
    } catch (e) {
      return {error: `creating the session failed: ${e.message}`};
    }
    if (run.unsupported && run.expect.kind !== 'rejected') throw new CannotCheck(run.unsupported);
    const mine = {};
    for (const name of session.inputNames) {
      const f = feeds[name];
      if (!f) throw new CannotCheck(`the model's input '${name}' has no value in values.json`);
      if (f.unsupported) throw new CannotCheck(f.unsupported);
      if (f.in_model) continue;  // the model holds it as the input's default
      mine[name] = toOrt(ort, f.tensor);
    }
    try {
      return {outputs: await session.run(mine)};
    } catch (e) {
      // The package's own limit, once the runtime has run the model: it converts tensors only.
      if (/Non tensor type is temporarily not supported/.test(e.message))
        return {ran_untensored: true, outputs: {}};
      return {error: `running the model failed: ${e.message}`};
    }
  }

  if (run.expect.kind === 'rejected') {
    const r = await runModel(run.model);
    if (r.error) {
      console.log(`actual:   ${r.error}`);
      console.log('DEPARTURE GONE: the runtime rejects the model, as the specification says');
      return 0;
    }
    if (r.ran_untensored) {
      console.log('actual:   the runtime ran the model (it gave a sequence, which the package does not show)');
      console.log('DEPARTURE HOLDS: the runtime accepts what the specification says it must reject');
      return 1;
    }
    console.log('actual:   the runtime ran the model and gave ' +
      Object.entries(r.outputs).map(([k, t]) => `${k}: ${t.type}[${t.dims.join(',')}]`).join(', '));
    console.log('DEPARTURE HOLDS: the runtime accepts what the specification says it must reject');
    return 1;
  }

  // Sequence outputs: their lengths first (the lengths model), then their tensors.
  if (run.lengths_model) {
    const r = await runModel(run.lengths_model);
    if (r.error) {
      console.log(`actual:   ${r.error}`);
      console.log('DEPARTURE HOLDS: the runtime fails on a model the specification says it runs');
      return 1;
    }
    for (const l of run.expect.lengths) {
      const got = Number(r.outputs[l.name].data[0]);
      if (got !== l.length) {
        console.log(`actual:   sequence output '${l.output}' has ${got} tensors, expected ${l.length}`);
        console.log('DEPARTURE HOLDS');
        return 1;
      }
    }
  }
  if (run.expect.outputs.length === 0) {
    console.log('actual:   the same');
    console.log('DEPARTURE GONE: the runtime gives what the specification says');
    return 0;
  }
  const r = await runModel(run.model);
  if (r.ran_untensored) throw new CannotCheck('the model gives a value that is not a tensor, which the package cannot show');
  if (r.error) {
    console.log(`actual:   ${r.error}`);
    console.log('DEPARTURE HOLDS: the runtime fails on a model the specification says it runs');
    return 1;
  }
  for (const o of run.expect.outputs) {
    const actual = r.outputs[o.name];
    if (!actual) {
      console.log(`actual:   no output '${o.name}'`);
      console.log('DEPARTURE HOLDS');
      return 1;
    }
    const d = difference(o.shown_as, o.tensor, actual, run.comparison);
    if (d) {
      console.log(`actual:   ${d}`);
      console.log('DEPARTURE HOLDS');
      return 1;
    }
  }
  console.log('actual:   the same');
  console.log('DEPARTURE GONE: the runtime gives what the specification says');
  return 0;
}

if (process.argv[2] === '--child') {
  // The library's own messages go to stderr: stdout is what this script shows.
  child().then((code) => process.exit(code), (e) => {
    if (e instanceof CannotCheck) {
      console.error(`CANNOT CHECK: ${e.message}`);
      process.exit(2);
    }
    console.error(`CANNOT CHECK: this script failed: ${e && e.stack ? e.stack : String(e)}`);
    process.exit(2);
  });
} else {
  process.exit(parent());
}
