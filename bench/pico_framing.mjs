// The Pico's own framing under real MicroPython 1.27 (the WebAssembly port, on Node.js): what
// decoding one command and encoding its ack costs the firmware's code, in microseconds.
// Usage: node bench/pico_framing.mjs [PROTOCOL_PY]   (default: tabletap/firmware/protocol.py)
// Prints one JSON line. Run by bench/serial.py; not an RP2040 (see docs/BENCHMARKS.md).
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "fs";
import path from "path";
import { fileURLToPath } from "url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const source = process.argv[2] || path.join(root, "tabletap", "firmware", "protocol.py");
const out = [];  // the interpreter's output, in pieces (bytes, with linebuffer off)
const mp = await loadMicroPython({ heapsize: 4 * 1024 * 1024,
                                   stdout: (t) => { out.push(Buffer.from(t)); },
                                   linebuffer: false });
mp.FS.mkdir("/fw");
mp.FS.writeFile("/fw/protocol.py", fs.readFileSync(source));
mp.runPython(`
import sys, time, json
sys.path.insert(0, "/fw")
import protocol

# the commands of a tap (tabletap/hw/serial_link/backend.py), with the host's and the board's
# session fields at their widths (24 and 30 bits), and the board's ack (board.py on_command)
LIGHTS = {"op": "show", "pattern": "accepted", "colour": None, "h": 12582911, "b": 805306367}
LATCH = {"op": "latch", "open": True, "h": 12582911, "b": 805306367}
ACK = {"ok": True}
ROUNDS = 3000

def per_call(fn):
    best = None
    for _ in range(5):  # the best of five blocks: the host machine's slow moments left out
        t = time.ticks_us()
        for _ in range(ROUNDS):
            fn()
        took = time.ticks_diff(time.ticks_us(), t) / ROUNDS
        best = took if best is None else min(best, took)
    return best

lights = protocol.encode("cmd", 17, LIGHTS)
latch = protocol.encode("cmd", 18, LATCH)
got = protocol.Decoder().feed(lights + latch)
assert [f[2] for f in got] == [LIGHTS, LATCH], got
print(json.dumps({
    "feed_lights_us": per_call(lambda: protocol.Decoder().feed(lights)),
    "feed_latch_us": per_call(lambda: protocol.Decoder().feed(latch)),
    "encode_ack_us": per_call(lambda: protocol.encode("ack", 17, ACK)),
    "lights_bytes": len(lights),
}))
`);
process.stdout.write(Buffer.concat(out));
