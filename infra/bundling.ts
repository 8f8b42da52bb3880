/**
 * How every function is bundled, in one place: the CDK construct passes these to NodejsFunction
 * (which runs esbuild), and the cold-start benchmark runs esbuild with the same settings through
 * `esbuildOptions`, which mirrors the arguments aws-cdk-lib's bundler builds from them.
 * No CDK import here, so the benchmark can load it cheaply.
 */
export const functionBundling = {
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: 'node22',
  /** The project is ESM (OutputFormat.ESM); the bundle is index.mjs. */
  format: 'esm',
  mainFields: ['module', 'main'],
  // The project is ESM; CommonJS dependencies bundled into it still need `require`.
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  /** Provided by the Lambda runtime. */
  externalModules: ['@aws-sdk/*'],
} as const;

/**
 * esbuild's options for one entry, as aws-cdk-lib's local bundling passes them on the command
 * line (`esbuild --bundle <entry> --target --platform=node --format --outfile --minify
 * --sourcemap --sources-content=false --external --banner:js --main-fields`, run in the project root).
 */
export function esbuildOptions(entry: string, outfile: string, projectRoot: string) {
  return {
    entryPoints: [entry],
    bundle: true,
    target: functionBundling.target,
    platform: 'node' as const,
    format: functionBundling.format,
    outfile,
    minify: functionBundling.minify,
    sourcemap: functionBundling.sourceMap,
    sourcesContent: functionBundling.sourcesContent,
    external: [...functionBundling.externalModules],
    banner: { js: functionBundling.banner },
    mainFields: [...functionBundling.mainFields],
    absWorkingDir: projectRoot,
  };
}
