/**
 * The schemas of shared/schemas are zod/mini (they are bundled into every function); the OpenAPI
 * generator reads classic zod's instance API (`.meta()`, `.minLength`, `.format`, `.unwrap()`).
 * Both share zod's core, so a mini schema and a classic one built from the same definition parse
 * alike and describe the same JSON: `classic()` rebuilds a schema tree with the classic class of
 * each node (ZodMiniEmail → ZodEmail...), keeping its checks and its metadata.
 *
 * One instance per schema: a schema used in several places (`calendarDate`, `serviceId`...) is
 * one classic instance everywhere, so the generator's components and `$ref`s stay as they are.
 */
import { z } from 'zod';
import type { $ZodType, $ZodTypeDef } from 'zod/v4/core';

type ClassicConstructor = new (def: $ZodTypeDef) => $ZodType;

const converted = new WeakMap<$ZodType, $ZodType>();

/** Definition keys that hold a schema, or an array or record of schemas. */
const CHILD_KEYS = ['shape', 'catchall', 'element', 'options', 'items', 'rest', 'left', 'right', 'keyType', 'valueType', 'innerType', 'in', 'out'];

function classicConstructor(schema: $ZodType): ClassicConstructor {
  const name = schema._zod.constr.name;
  const constructor = (z as unknown as Record<string, unknown>)[name.replace(/^ZodMini/, 'Zod')];
  if (typeof constructor !== 'function') throw new Error(`No classic zod class for ${name}`);
  return constructor as ClassicConstructor;
}

/**
 * The classic zod schema with the same definition, children, checks and metadata. `C` names its
 * classic type where the caller needs more than `ZodType` (an object's `shape`, `unwrap()`).
 */
export function classic<C extends z.ZodType = z.ZodType>(schema: $ZodType): C {
  return toClassic(schema) as C;
}

function toClassic(schema: $ZodType): $ZodType {
  const done = converted.get(schema);
  if (done) return done;
  const def = schema._zod.def as unknown as Record<string, unknown>;
  const rebuilt: Record<string, unknown> = { ...def };
  let changed = false;
  const convert = (child: $ZodType) => {
    const result = toClassic(child);
    if (result !== child) changed = true;
    return result;
  };
  for (const key of CHILD_KEYS) {
    const value = def[key];
    if (isSchema(value)) rebuilt[key] = convert(value);
    else if (Array.isArray(value)) rebuilt[key] = value.map((v) => (isSchema(v) ? convert(v) : v));
    else if (key === 'shape' && value) rebuilt[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v as $ZodType)]));
  }
  const constructor = classicConstructor(schema);
  // Already classic (the document's own schemas), with classic children: kept as it is.
  const result = constructor === schema._zod.constr && !changed ? schema : new constructor(rebuilt as unknown as $ZodTypeDef);
  converted.set(schema, result);
  if (result === schema) return result;
  // A schema derived from another (`.check(...)`) keeps that parent: metadata is inherited through it.
  if (schema._zod.parent) result._zod.parent = toClassic(schema._zod.parent);
  const meta = z.globalRegistry.get(schema);
  if (meta) z.globalRegistry.add(result, meta);
  return result;
}

function isSchema(value: unknown): value is $ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}
