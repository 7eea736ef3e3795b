import { spawn } from 'node:child_process';

/**
 * Node cannot run TypeScript by itself; this hook compiles each required .ts file with @swc/core
 * (already there for jest), so a test can start a real second process running the store's code.
 */
const TYPESCRIPT_HOOK = `
const swc = require('@swc/core');
const fs = require('node:fs');
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    swcrc: false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(process.argv[1]);
`;

/** Runs a TypeScript file in a new Node process; resolves with its stdout, rejects if it exits non-zero. */
export function runTypeScriptChild(scriptPath: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', TYPESCRIPT_HOOK, scriptPath, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${scriptPath} exited with ${code}: ${stderr}`));
    });
  });
}
