import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A path inside the repository, found from this file whether it runs as TypeScript (tests) or as
 * compiled JavaScript under dist/: non-code assets such as SQL migrations are not copied to dist.
 */
export function repositoryPath(...parts: string[]): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) || dir.endsWith('dist')) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${__dirname}`);
    dir = parent;
  }
  return join(dir, ...parts);
}
