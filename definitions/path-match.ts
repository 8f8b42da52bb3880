/** Path matching of the route table, in a file of its own: the sandbox checkout's function URL handler matches without the table. */

/** Matches a concrete path against an API Gateway resource path; returns path parameters. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    const actual = got[i]!;
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (actual === '') return undefined;
      params[segment.slice(1, -1)] = decodeURIComponent(actual);
    } else if (segment !== actual) {
      return undefined;
    }
  }
  return params;
}
