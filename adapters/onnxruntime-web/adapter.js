#!/usr/bin/env node
// seqconf-runtime/1 adapter for onnxruntime-web (the WASM build of ONNX Runtime) under Node.
//
// Reads one JSON request per line on stdin, answers one JSON line on stdout (see the README,
// "Process runtimes"). onnxruntime-web passes tensors only, so the handshake declares
// sequences:false and seqconf lifts sequence inputs and outputs to tensors.
//
// The package is looked up in $SEQCONF_ORT_WEB (a folder holding onnxruntime-web), else in
// third_party/npm/node_modules (tools/setup-runtimes.sh), else on Node's usual path.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

// stdout carries the protocol only: anything the library logs goes to stderr.
console.log = console.info = console.debug = console.warn = console.error;

function loadOrt() {
  const candidates = [];
  if (process.env.SEQCONF_ORT_WEB) candidates.push(process.env.SEQCONF_ORT_WEB);
  candidates.push(path.join(__dirname, '..', '..', 'third_party', 'npm', 'node_modules', 'onnxruntime-web'));
  candidates.push('onnxruntime-web');
  for (const c of candidates) {
    try {
      return require(c);
    } catch (e) {
      // try the next place
    }
  }
  throw new Error('onnxruntime-web not found (run tools/setup-runtimes.sh or set SEQCONF_ORT_WEB)');
}

const ort = loadOrt();
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'fatal';

// ---- TensorProto (onnx.proto) wire format: only the fields a tensor value needs ----------

// ONNX element type -> [ort-web type name, typed array, bytes per element]
const TYPES = {
  1: ['float32', Float32Array, 4],
  2: ['uint8', Uint8Array, 1],
  3: ['int8', Int8Array, 1],
  4: ['uint16', Uint16Array, 2],
  5: ['int16', Int16Array, 2],
  6: ['int32', Int32Array, 4],
  7: ['int64', BigInt64Array, 8],
  8: ['string', null, 0],
  9: ['bool', Uint8Array, 1],
  10: ['float16', Uint16Array, 2],
  11: ['float64', Float64Array, 8],
  12: ['uint32', Uint32Array, 4],
  13: ['uint64', BigUint64Array, 8],
};
const ONNX_TYPE_OF = {};
for (const [k, v] of Object.entries(TYPES)) ONNX_TYPE_OF[v[0]] = Number(k);

class NotSupported extends Error {}

function readVarint(buf, pos) {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const b = buf[pos.i++];
    if (b === undefined) throw new Error('truncated varint');
    result |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return result;
    shift += 7n;
  }
}

function decodeTensor(buf) {
  const pos = {i: 0};
  const t = {dims: [], dataType: 0, raw: null, strings: [], ints: [], floats: [], doubles: [], i64: [], u64: []};
  const packedOrOne = (wire, readOne, sink) => {
    if (wire === 2) {
      const len = Number(readVarint(buf, pos));
      const end = pos.i + len;
      while (pos.i < end) sink.push(readOne());
    } else {
      sink.push(readOne());
    }
  };
  while (pos.i < buf.length) {
    const key = Number(readVarint(buf, pos));
    const field = key >> 3;
    const wire = key & 7;
    const varint = () => readVarint(buf, pos);
    const f32 = () => { const v = buf.readFloatLE(pos.i); pos.i += 4; return v; };
    const f64 = () => { const v = buf.readDoubleLE(pos.i); pos.i += 8; return v; };
    const bytes = () => { const n = Number(readVarint(buf, pos)); const b = buf.subarray(pos.i, pos.i + n); pos.i += n; return b; };
    if (field === 1) packedOrOne(wire, () => BigInt.asIntN(64, varint()), t.dims);
    else if (field === 2) t.dataType = Number(varint());
    else if (field === 4) packedOrOne(wire, f32, t.floats);
    else if (field === 5) packedOrOne(wire, () => Number(BigInt.asIntN(32, varint())), t.ints);
    else if (field === 6) t.strings.push(bytes());
    else if (field === 7) packedOrOne(wire, () => BigInt.asIntN(64, varint()), t.i64);
    else if (field === 9) t.raw = bytes();
    else if (field === 10) packedOrOne(wire, f64, t.doubles);
    else if (field === 11) packedOrOne(wire, () => BigInt.asUintN(64, varint()), t.u64);
    else if (wire === 0) varint();
    else if (wire === 1) pos.i += 8;
    else if (wire === 2) bytes();
    else if (wire === 5) pos.i += 4;
    else throw new Error('unsupported wire type ' + wire);
  }
  return t;
}

// ---- Strings: which bytes the JavaScript API carries unchanged --------------------------
//
// ONNX strings are bytes; onnxruntime-web's are JavaScript strings. It copies an input string
// into WebAssembly memory as NUL-terminated UTF-8 (stringToUTF8), and reads an output string
// back with UTF8ToString, which stops at the first NUL and replaces bytes that are not UTF-8
// with U+FFFD. So only NUL-free, valid UTF-8 strings cross it unchanged, either way.

const strictUtf8 = new TextDecoder('utf-8', {fatal: true});

// Why `bytes` cannot cross the JavaScript API unchanged, or null when it can.
function stringLoss(bytes) {
  if (bytes.includes(0)) return 'holds a NUL byte (onnxruntime-web cuts strings at the first NUL)';
  try {
    strictUtf8.decode(bytes);
  } catch (e) {
    return 'is not valid UTF-8 (onnxruntime-web passes strings as JavaScript strings, UTF-8 only)';
  }
  return null;
}

function quoted(bytes) {
  return JSON.stringify(Buffer.from(bytes).toString('latin1'));
}

// The input string as onnxruntime-web takes it, or NotSupported when it would change.
function carriedString(bytes) {
  const loss = stringLoss(bytes);
  if (loss) throw new NotSupported(`the input string ${quoted(bytes)} ${loss}`);
  return bytes.toString('utf8');
}

// Protobuf fields of one message: [field number, wire type, value or bytes].
function* fields(buf) {
  const pos = {i: 0};
  while (pos.i < buf.length) {
    const key = Number(readVarint(buf, pos));
    const field = key >> 3;
    const wire = key & 7;
    if (wire === 0) yield [field, wire, readVarint(buf, pos)];
    else if (wire === 1) pos.i += 8;
    else if (wire === 5) pos.i += 4;
    else if (wire === 2) {
      const n = Number(readVarint(buf, pos));
      yield [field, wire, buf.subarray(pos.i, pos.i + n)];
      pos.i += n;
    } else throw new Error('unsupported wire type ' + wire);
  }
}

// The first string held by the model (initializers, tensor attributes, subgraphs, functions)
// that would come back changed from onnxruntime-web, with why; null when there is none.
// ModelProto: graph 7, functions 25; GraphProto: node 1, initializer 5; FunctionProto: node 7;
// NodeProto: attribute 5; AttributeProto: t 5, g 6, tensors 10, graphs 11; TensorProto:
// string_data 6.
function modelStringLoss(model) {
  const tensor = (buf) => {
    for (const [f, w, v] of fields(buf)) {
      if (f !== 6 || w !== 2) continue;
      const loss = stringLoss(v);
      if (loss) return `the model's string ${quoted(v)} ${loss}`;
    }
    return null;
  };
  const node = (buf) => {
    for (const [f, w, v] of fields(buf)) {
      if (f !== 5 || w !== 2) continue;
      for (const [af, aw, av] of fields(v)) {
        if (aw !== 2) continue;
        const loss = af === 5 || af === 10 ? tensor(av) : af === 6 || af === 11 ? graph(av) : null;
        if (loss) return loss;
      }
    }
    return null;
  };
  const graph = (buf) => {
    for (const [f, w, v] of fields(buf)) {
      if (w !== 2) continue;
      const loss = f === 1 ? node(v) : f === 5 ? tensor(v) : null;
      if (loss) return loss;
    }
    return null;
  };
  for (const [f, w, v] of fields(model)) {
    if (w !== 2) continue;
    if (f === 7) {
      const loss = graph(v);
      if (loss) return loss;
    } else if (f === 25) {
      for (const [ff, fw, fv] of fields(v)) {
        const loss = ff === 7 && fw === 2 ? node(fv) : null;
        if (loss) return loss;
      }
    }
  }
  return null;
}

function toOrtTensor(buf) {
  const t = decodeTensor(buf);
  const spec = TYPES[t.dataType];
  if (!spec) throw new NotSupported('onnxruntime-web cannot take tensors of ONNX element type ' + t.dataType);
  const [name, Arr, size] = spec;
  const dims = t.dims.map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  if (name === 'string') return new ort.Tensor('string', t.strings.map(carriedString), dims);
  let data;
  if (t.raw) {
    const copy = new Uint8Array(count * size);
    copy.set(t.raw.subarray(0, count * size));
    data = new Arr(copy.buffer);
  } else if (t.dataType === 1) data = Float32Array.from(t.floats);
  else if (t.dataType === 11) data = Float64Array.from(t.doubles);
  else if (t.dataType === 7) data = BigInt64Array.from(t.i64);
  else if (t.dataType === 12) data = Uint32Array.from(t.u64.map(Number));
  else if (t.dataType === 13) data = BigUint64Array.from(t.u64);
  else data = Arr.from(t.ints);
  return new ort.Tensor(name, data, dims);
}

function varintBytes(v) {
  let x = BigInt.asUintN(64, BigInt(v));
  const out = [];
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x) b |= 0x80;
    out.push(b);
  } while (x);
  return Buffer.from(out);
}

function lengthDelimited(field, bytes) {
  return Buffer.concat([varintBytes((field << 3) | 2), varintBytes(bytes.length), bytes]);
}

function encodeTensor(tensor) {
  const type = ONNX_TYPE_OF[tensor.type];
  if (!type) throw new NotSupported('onnxruntime-web returned a tensor of type ' + tensor.type);
  const parts = [];
  for (const d of tensor.dims) parts.push(varintBytes(1 << 3), varintBytes(d));
  parts.push(varintBytes(2 << 3), varintBytes(type));
  if (tensor.type === 'string') {
    for (const s of tensor.data) parts.push(lengthDelimited(6, Buffer.from(s, 'utf8')));
  } else {
    const d = tensor.data;
    parts.push(lengthDelimited(9, Buffer.from(d.buffer, d.byteOffset, d.byteLength)));
  }
  return Buffer.concat(parts);
}

// ---- The protocol --------------------------------------------------------------------------

// How an error of ONNX Runtime is read: the table native ONNX Runtime's binding and a bundle's
// repro.js apply too (runtimes/onnxruntime_errors.json), with the code the WebAssembly build
// writes into its message.
const ortErrors = require(path.join(__dirname, '..', '..', 'runtimes', 'onnxruntime_errors.js'));
function errorKind(message) {
  return ortErrors.kindOf(message, ortErrors.codeOf(message), 'web');
}

// An error of ONNX Runtime itself (creating the session or running it), as opposed to one of
// this adapter's own code, which is never the runtime's rejection of the model.
class OrtFailure extends Error {}
// The adapter's own failure once the runtime has run the model: the runtime accepted it.
class AnswerUnreadable extends Error {}

async function ortCall(f) {
  try {
    return await f();
  } catch (e) {
    throw new OrtFailure(String((e && e.message) || e));
  }
}

let cached = {model: null, session: null};

async function handle(req) {
  const modelBytes = fs.readFileSync(req.model);
  if (cached.model === null || !cached.model.equals(modelBytes)) {
    if (cached.session) await cached.session.release();
    cached = {model: null, session: null};
    cached.session = await ortCall(() => ort.InferenceSession.create(modelBytes, {logSeverityLevel: 3}));
    cached.model = modelBytes;
    cached.stringLoss = modelStringLoss(modelBytes);
  }
  const session = cached.session;
  // Output strings are read back through UTF8ToString: the model's own strings would return cut.
  if (cached.stringLoss) throw new NotSupported(cached.stringLoss);
  if (req.inputs.length !== session.inputNames.length)
    throw new Error(`the model has ${session.inputNames.length} inputs, the request ${req.inputs.length}`);
  const feeds = {};
  session.inputNames.forEach((name, i) => { feeds[name] = toOrtTensor(fs.readFileSync(req.inputs[i])); });
  const results = await ortCall(() => session.run(feeds));
  try {
    const outputs = session.outputNames.map((name, i) => {
      const file = path.join(req.output_dir, `output_${i}.pb`);
      fs.writeFileSync(file, encodeTensor(results[name]));
      return file;
    });
    return {id: req.id, ok: true, outputs};
  } catch (e) {
    if (e instanceof NotSupported) throw e;
    throw new AnswerUnreadable(`the runtime ran the model; its outputs could not be written: ${e.message}`);
  }
}

function answer(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

answer({
  protocol: 'seqconf-runtime/1',
  name: 'onnxruntime-web',
  version: (ort.env.versions && ort.env.versions.web) || 'unknown',
  capabilities: {sequences: false},
});

let queue = Promise.resolve();
readline.createInterface({input: process.stdin}).on('line', (line) => {
  if (!line.trim()) return;
  queue = queue.then(async () => {
    let req;
    try {
      req = JSON.parse(line);
      answer(await handle(req));
    } catch (e) {
      const message = String((e && e.message) || e);
      const kind = e instanceof NotSupported ? 'not_supported'
        : e instanceof OrtFailure ? errorKind(message)
          : e instanceof AnswerUnreadable ? 'adapter' : 'internal';
      answer({id: req ? req.id : null, ok: false, error: {kind, message}});
    }
  });
});
