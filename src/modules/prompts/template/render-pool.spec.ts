import { PromptError } from '../../../common/errors/app-error';
import type { RenderedPrompt } from './message-blocks';
import { RenderPool } from './render-pool';

describe('RenderPool', () => {
  const pool = new RenderPool({ timeoutMs: 1, maxOutputBytes: 1024 * 1024 }, 16);
  beforeAll(() => pool.warmUp());
  afterAll(() => pool.close());

  it('terminates a thread whose single step overruns the budget, and renders on a replacement', async () => {
    // One output tag is one step liquidjs cannot interrupt: without the main thread's backstop it would answer.
    const list = Array.from({ length: 300_000 }, (_, i) => String((i * 7919) % 300_007));
    const overrun = pool.render({
      cacheKey: 'sort:1',
      template: '{{ inputs.list | sort | reverse | sort | reverse | sort | size }}',
      inputs: { list },
      imageFields: [],
    });
    await expect(overrun).rejects.toEqual(
      new PromptError("The prompt's template could not be rendered: the template took longer than 1 ms to render"),
    );
    // The replacement thread's start and engine load are not a render's time (the service warms its threads too);
    // on a slow machine they alone can take longer than this pool's 1 ms budget.
    await pool.warmUp();
    // Even a trivial render can overrun 1 ms on a loaded machine: the replacement gets a few tries at it.
    let rendered: RenderedPrompt | undefined;
    for (let attempt = 0; attempt < 20 && rendered === undefined; attempt++) {
      rendered = await pool
        .render({ cacheKey: 'ok:1', template: 'still {{ inputs.x }}', inputs: { x: 'here' }, imageFields: [] })
        .catch((error: unknown) => {
          if (error instanceof PromptError) return undefined;
          throw error;
        });
    }
    expect(rendered?.text).toBe('still here');
  });
});
