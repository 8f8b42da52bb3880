/**
 * The stage split into templates (infra/route-areas.ts): no template over MAX_TEMPLATE_RESOURCES
 * (60% of CloudFormation's 500 resources a template,
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html),
 * every function and route in the template of its area, and nested stacks wired by parameters and
 * outputs only: each parameter a nested template declares is passed by its parent, nothing else
 * is, every nested output its parent reads exists, and no template exports or imports a value
 * (an export blocks updates of the stack that exports it,
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-stack-exports.html).
 */
import { NestedStack, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { routesOfStage } from '../../definitions/routes';
import { ServiceFunction } from '../../infra/constructs/service-function';
import { areaOf, MAX_TEMPLATE_RESOURCES, ROUTE_AREAS } from '../../infra/route-areas';
import { HotelIntegrationStack } from '../../infra/stack';
import { testApp } from '../support/cdk-app';
import { logicalIdOf, nestedStackResourceId, stageTemplates } from '../support/stage-templates';

// Raw CloudFormation JSON.
type CfnJson = any;

const app = testApp();
const stages = [
  { name: 'prod', stack: new HotelIntegrationStack(app, 'HotelIntegration-prod', { stage: 'prod' }), routes: routesOfStage({ sandboxPayments: false }) },
  {
    name: 'test (sandbox provider, e-mail, alarm e-mail)',
    stack: new HotelIntegrationStack(app, 'HotelIntegration-test', {
      stage: 'test',
      sandboxPayments: true,
      senderEmail: 'bookings@example.com',
      alarmEmail: 'ops@example.com',
    }),
    routes: routesOfStage({ sandboxPayments: true }),
  },
];

/** Every value in `json` (deeply) that `match` picks. */
function collect(json: CfnJson, match: (value: CfnJson) => boolean, found: CfnJson[] = []): CfnJson[] {
  if (Array.isArray(json)) for (const v of json) collect(v, match, found);
  else if (json && typeof json === 'object') {
    if (match(json)) found.push(json);
    for (const v of Object.values(json)) collect(v, match, found);
  }
  return found;
}

/** The template a stack's resources are in: `root`, or the nested stack's construct id. */
const nameOf = (stack: Stack) => (NestedStack.isNestedStack(stack) ? stack.node.id : 'root');

describe.each(stages)('the $name stage', ({ stack, routes }) => {
  const stage = stageTemplates(stack);

  it(`keeps every template at most ${MAX_TEMPLATE_RESOURCES} resources`, () => {
    const counts = Object.fromEntries(stage.stacks.map((s) => [nameOf(s), Object.keys(stage.templateOf(s).Resources).length]));
    const over = Object.entries(counts).filter(([, count]) => count > MAX_TEMPLATE_RESOURCES);
    expect(over, `resources per template: ${JSON.stringify(counts)}`).toEqual([]);
    // The split is real: the stage as one template would not fit the line.
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(MAX_TEMPLATE_RESOURCES);
  });

  it('has the root stack, one nested stack per area it serves, and monitoring', () => {
    const served = ROUTE_AREAS.filter((area) => routes.some((route) => areaOf(route) === area)).map((area) => area.id);
    expect(stage.stacks.map(nameOf)).toEqual(['root', ...served, 'Monitoring']);
    expect(served).toEqual(['PropertySync', 'Payments', 'Deliveries', 'Dashboard', 'GuestBooking']);
  });

  it('puts each route, its method and its function in the template of its area, and each route in one template only', () => {
    const methods = Object.entries(stage.merged.Resources).filter(([, r]) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.HttpMethod !== 'ANY');
    for (const route of routes) {
      const area = areaOf(route).id;
      const fn = stack.routeFunctions.get(route.id)!;
      expect(nameOf(stage.stackOfId(logicalIdOf(fn))), `${route.id}'s function`).toBe(area);
      if (route.origin) continue;
      const found = methods.filter(([, m]) => m.Properties.OperationName === route.id);
      expect(found, route.id).toHaveLength(1);
      expect(nameOf(stage.stackOfId(found[0]![0])), `${route.id}'s method`).toBe(area);
    }
    expect(methods).toHaveLength(routes.filter((r) => !r.origin).length);
  });

  it('keeps the table, queues, keys, user pool, REST API and support functions in the root template', () => {
    const root = (construct: Parameters<typeof logicalIdOf>[0]) => nameOf(stage.stackOfId(logicalIdOf(construct)));
    for (const construct of [stack.table, stack.callbacks.queue, stack.callbacks.deadLetterQueue, stack.signingSecretsKey.key, stack.operators.userPool, stack.api.restApi]) {
      expect(root(construct), construct.node.path).toBe('root');
    }
    for (const fn of [stack.authorizerFunction, stack.callbackSenderFunction, stack.deliverySweeperFunction]) expect(root(fn), fn.node.path).toBe('root');
    expect(root(stack.monitoring.topic)).toBe('Monitoring');
  });

  it('says which template each function lives in', () => {
    const placement: Record<string, string[]> = {};
    for (const fn of stack.node.findAll().filter((c) => c instanceof ServiceFunction)) (placement[nameOf(Stack.of(fn))] ??= []).push(fn.node.id.replace(/Function$/, ''));
    for (const fns of Object.values(placement)) fns.sort();
    const sandbox = routes.some((r) => r.origin === 'sandbox');
    expect(placement).toEqual({
      root: ['Authorizer', 'SendCallback', 'SweepDeliveries'],
      PropertySync: ['CancelServiceBooking', 'GetAvailability', 'GetRates', 'PutBookings', 'PutCheckins', 'PutRatePlans', 'PutRates', 'PutRoomCategories', 'PutRooms'],
      Payments: ['CreatePaymentOrder', 'GetPaymentOrder', 'RefundPaymentOrder', ...(sandbox ? ['SandboxCheckout'] : []), 'StripeWebhook', 'VerifyPaymentOrder'],
      Deliveries: ['GetDelivery', 'ListDeliveries', 'ReplayDeliveries', 'RetryDelivery'],
      Dashboard: [
        'DashboardAudit',
        'DashboardBookingChanges',
        'DashboardBookingRefunds',
        'DashboardBookings',
        'DashboardDeliveries',
        'DashboardIntegrations',
        'DashboardOverview',
        'DashboardPayments',
        'DashboardRates',
        'DashboardReports',
        'DashboardRooms',
        'DashboardSecurity',
        'DashboardSession',
      ],
      GuestBooking: ['GuestBooking', 'GuestCancel'],
    });
  });

  it("passes each nested stack exactly the parameters its template declares, and reads only outputs it has", () => {
    for (const nested of stage.stacks.filter((s): s is NestedStack => NestedStack.isNestedStack(s))) {
      const template = stage.templateOf(nested);
      const parentTemplate = stage.templateOf(nested.nestedStackParent!);
      const resourceId = nestedStackResourceId(nested);
      const passed = parentTemplate.Resources[resourceId]!.Properties.Parameters ?? {};
      const declared = template.Parameters ?? {};
      expect(Object.keys(passed).sort(), nested.node.path).toEqual(Object.keys(declared).sort());
      for (const [name, parameter] of Object.entries(declared)) expect(parameter.Default, `${nested.node.path} ${name}`).toBeUndefined();
      // Every parameter is used: a reference the template dropped would still be passed.
      const refs = new Set(collect(template, (v) => typeof v.Ref === 'string').map((v) => v.Ref));
      for (const name of Object.keys(declared)) expect(refs.has(name), `${nested.node.path} uses ${name}`).toBe(true);
      // What any template reads of this nested stack's outputs.
      const read = stage.stacks.flatMap((s) =>
        collect(stage.templateOf(s), (v) => Array.isArray(v['Fn::GetAtt']) && v['Fn::GetAtt'][0] === resourceId && s === nested.nestedStackParent).map(
          (v) => String(v['Fn::GetAtt'][1]),
        ),
      );
      for (const attribute of read) {
        expect(attribute, nested.node.path).toMatch(/^Outputs\./);
        expect(template.Outputs?.[attribute.slice('Outputs.'.length)], `${nested.node.path} ${attribute}`).toBeDefined();
      }
      // Every output is read by someone (the parent), so none is left over.
      expect(Object.keys(template.Outputs ?? {}).sort(), nested.node.path).toEqual([...new Set(read.map((a) => a.slice('Outputs.'.length)))].sort());
    }
  });

  it('exports and imports nothing', () => {
    for (const s of stage.stacks) {
      const template = stage.templateOf(s);
      for (const [key, output] of Object.entries(template.Outputs ?? {})) expect((output as CfnJson).Export, `${nameOf(s)} ${key}`).toBeUndefined();
      expect(collect(template, (v) => 'Fn::ImportValue' in v), nameOf(s)).toEqual([]);
    }
  });

  it("deploys the API stage only after every area's methods exist", () => {
    const root = stage.templateOf(stack);
    const deployment = Object.values(root.Resources).find((r) => r.Type === 'AWS::ApiGateway::Deployment')!;
    const withMethods = stack.areaStacks.filter((area) => area.apiRoutes).map((area) => nestedStackResourceId(area));
    expect(withMethods.length).toBeGreaterThan(0);
    expect([deployment.DependsOn].flat()).toEqual(expect.arrayContaining(withMethods));
  });
});

describe('a route outside every area', () => {
  it('is refused with the file to add its area to', () => {
    const route = { ...routesOfStage({ sandboxPayments: false })[0]!, id: 'GetReport', path: '/reports/{id}' };
    expect(() => areaOf(route)).toThrow(/GetReport \(\/reports\/\{id\}\) is in no area of infra\/route-areas.ts/);
  });
});
