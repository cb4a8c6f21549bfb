#!/usr/bin/env python3
"""A seqconf-runtime/1 adapter for the process runtime's tests.

behaviour (argv[1]): echo (output K = input K, byte for byte), crash (exits on the first
request), hang (never answers), refuse (answers every request with a not_supported error),
badhello (writes something other than the handshake). argv[2]: "sequences" or "tensors".
"""
import json
import os
import shutil
import sys
import time

behaviour = sys.argv[1]
sequences = len(sys.argv) > 2 and sys.argv[2] == "sequences"

if behaviour == "badhello":
    print("hello", flush=True)
    sys.exit(0)
print(json.dumps({"protocol": "seqconf-runtime/1", "name": "test-adapter", "version": "1.0",
                  "capabilities": {"sequences": sequences}}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if behaviour == "crash":
        os.kill(os.getpid(), 11)
    if behaviour == "hang":
        time.sleep(3600)
    if behaviour == "refuse":
        print(json.dumps({"id": req["id"], "ok": False,
                          "error": {"kind": "not_supported", "message": "no kernel for it"}}),
              flush=True)
        continue
    print("a stray line that is not the answer", flush=True)
    outputs = []
    for k, src in enumerate(req["inputs"]):
        dst = os.path.join(req["output_dir"], "output_%d.pb" % k)
        shutil.copyfile(src, dst)
        outputs.append(dst)
    print(json.dumps({"id": req["id"], "ok": True, "outputs": outputs}), flush=True)
