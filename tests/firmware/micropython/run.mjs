// Runs the firmware's modules under real MicroPython 1.27 (the WebAssembly port) on Node.js.
// The firmware files are copied flat into the interpreter's filesystem, as on a Pico, beside the
// tiny `machine`/`neopixel` stand-ins and the checks in this folder.
// Usage: node tests/firmware/micropython/run.mjs REPO_ROOT
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "fs";
import path from "path";

const root = process.argv[2] || ".";
const mp = await loadMicroPython({ heapsize: 4 * 1024 * 1024,
                                   stdout: (t) => process.stdout.write(t), linebuffer: false });
function copy(dir, target) {
  mp.FS.mkdir(target);
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(".py") && name !== "__init__.py") {
      mp.FS.writeFile(`${target}/${name}`, fs.readFileSync(path.join(dir, name)));
    }
  }
}
copy(path.join(root, "tabletap", "firmware"), "/fw");
copy(path.join(root, "tests", "firmware", "micropython"), "/checks");
try {
  mp.runPython(`
import sys
sys.path.insert(0, "/checks")
sys.path.insert(0, "/fw")
import mp_checks
mp_checks.main()
`);
} catch (e) {
  process.stdout.write(`\nMICROPYTHON FAILED: ${e}\n`);
  process.exit(1);
}
