/**
 * `npm run map-stack -- <index.mjs.map> [trace.txt]`: maps the positions of a stack trace logged
 * by a deployed function (`file:///var/task/index.mjs:2:12345`) to the TypeScript sources,
 * with the source map that ships beside the function's index.mjs (the functions run without
 * --enable-source-maps, see infra/constructs/service-function.ts). The trace is read from the
 * file or from standard input; each mapped frame gets ` -> shared/…/file.ts:line:column` added.
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapping } from 'node:module';

const [mapFile, traceFile] = process.argv.slice(2);
if (!mapFile) {
  process.stderr.write('usage: npm run map-stack -- <index.mjs.map> [trace.txt]\n');
  process.exit(2);
}
const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
const trace = readFileSync(traceFile ?? 0, 'utf8');

// JSON log lines escape newlines: accept a trace copied from a log event as it is.
const lines = trace.replace(/\\n/g, '\n').split('\n');
for (const line of lines) {
  const match = /index\.mjs:(\d+):(\d+)/.exec(line);
  // findEntry answers {} for a position the map does not cover.
  const entry = match ? (map.findEntry(Number(match[1]) - 1, Number(match[2]) - 1) as Partial<SourceMapping> & { name?: string }) : undefined;
  const source = entry?.originalSource !== undefined ? (entry as SourceMapping & { name?: string }) : undefined;
  process.stdout.write(
    source ? `${line} -> ${source.originalSource.replace(/^(\.\.\/)+/, '')}:${source.originalLine + 1}:${source.originalColumn + 1}${source.name ? ` (${source.name})` : ''}\n` : `${line}\n`,
  );
}
