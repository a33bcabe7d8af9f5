import {
  batchesOf,
  checkBodyOf,
  checkDraftOf,
  checkProblemsOf,
  describeLineProblem,
  expectedOutputOf,
  type ImportLine,
  itemProblemsOf,
  jsonPreview,
  lineProblemsOf,
  parseJsonl,
  tagsOf,
} from './rules';

describe('a JSONL import', () => {
  it('reads one item per line, skipping blank lines but keeping their numbers', () => {
    const text = [
      '{"inputs": {"text": "hi"}, "expectedOutput": "HI", "tags": {"topic": "greeting"}}',
      '',
      '  ',
      '{"inputs": {}}\r',
    ].join('\n');
    expect(parseJsonl(text)).toEqual({
      lines: [
        { line: 1, item: { inputs: { text: 'hi' }, expectedOutput: 'HI', tags: { topic: 'greeting' } } },
        { line: 4, item: { inputs: {} } },
      ],
      problems: [],
    });
  });

  it('keeps an expected output of null or false as given', () => {
    const { lines } = parseJsonl('{"inputs": {}, "expectedOutput": null}\n{"inputs": {}, "expectedOutput": false}');
    expect(lines.map((line) => line.item)).toEqual([
      { inputs: {}, expectedOutput: null },
      { inputs: {}, expectedOutput: false },
    ]);
  });

  it('names each line that is not an item', () => {
    const text = ['{"inputs": {}}', '{"inputs": ', '[1]', '{"expectedOutput": 1}', '{"inputs": {}, "weight": 2}'];
    expect(parseJsonl(text.join('\n')).problems).toEqual([
      { line: 2, message: expect.stringMatching(/^not valid JSON \(.+\)$/) },
      { line: 3, message: 'must be a JSON object with inputs' },
      { line: 4, message: 'inputs must be an object' },
      { line: 5, message: 'weight is not a property of an item (inputs, expectedOutput, tags)' },
    ]);
  });

  it('is sent in batches of at most 500, in order', () => {
    const lines = Array.from({ length: 1001 }, (_, index) => index);
    const batches = batchesOf(lines);
    expect(batches.map((batch) => batch.length)).toEqual([500, 500, 1]);
    expect(batches[1][0]).toBe(500);
    expect(batchesOf([])).toEqual([]);
  });

  it('turns the service’s messages about items into messages about the lines they came from', () => {
    const batch: ImportLine[] = [
      { line: 501, item: { inputs: {} } },
      { line: 503, item: { inputs: {} } },
    ];
    const problems = lineProblemsOf(
      [
        "items.1.inputs.text: Field 'text' is required",
        'property items.0.weight should not exist',
        'items.1 is 70000 bytes as JSON; an item is at most 65536 bytes (64 KiB)',
        'items.0.tags has 11 tags; at most 10 are allowed',
        'A dataset holds at most 5000 items: it has 4999, so 2 more would be 5001',
      ],
      batch,
    );
    expect(problems.map(describeLineProblem)).toEqual([
      "Line 503: inputs.text: Field 'text' is required",
      'Line 501: property weight should not exist',
      'Line 503: the item is 70000 bytes as JSON; an item is at most 65536 bytes (64 KiB)',
      'Line 501: tags has 11 tags; at most 10 are allowed',
      'A dataset holds at most 5000 items: it has 4999, so 2 more would be 5001',
    ]);
  });
});

describe('an item added by hand', () => {
  it('reads the expected output as JSON, empty as none', () => {
    expect(expectedOutputOf('  ')).toEqual({ value: null });
    expect(expectedOutputOf('{"city": "Paris"}')).toEqual({ value: { city: 'Paris' } });
    expect(expectedOutputOf('"Paris"')).toEqual({ value: 'Paris' });
    expect(expectedOutputOf('Paris')).toEqual({
      problem: expect.stringMatching(/^The expected output is not valid JSON/),
    });
  });

  it('reads tags as key=value, comma-separated or one per line', () => {
    expect(tagsOf('')).toEqual({ tags: {} });
    expect(tagsOf('topic=geo, level: easy\nempty=')).toEqual({ tags: { topic: 'geo', level: 'easy', empty: '' } });
    expect(tagsOf('topic')).toEqual({ problem: '“topic” is not a tag: write key=value.' });
  });

  it('puts the service’s messages at the input, the tags, or the form', () => {
    expect(
      itemProblemsOf([
        "items.0.inputs.text: Field 'text' must be at most 50 characters",
        "items.0.tags: the value of tag 'topic' must be a string",
        'items.0 is 70000 bytes as JSON; an item is at most 65536 bytes (64 KiB)',
        'Dataset 1 not found',
      ]),
    ).toEqual({
      inputs: { text: "Field 'text' must be at most 50 characters" },
      tags: "tags: the value of tag 'topic' must be a string",
      others: ['The item is 70000 bytes as JSON; an item is at most 65536 bytes (64 KiB)', 'Dataset 1 not found'],
    });
  });

  it('shows a JSON value in one line, cut to a length', () => {
    expect(jsonPreview(null)).toBe('—');
    expect(jsonPreview('text')).toBe('text');
    expect(jsonPreview({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(jsonPreview('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('the checks editor', () => {
  it('sends each check with its own type’s parameters only', () => {
    const draft = checkDraftOf({ type: 'contains', value: 'Paris', caseSensitive: false });
    expect(checkBodyOf(draft)).toEqual({ type: 'contains', value: 'Paris', caseSensitive: false });
    // A change of type keeps what was typed, and sends only what the new type takes.
    expect(checkBodyOf({ ...draft, type: 'equals' })).toEqual({ type: 'equals' });
    expect(checkBodyOf({ ...draft, type: 'not_contains' })).toEqual({
      type: 'not_contains',
      value: 'Paris',
      caseSensitive: false,
    });
    expect(checkBodyOf({ ...draft, type: 'field_equals', path: ' answer.city ' })).toEqual({
      type: 'field_equals',
      path: 'answer.city',
    });
    expect(checkBodyOf({ ...draft, type: 'regex', pattern: '^P' })).toEqual({ type: 'regex', pattern: '^P' });
  });

  it('sends numbers as numbers, and anything else as typed for the service to explain', () => {
    const latency = checkDraftOf({ type: 'max_latency_ms', value: 2000 });
    expect(latency.value).toBe('2000');
    expect(checkBodyOf(latency)).toEqual({ type: 'max_latency_ms', value: 2000 });
    expect(checkBodyOf({ ...latency, type: 'max_cost_usd', value: '0.01' })).toEqual({
      type: 'max_cost_usd',
      value: 0.01,
    });
    expect(checkBodyOf({ ...latency, value: '' })).toEqual({ type: 'max_latency_ms', value: '' });
    const judge = checkDraftOf({ type: 'judge', llmModel: 'mock-echo', rubric: 'Is {{ output }} polite?' });
    expect(judge.threshold).toBe('0.5');
    expect(checkBodyOf(judge)).toEqual({
      type: 'judge',
      llmModel: 'mock-echo',
      rubric: 'Is {{ output }} polite?',
      threshold: 0.5,
    });
  });

  it('gives every draft its own key', () => {
    expect(checkDraftOf({ type: 'equals' }).key).not.toBe(checkDraftOf({ type: 'equals' }).key);
  });

  it('puts the service’s messages at their check and parameter', () => {
    expect(
      checkProblemsOf([
        'checks.0.pattern is not a valid regular expression: Unterminated group',
        "checks.1.llmModel 'no-such-model' is not a model of the model list (GET /admin/v1/prompts/models)",
        'checks.1.threshold must be a number from 0 to 1',
        'checks.2 must be an object with a type',
        'checks must hold at most 20 checks',
      ]),
    ).toEqual({
      byCheck: {
        0: { pattern: 'checks.0.pattern is not a valid regular expression: Unterminated group' },
        1: {
          llmModel: "checks.1.llmModel 'no-such-model' is not a model of the model list (GET /admin/v1/prompts/models)",
          threshold: 'checks.1.threshold must be a number from 0 to 1',
        },
        2: { check: 'checks.2 must be an object with a type' },
      },
      others: ['checks must hold at most 20 checks'],
    });
  });
});
