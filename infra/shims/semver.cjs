// What the bundles get for `require('semver')`: semver's own `gte`, the one function that the
// X-Ray SDK (aws-xray-sdk-core, and cls-hooked under it), loaded by Powertools Tracer, calls.
// The whole package is 29 KB minified (two copies: 7.x and cls-hooked's 5.x) of modules,
// ranges and regular expressions evaluated at every cold start; see `moduleAliases` in
// infra/bundling.ts. A path, not `semver/functions/gte`: the alias would rewrite that too.
module.exports = { gte: require('../../node_modules/semver/functions/gte.js') };
