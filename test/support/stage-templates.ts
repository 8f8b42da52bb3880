/**
 * The templates of a stage: the root stack's and each nested stack's (infra/route-areas.ts), as
 * `cdk synth` writes them, and one merged view for the assertions that follow a resource wherever
 * it lives. In the merged view each nested template's parameters are replaced by the values its
 * parent passes, and each `Fn::GetAtt [NestedStack, Outputs.X]` by that output's value: a
 * function's `TABLE_NAME` reads `{Ref: Table}` as it did in one template. Logical ids must be
 * unique across the templates (it throws otherwise). test/infra/stage-split.test.ts checks that
 * parameters and outputs match, so this view is what CloudFormation resolves.
 */
import { type CfnElement, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';

// Raw CloudFormation JSON.
type CfnJson = any;
export interface CfnTemplateJson {
  Parameters?: Record<string, CfnJson>;
  Resources: Record<string, { Type: string; Properties: CfnJson; DependsOn?: string | string[] }>;
  Outputs?: Record<string, { Value: CfnJson }>;
}

export interface StageTemplates {
  /** The root stack, then its nested stacks in construct order. */
  stacks: readonly Stack[];
  templateOf(stack: Stack): CfnTemplateJson;
  /** Every template's resources, parameters and nested outputs resolved; the root's outputs. */
  merged: CfnTemplateJson;
  /** The stack a logical id of `merged` comes from. */
  stackOfId(logicalId: string): Stack;
}

export function nestedStacksOf(root: Stack): NestedStack[] {
  return root.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c));
}

/** The logical id of a nested stack's AWS::CloudFormation::Stack resource in its parent's template. */
export function nestedStackResourceId(nested: NestedStack): string {
  return nested.nestedStackParent!.getLogicalId(nested.nestedStackResource!);
}

export function stageTemplates(root: Stack): StageTemplates {
  const stacks = [root, ...nestedStacksOf(root)];
  const templates = new Map<Stack, CfnTemplateJson>(stacks.map((s) => [s, Template.fromStack(s).toJSON() as CfnTemplateJson]));
  const templateOf = (stack: Stack) => templates.get(stack)!;
  /** A parent's child stacks by the logical id of their AWS::CloudFormation::Stack resource. */
  const children = (parent: Stack) => new Map(stacks.filter((s) => s.nestedStackParent === parent).map((s) => [nestedStackResourceId(s as NestedStack), s]));

  function resolve(stack: Stack, value: CfnJson): CfnJson {
    if (Array.isArray(value)) return value.map((v) => resolve(stack, v));
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'Ref' && stack.nestedStackParent && templateOf(stack).Parameters?.[value.Ref]) {
      const parent = stack.nestedStackParent;
      const passed = templateOf(parent).Resources[nestedStackResourceId(stack as NestedStack)]!.Properties.Parameters?.[value.Ref];
      if (passed === undefined) throw new Error(`${stack.node.path}: parameter ${value.Ref} is not passed by its parent`);
      return resolve(parent, passed);
    }
    if (keys.length === 1 && keys[0] === 'Fn::GetAtt' && String(value['Fn::GetAtt'][1]).startsWith('Outputs.')) {
      const child = children(stack).get(value['Fn::GetAtt'][0]);
      if (child) {
        const output = templateOf(child).Outputs?.[String(value['Fn::GetAtt'][1]).slice('Outputs.'.length)];
        if (!output) throw new Error(`${child.node.path} has no output ${value['Fn::GetAtt'][1]}`);
        return resolve(child, output.Value);
      }
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(stack, v)]));
  }

  const merged: CfnTemplateJson = { Resources: {}, Outputs: resolve(root, templateOf(root).Outputs ?? {}) };
  const origin = new Map<string, Stack>();
  for (const stack of stacks) {
    for (const [id, resource] of Object.entries(templateOf(stack).Resources)) {
      if (origin.has(id)) throw new Error(`Logical id ${id} is in ${origin.get(id)!.node.path} and ${stack.node.path}`);
      origin.set(id, stack);
      merged.Resources[id] = resolve(stack, resource);
    }
  }
  return {
    stacks,
    templateOf,
    merged,
    stackOfId: (id) => {
      const stack = origin.get(id);
      if (!stack) throw new Error(`No resource ${id} in the stage's templates`);
      return stack;
    },
  };
}

/** The merged view as an assertions Template (hasResourceProperties, resourceCountIs...). */
export function mergedTemplate(root: Stack): Template {
  return Template.fromJSON(stageTemplates(root).merged as unknown as Record<string, unknown>, { skipCyclicalDependenciesCheck: true });
}

/** A construct's logical id in the template of the stack it lives in (root or nested). */
export function logicalIdOf(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(element).getLogicalId(element);
}
