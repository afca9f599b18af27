#!/usr/bin/env node
// Writes Sources/HybridShellCore/Bridge/BridgeScripts.swift and Sources/HybridShellCore/Engine/EngineScripts.swift
// from bridge-js/src. `--check` writes nothing and exits 1 when a file is missing or stale.
// `--output FILE` writes (or checks) only the bridge scripts, to another file (for the tests).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import scripts from './scripts.cjs';

const outputFlag = process.argv.indexOf('--output');
const outputs = outputFlag > 0
  ? [[resolve(process.argv[outputFlag + 1]), scripts.renderBridgeScripts()]]
  : [[scripts.OUTPUT, scripts.renderBridgeScripts()], [scripts.ENGINE_OUTPUT, scripts.renderEngineScripts()]];

let stale = false;
for (const [output, generated] of outputs) {
  const target = relative(process.cwd(), output);
  if (process.argv.includes('--check')) {
    let current = null;
    try {
      current = readFileSync(output, 'utf8');
    } catch {
      current = null;
    }
    if (current !== generated) {
      console.error(`${target} is stale: run node bridge-js/tools/embed.mjs`);
      stale = true;
    } else {
      console.log(`${target} is up to date`);
    }
  } else {
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, generated);
    console.log(`wrote ${target}`);
  }
}
if (stale) process.exit(1);
