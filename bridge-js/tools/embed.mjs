#!/usr/bin/env node
// Writes Sources/HybridShell/Bridge/BridgeScripts.swift from bridge-js/src.
// `--check` writes nothing and exits 1 when that file is missing or stale.
// `--output FILE` uses another file (for the tests).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import scripts from './scripts.cjs';

const outputFlag = process.argv.indexOf('--output');
const output = outputFlag > 0 ? resolve(process.argv[outputFlag + 1]) : scripts.OUTPUT;
const generated = scripts.renderBridgeScripts();
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
    process.exit(1);
  }
  console.log(`${target} is up to date`);
} else {
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, generated);
  console.log(`wrote ${target}`);
}
