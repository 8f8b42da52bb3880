/**
 * Runs a piece of a test under a changed environment, as a function container started with it
 * would see it: the configuration is parsed again before and after.
 */
import { resetConfig } from '../../shared/config';

export async function withEnv<T>(changes: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(changes).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  };
  apply(changes);
  try {
    return await run();
  } finally {
    apply(saved);
  }
}
