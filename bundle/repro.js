#!/usr/bin/env node
// Reproduces one departure of an ONNX runtime from the ONNX specification, on the runtime's own
// JavaScript API, without seqconf. Everything it needs is in this folder:
//   values.json     the inputs, the values the specification gives, what to run and the SHA-256
//                   of every model file
//   *.onnx          the model (and, when the model takes or gives sequences, which the JavaScript
//                   API cannot pass, the same model with its sequences lifted to tensors)
//   control_*.onnx  the control: a case of the same operator in the same graph context that
//                   passed in the same run, run first
//   memcheck.supp   a memory error's: the model runs under valgrind memcheck
// Usage:   node repro.js [--any-version]   (needs the package named in README.md, e.g.
//                                           onnxruntime-node, at the report's version)
// Exit:    1 while the departure holds; 0 once the runtime does what the specification says, seen
//          after its control ran (and, for a memory error, in a run memcheck found clean);
//          2 when it cannot tell: the package is missing, or not the report's version (unless
//          --any-version), a model file is not the one values.json was written with, the
//          control fails, valgrind is missing for a memory error, a value the API cannot pass.
// It runs the models in child processes, so that a crash or a hang of the runtime is shown and
// judged rather than ending this script; it writes nothing (ONNX Runtime's telemetry is off).
'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const childProcess = require('child_process');

const here = __dirname;
const spec = JSON.parse(fs.readFileSync(path.join(here, 'values.json'), 'utf8'));
const run = spec.repro;
// What valgrind exits with when memcheck reported an error (--error-exitcode).
const MEMCHECK_ERROR = 99;

// ---- the parent: checks what it runs, runs the control and the case, judges ---------------
function installedVersion() {
  try {
    require.resolve(run.package);
  } catch (e) {
    return null;
  }
  try {
    return require(run.package + '/package.json').version;
  } catch (e) {
    return '(version unknown)';
  }
}

function valgrindProgram() {
  const program = process.env.VALGRIND || 'valgrind';
  const probe = childProcess.spawnSync(program, ['--version'], {encoding: 'utf8'});
  return probe.error || probe.status !== 0 ? null : program;
}

// Runs part ('control' or 'case') in a child process, under valgrind memcheck when given.
function runChild(part, valgrind) {
  const env = Object.assign({}, process.env, {ORT_DISABLE_TELEMETRY: '1'});
  const limitMs = run.time_limit_ms * (valgrind ? run.memcheck.slowdown : 1);
  const own = [__filename, '--child', part].concat(valgrind ? ['--memcheck'] : []);
  const program = valgrind || process.execPath;
  const args = valgrind
    ? ['--tool=memcheck', '--error-exitcode=' + MEMCHECK_ERROR, '--show-mismatched-frees=no',
      '--suppressions=' + path.join(here, run.memcheck.suppressions), process.execPath, ...own]
    : own;
  const child = childProcess.spawnSync(program, args, {
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
  const stderr = (child.stderr || '').trim();
  const lastWords = stderr ? 'its last words: ' + stderr.split('\n').slice(-3).join(' | ') : '';
  const out = {stdout: child.stdout || '', stderr, code: child.status, why: ''};
  if (child.error && child.error.code === 'ETIMEDOUT') {
    out.code = 1;
    out.why = `the runtime gave no answer within ${limitMs / 1000} s (stopped)`;
  } else if (child.signal) {
    out.code = 1;
    out.why = `the process running the model died from ${child.signal}` + (lastWords ? '; ' + lastWords : '');
  } else if (valgrind && child.status === MEMCHECK_ERROR) {
    out.code = 1;
    const errors = stderr.split('\n').filter((l) => /^==\d+== \S/.test(l)).slice(0, 8)
      .map((l) => l.replace(/^==\d+== /, ''));
    out.why = 'memcheck reports an error: ' + errors.join(' | ');
  } else if (child.status !== 0 && child.status !== 1 && child.status !== 2) {
    out.code = 1;
    out.why = `the process running the model ended with exit status ${child.status}` + (lastWords ? '; ' + lastWords : '');
  }
  return out;
}

function parent() {
  const anyVersion = process.argv.includes('--any-version');
  const version = installedVersion();
  if (version === null) {
    console.log(`runtime: ${run.package} is not installed (the report's: ${run.version})`);
    console.log(`CANNOT CHECK: cannot load ${run.package} (npm install ${run.package}@${run.version})`);
    return 2;
  }
  if (version === run.version) {
    console.log(`runtime: ${run.package} ${version}, the report's version`);
  } else {
    console.log(`runtime: ${run.package} ${version}, NOT the report's version ${run.version}` +
      (anyVersion ? ' (--any-version)' : ''));
    if (!anyVersion) {
      console.log(`CANNOT CHECK: the departure was found with ${run.version}; install it ` +
        `(npm install ${run.package}@${run.version}) or run with --any-version to check ${version}`);
      return 2;
    }
  }
  // The model files are the case's only as written.
  if (!run.sha256) {
    console.log('CANNOT CHECK: values.json records no SHA-256 of the model files');
    return 2;
  }
  for (const [file, expected] of Object.entries(run.sha256)) {
    let actual;
    try {
      actual = crypto.createHash('sha256').update(fs.readFileSync(path.join(here, file))).digest('hex');
    } catch (e) {
      console.log(`CANNOT CHECK: cannot read ${file}: ${e.message}`);
      return 2;
    }
    if (actual !== expected) {
      console.log(`CANNOT CHECK: ${file} is not the file values.json was written with ` +
        `(SHA-256 ${actual}, not ${expected})`);
      return 2;
    }
  }
  let valgrind = null;
  if (run.memcheck) {
    valgrind = valgrindProgram();
    if (!valgrind) {
      console.log(`CANNOT CHECK: the departure is a memory error (${run.memcheck.kind}), which ` +
        'shows under valgrind memcheck only, and valgrind is not installed (or set $VALGRIND)');
      return 2;
    }
  }
  if (run.control) {
    const c = runChild('control', null);
    process.stdout.write(c.stdout);
    if (c.code !== 0) {
      const why = c.why || (c.code === 2 ? c.stderr : 'it does not give what the specification says');
      console.log(`CANNOT CHECK: the control ${run.control.case} fails (${why}): the runtime does ` +
        'not run this kind of model here, so what it does with the departing one says nothing');
      return 2;
    }
    console.log('  the control runs as the specification says');
  }
  const r = runChild('case', valgrind);
  process.stdout.write(r.stdout);
  // A lifted model that fails, with no control run the same way, may fail from the lifting.
  const unvouched = 'the model is lifted (its sequences as tensors) and there is no control ' +
    `(${run.no_control || 'none'}) to tell a failure of the lifting from the runtime's`;
  if (r.why && run.lifted && !run.control && !(valgrind && /^memcheck/.test(r.why))) {
    console.log(`actual:   ${r.why}`);
    console.log(`CANNOT CHECK: ${unvouched}`);
    return 2;
  }
  if (r.why) {
    console.log(`DEPARTURE HOLDS: ${r.why}`);
    return 1;
  }
  if (r.code === 2 && r.stderr) console.log(r.stderr.split('\n').filter((l) => !/^==\d+==/.test(l)).join('\n'));
  if (r.code === 0 && valgrind)
    console.log('DEPARTURE GONE: memcheck reports no error, and the runtime does what the specification says');
  return r.code;
}

// ---- the child: loads a model, runs it, compares -----------------------------------------
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


// How an error of ONNX Runtime is read: the table seqconf applies to ONNX Runtime everywhere
// (onnxruntime_errors.json beside this file, read by onnxruntime_errors.js). onnxruntime-web
// writes ONNX Runtime's code into its messages; onnxruntime-node does not, so for it only the
// rules on messages apply.
const ortErrors = require('./onnxruntime_errors.js');
function errorRule(error) {
  return ortErrors.ruleOf(error, ortErrors.codeOf(error),
    run.package === 'onnxruntime-web' ? 'web' : 'native');
}
// The package could not read the model at all (its file, its IR version): that is no rejection
// of what it holds, and no failure to run it.
const notARejection = (error) => { const r = errorRule(error); return r !== null && r.unread === true; };
// A fault of ONNX Runtime's own code rather than its check of the model or the inputs: a
// trapped integer overflow, a framework invariant, a WebAssembly trap.
const internalFault = (error) => { const r = errorRule(error); return r !== null && r.kind === 'internal'; };

// Checks one part of the folder: 'control' (values.json repro.control) or 'case' (repro).
async function child(which) {
  const part = which === 'control' ? run.control : run;
  const underMemcheck = process.argv.includes('--memcheck');
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
  const label = which === 'control' ? `control:  ${part.case} (${part.data_set})\n  ` : '';
  console.log(`${label}expected: ${part.expect.kind === 'rejected' ? 'the runtime rejects the model or its inputs (' + part.expect.why + ')' : part.expect.summary}`);
  const say = (line) => console.log(which === 'control' ? `  ${line}` : line);
  const gone = (why) => {
    if (which === 'control') return 0;
    console.log(underMemcheck ? `outputs:  ${why}` : `DEPARTURE GONE: ${why}`);
    return 0;
  };

  // Inputs are made once the session exists: a runtime that cannot load the model departs
  // before a value the API cannot pass (a complex tensor, say) matters.
  const feeds = {};
  for (const f of part.feeds) feeds[f.name] = f;

  // Runs one model of this folder; an error of the runtime is a result, not an exception.
  async function runModel(file) {
    let session;
    try {
      session = await ort.InferenceSession.create(path.join(here, file));
    } catch (e) {
      return {error: `creating the session failed: ${e.message}`, stage: 'load'};
    }
    if (part.unsupported && part.expect.kind !== 'rejected') throw new CannotCheck(part.unsupported);
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
      return {error: `running the model failed: ${e.message}`, stage: 'run'};
    }
  }

  if (part.expect.kind === 'rejected') {
    const r = await runModel(part.model);
    if (r.error) {
      say(`actual:   ${r.error}`);
      if (notARejection(r.error))
        throw new CannotCheck(`the package cannot read the model (${errorRule(r.error).why}): that is no rejection of what it holds`);
      if (internalFault(r.error)) {
        say('DEPARTURE HOLDS: the runtime rejects it only through a fault of its own code, not a check of what the specification requires');
        return 1;
      }
      if (r.stage === 'load' && part.expect.stage === 'run')
        throw new CannotCheck('the runtime rejects the model when loading it, while the specification rejects its inputs, when it runs: that does not show it checks them');
      if (!run.control)
        throw new CannotCheck(`there is no control (${run.no_control || 'none in values.json'}), so this rejection cannot be told from a runtime that runs nothing of its kind`);
      return gone(`the runtime rejects the ${r.stage === 'load' ? 'model' : 'inputs'}, as the specification says, and runs the control`);
    }
    if (r.ran_untensored) {
      say('actual:   the runtime ran the model (it gave a sequence, which the package does not show)');
      say('DEPARTURE HOLDS: the runtime accepts what the specification says it must reject');
      return 1;
    }
    say('actual:   the runtime ran the model and gave ' +
      Object.entries(r.outputs).map(([k, t]) => `${k}: ${t.type}[${t.dims.join(',')}]`).join(', '));
    say('DEPARTURE HOLDS: the runtime accepts what the specification says it must reject');
    return 1;
  }

  // A failure of a lifted model counts once a control lifted alike has run.
  const fails = (error) => {
    if (notARejection(error))
      throw new CannotCheck(`the package cannot read the model (${errorRule(error).why})`);
    if (which === 'case' && run.lifted && !run.control)
      throw new CannotCheck('the model is lifted (its sequences as tensors) and there is no control ' +
        `(${run.no_control || 'none'}) to tell a failure of the lifting from the runtime's`);
    say('DEPARTURE HOLDS: the runtime fails on a model the specification says it runs');
    return 1;
  };

  // Sequence outputs: their lengths first (the lengths model), then their tensors.
  if (part.lengths_model) {
    const r = await runModel(part.lengths_model);
    if (r.error) {
      say(`actual:   ${r.error}`);
      return fails(r.error);
    }
    for (const l of part.expect.lengths) {
      const got = Number(r.outputs[l.name].data[0]);
      if (got !== l.length) {
        say(`actual:   sequence output '${l.output}' has ${got} tensors, expected ${l.length}`);
        say('DEPARTURE HOLDS');
        return 1;
      }
    }
  }
  if (part.expect.outputs.length === 0) {
    // Nothing but the model itself to run: that it runs is all there is to see.
    if (!part.lengths_model) {
      const r = await runModel(part.model);
      if (r.error) {
        say(`actual:   ${r.error}`);
        return fails(r.error);
      }
      throw new CannotCheck('the case has no output the package can show: the runtime ran the model, and nothing it gave can be compared');
    }
    say('actual:   the same');
    return gone('the runtime gives what the specification says');
  }
  const r = await runModel(part.model);
  if (r.ran_untensored) throw new CannotCheck('the model gives a value that is not a tensor, which the package cannot show');
  if (r.error) {
    say(`actual:   ${r.error}`);
    return fails(r.error);
  }
  for (const o of part.expect.outputs) {
    const actual = r.outputs[o.name];
    if (!actual) {
      say(`actual:   no output '${o.name}'`);
      say('DEPARTURE HOLDS');
      return 1;
    }
    const d = difference(o.shown_as, o.tensor, actual, o.comparison || part.comparison);
    if (d) {
      say(`actual:   ${d}`);
      say('DEPARTURE HOLDS');
      return 1;
    }
  }
  say('actual:   the same');
  return gone('the runtime gives what the specification says');
}

if (process.argv[2] === '--child') {
  // The library's own messages go to stderr: stdout is what this script shows.
  child(process.argv[3]).then((code) => process.exit(code), (e) => {
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
