/** What every generated id looks like. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A well-formed id that names nothing. */
export const MISSING = '00000000-0000-4000-8000-000000000000';

interface Answer {
  status: number;
  body: unknown;
}

/**
 * An admin failure envelope with exactly these `messages` (a pattern stands for a message it matches; any one message
 * when none are given).
 */
export function expectFailure(res: Answer, status: number, messages: unknown[] = [expect.any(String)]): void {
  const expected = messages.map((message) => (message instanceof RegExp ? expect.stringMatching(message) : message));
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { succeeded: false, messages: expected, data: null },
  });
}

/** An execution failure body: the error code, a message, and the field when one is named. */
export function expectExecutionError(res: Answer, status: number, error: string, field?: string): void {
  const body =
    field === undefined ? { error, message: expect.any(String) } : { error, message: expect.any(String), field };
  expect({ status: res.status, body: res.body }).toEqual({ status, body });
}
