// Checks the layering rules of .dependency-cruiser.cjs over src/ (part of `npm run lint`), as `depcruise src` would,
// through dependency-cruiser's library.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(ROOT);
const config = createRequire(import.meta.url)(path.join(ROOT, '.dependency-cruiser.cjs'));
const tsConfig = extractTSConfig(config.options.tsConfig.fileName);
const result = await cruise(
  ['src'],
  { ...config.options, ruleSet: config, validate: true, outputType: 'err' },
  undefined,
  { tsConfig },
);
process.stdout.write(`${result.output}\n`);
process.exitCode = result.exitCode === 0 ? 0 : 1;
