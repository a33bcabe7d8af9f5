/** The admin response envelope. */
export interface Envelope<T> {
  succeeded: boolean;
  messages: string[];
  data: T | null;
}

export const envelope = <T>(data: T | null, messages: string[] = []): Envelope<T> => ({
  succeeded: true,
  messages,
  data: data === undefined ? null : data,
});

export const failure = (messages: string[]): Envelope<never> => ({ succeeded: false, messages, data: null });
