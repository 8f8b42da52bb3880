/** The callback queue's message: shared/queue.ts writes it, functions/send-callback.ts reads it. */
import * as z from 'zod/mini';

/** JSON text holding a value of `schema`. */
function jsonText<T extends z.ZodMiniType>(schema: T) {
  const parsed = z.pipe(
    z.string(),
    z.transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.issues.push({ code: 'custom', input: text, message: 'Invalid JSON' });
        return z.NEVER;
      }
    }),
  );
  return z.pipe(parsed, schema);
}

/** An SQS record whose body names one delivery. */
export const callbackMessage = z.object({ body: jsonText(z.object({ delivery_id: z.uuid() })) });
