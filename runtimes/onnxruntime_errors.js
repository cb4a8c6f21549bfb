'use strict';
// How seqconf reads an error of ONNX Runtime, for the JavaScript that drives it
// (adapters/onnxruntime-web/adapter.js, a bundle's repro.js): the rules of
// onnxruntime_errors.json, which runtimes/onnxruntime.cpp reads too, applied as it applies them.
const table = require('./onnxruntime_errors.json');

// The code onnxruntime-web writes into its messages ("ERROR_CODE: 10, ERROR_MESSAGE: ..."), or
// null (onnxruntime-node writes none).
function codeOf(message) {
  const m = /ERROR_CODE: (\d+)\b/.exec(message);
  return m ? Number(m[1]) : null;
}

// The rule that decides an error of the build ('native' or 'web'): the first whose message the
// error's message contains, else the first whose code is the error's (null: no code), else null.
function ruleOf(message, code, build) {
  const text = String(message).toLowerCase();
  const rules = table.rules.filter((r) => !r.builds || r.builds.includes(build));
  // The words of a message say more than its code: messages first, then codes.
  const byMessage = rules.find((r) => (r.messages || []).some((m) => text.includes(m.toLowerCase())));
  if (byMessage) return byMessage;
  if (code === null) return null;
  return rules.find((r) => (r.codes || []).some((c) => table.codes[c] === code)) || null;
}

// not_supported, invalid_input or internal: the kind of the first rule that matches, internal
// when none does.
function kindOf(message, code, build) {
  const rule = ruleOf(message, code, build);
  return rule ? rule.kind : 'internal';
}

module.exports = {codeOf, ruleOf, kindOf, table};
