import { parsePartialJson } from 'ai';
import fc from 'fast-check';
import { PartialJson } from './partial-json';

/** What the AI SDK reads from the whole text: the value every prefix must give. */
async function expected(text: string): Promise<unknown> {
  return (await parsePartialJson(text)).value;
}

/** The text read in the given pieces. */
function readIn(pieces: string[]): PartialJson {
  const json = new PartialJson();
  for (const piece of pieces) json.push(piece);
  return json;
}

/** Structured answers as providers send them: nested, escaped, unicode, numbers of every form, literals. */
const ANSWERS = [
  '{"summary":"A rather long summary of the text given, in one sentence.","score":8,"extra":1}',
  '{\n  "title": "Caf\\u00e9 \\"Noir\\"",\n  "tags": ["a", "b\\nc", "\\ud83d\\ude00"],\n  "ratio": -12.5e-3,\n  "ok": true,\n  "none": null,\n  "flag": false\n}',
  '{"items":[{"name":"x","qty":1},{"name":"y","qty":2.25,"notes":[]},{}],"total":{"amount":3.25,"currency":"EUR"}}',
  '```json\n{"wrapped": "in a fence", "n": 1E+5}\n```',
  '{"text":"ends with a backslash \\\\","emoji":"😀 ünïcödé","empty":""} trailing words',
  '{"we\\"ird":{"k\\\\":[1,"]",{"}":"{"}]},"after":[true,false,null]}',
  '[{"a":1},{"b":[2,3]}]',
  '  {"spaced" :  [ 1 , 2 ,  3 ] , "x" : { } }  ',
  '{"proto":{"__proto__":{"polluted":true}},"constructor":{"prototype":{}}}',
];

describe('PartialJson', () => {
  it.each(ANSWERS)('gives what the SDK reads from every prefix, read one character at a time: %s', async (answer) => {
    const json = new PartialJson();
    expect(json.value()).toEqual(await expected(''));
    for (let end = 1; end <= answer.length; end++) {
      json.push(answer[end - 1]);
      expect(json.value()).toEqual(await expected(answer.slice(0, end)));
    }
  });

  it.each(ANSWERS)('gives the same value whatever boundary the text is split at: %s', async (answer) => {
    const whole = await expected(answer);
    for (let cut = 0; cut <= answer.length; cut++) {
      expect(readIn([answer.slice(0, cut), answer.slice(cut)]).value()).toEqual(whole);
    }
  });

  it('repairs a prefix as the SDK does: cut after its last complete token, then closed', () => {
    expect(readIn(['{"a":"x', 'y']).repaired()).toBe('{"a":"xy"}');
    expect(readIn(['{"a":[1,', '2.']).repaired()).toBe('{"a":[1,2]}');
    expect(readIn(['{"a":tr']).repaired()).toBe('{"a":true}');
    expect(readIn(['{"a":"\\u00']).repaired()).toBe('{"a":""}');
    expect(readIn(['{"ke']).repaired()).toBe('{}');
  });

  it('reads every split of any JSON text (and of text that is not JSON) as the SDK reads its prefixes', async () => {
    const texts = fc.oneof(
      fc.json().map((text) => text),
      fc.jsonValue().map((value) => JSON.stringify(value, null, 1)),
      fc.string({ unit: fc.constantFrom(...'{}[]",:\\ -.0123456789eEtrufalsn"abu'.split('')) }),
    );
    await fc.assert(
      fc.asyncProperty(texts, fc.array(fc.nat(), { maxLength: 6 }), async (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...points, text.length]
          .slice(1)
          .map((end, index, ends) => text.slice(index === 0 ? 0 : ends[index - 1], end));
        const json = new PartialJson();
        let read = 0;
        for (const piece of pieces) {
          json.push(piece);
          read += piece.length;
          expect(json.value()).toEqual(await expected(text.slice(0, read)));
        }
      }),
      { numRuns: 300 },
    );
  });
});
