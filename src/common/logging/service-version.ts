import * as fs from 'node:fs';
import * as path from 'node:path';

let version: string | undefined;

/** The service's version, from its package.json (found above this file from src/ and from dist/ alike). */
export function serviceVersion(): string {
  if (version !== undefined) return version;
  version = 'unknown';
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const content = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (content.name === 'promptgate' && content.version) version = content.version;
      if (content.name === 'promptgate') break;
    }
    if (path.dirname(dir) === dir) break;
  }
  return version;
}
