import { spawn } from 'node:child_process';
import { repositoryPath } from '../repository-path';
import { typescriptEntrySource } from '../typescript-hook';

/** Node cannot run TypeScript by itself: the child compiles each file it requires (typescript-hook.ts). */
const TYPESCRIPT_HOOK = typescriptEntrySource(repositoryPath(), 'process.argv[1]');

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
