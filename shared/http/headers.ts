/** API Gateway keeps header names as sent; everything here reads them in lower case. */
export function lowerCaseHeaders(headers: Record<string, string | undefined> | null | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) result[name.toLowerCase()] = value;
  }
  return result;
}
