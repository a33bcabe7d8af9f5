import {
  capacityProblem,
  itemBytes,
  type LoggedExecution,
  logCopyProblem,
  MAX_DATASET_ITEMS,
  unstorablePart,
} from './dataset-rules';

describe('itemBytes', () => {
  it('measures the UTF-8 bytes of the JSON text of inputs, expected output and tags', () => {
    expect(itemBytes({ inputs: {}, expectedOutput: null, tags: {} })).toBe(
      '{"inputs":{},"expectedOutput":null,"tags":{}}'.length,
    );
    // é is two bytes, 😀 four.
    expect(itemBytes({ inputs: { t: 'é😀' }, expectedOutput: undefined, tags: {} })).toBe(
      '{"inputs":{"t":""},"expectedOutput":null,"tags":{}}'.length + 6,
    );
  });
});

describe('capacityProblem', () => {
  it('lets a dataset fill up to the bound, not past it', () => {
    expect(capacityProblem(MAX_DATASET_ITEMS - 500, 500)).toBeNull();
    expect(capacityProblem(0, MAX_DATASET_ITEMS)).toBeNull();
    expect(capacityProblem(4990, 11)).toBe('A dataset holds at most 5000 items: it has 4990, so 11 more would be 5001');
  });
});

describe('logCopyProblem', () => {
  const log = (values: Partial<LoggedExecution> = {}): LoggedExecution => ({
    id: 'l1',
    endpointId: 'e1',
    status: 'success',
    inputs: { text: 'hi' },
    output: { answer: 1 },
    truncatedFields: [],
    ...values,
  });

  it('copies an execution of the endpoint whose inputs were kept whole', () => {
    expect(logCopyProblem(log(), 'e1', true)).toBeNull();
    expect(logCopyProblem(log({ status: 'error', output: null }), 'e1', false)).toBeNull();
    expect(logCopyProblem(log({ truncatedFields: ['parsedOutput', 'rawResponse'] }), 'e1', false)).toBeNull();
  });

  it.each([
    [log({ endpointId: 'e2' }), true, "execution log l1 is of another endpoint than the dataset's"],
    [log({ truncatedFields: ['inputs'], inputs: '{"text":"hi…[truncated 9 bytes]' }), false, /start of its inputs/],
    [log({ inputs: null }), false, /start of its inputs/],
    [log({ status: 'error', output: null }), true, 'execution log l1 failed, so it has no output to copy'],
    [log({ truncatedFields: ['parsedOutput'] }), true, /start of its output/],
  ])('refuses %j (withOutput %s)', (given, withOutput, reason) => {
    const problem = logCopyProblem(given, 'e1', withOutput);
    if (reason instanceof RegExp) expect(problem).toMatch(reason);
    else expect(problem).toBe(reason);
  });
});

describe('unstorablePart', () => {
  const item = (inputs: Record<string, unknown>, expectedOutput: unknown = null, tags = {}) => ({
    inputs,
    expectedOutput,
    tags,
  });

  it('names the part holding a NUL character or a lone surrogate', () => {
    expect(unstorablePart(item({ text: 'a\u0000b' }))).toBe('inputs');
    expect(unstorablePart(item({ text: 'a' }, { nested: ['\udc00'] }))).toBe('expectedOutput');
    expect(unstorablePart(item({ text: 'a' }, null, { k: 'v\u0000' }))).toBe('tags');
  });

  it('takes whole surrogate pairs and the typed text \\u0000', () => {
    expect(unstorablePart(item({ text: 'emoji 😀', typed: '\\u0000', also: '\\\\u0000' }))).toBeNull();
  });
});
