import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENV_KEYS, loadConfig, VARIABLES } from './app-config';

/** The variable tables of docs/configuration.md: name → [Default, Meaning]. */
function documentedRows(): Map<string, [string, string]> {
  const text = fs.readFileSync(path.join(__dirname, '../../docs/configuration.md'), 'utf8');
  const rows = new Map<string, [string, string]>();
  for (const line of text.split('\n')) {
    const match = /^\| `([A-Z][A-Z0-9_]*)` \| (.*?) \| (.*) \|$/.exec(line);
    if (match) rows.set(match[1], [match[2], match[3]]);
  }
  return rows;
}

describe('the declared variables', () => {
  it('are the rows of docs/configuration.md, with the same default and meaning', () => {
    const rows = documentedRows();
    expect([...rows.keys()].sort()).toEqual([...ENV_KEYS].sort());
    for (const [name, variable] of VARIABLES) {
      expect({ name, row: rows.get(name) }).toEqual({ name, row: [variable.docDefault, variable.meaning] });
    }
  });

  it('document a declared default as the value their Default column opens with', () => {
    for (const [name, variable] of VARIABLES) {
      if (variable.default === undefined) continue;
      expect({ name, docDefault: variable.docDefault }).toEqual({
        name,
        docDefault: expect.stringMatching(
          new RegExp(`^\`${String(variable.default as string | number | boolean).replace('.', '\\.')}\``),
        ),
      });
    }
  });

  it('give the configuration of an empty environment when each is set to its declared default', () => {
    const defaults = Object.fromEntries(
      [...VARIABLES].flatMap(([name, variable]) =>
        variable.default === undefined ? [] : [[name, String(variable.default as string | number | boolean)]],
      ),
    );
    expect(Object.keys(defaults).length).toBeGreaterThan(30);
    expect(loadConfig(defaults)).toEqual(loadConfig({}));
  });
});
