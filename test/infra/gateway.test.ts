/**
 * Template assertions for what stands in front of the functions: usage plans per client plan
 * (API keys from the authorizer), the cached sync authorizer and the uncached payment one, the
 * WAF web ACL on the stage, and the gateway responses API Gateway answers with itself.
 */
import { type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY_CACHE_TTL_SECONDS, MAX_AUTHORIZER_CACHE_TTL_SECONDS, REVOCATION_BOUND_SECONDS } from '../../definitions/authorizers';
import { gatewayResponses } from '../../definitions/gateway-responses';
import { DEFAULT_PLAN_LIMITS, PLANS } from '../../definitions/plans';
import { type Route, routes, routesOfStage, servedByApi } from '../../definitions/routes';
import { HotelIntegrationStack, usagePlanOutputKey } from '../../infra/stack';
import type { HotelIntegrationStackProps } from '../../infra/stage-settings';
import { testApp } from '../support/cdk-app';
import type { IConstruct } from 'constructs';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

// Raw CloudFormation JSON.
type CfnJson = any;

function synth(props: Partial<HotelIntegrationStackProps> = {}) {
  const app = testApp();
  const stack = new HotelIntegrationStack(app, 'HotelIntegration-test', { stage: 'test', sandboxPayments: true, ...props });
  const json = mergedTemplate(stack).toJSON() as { Resources: Record<string, { Type: string; Properties: CfnJson; DependsOn?: string[] }>; Outputs: Record<string, CfnJson> };
  const ofType = (type: string) => Object.entries(json.Resources).filter(([, r]) => r.Type === type);
  const logicalId = (construct: IConstruct) => logicalIdOf(construct);
  return { stack, json, ofType, logicalId };
}

const { stack, json, ofType, logicalId } = synth();
/**
 * The routes the API of the stage synth() deploys by default (sandbox on) serves: the API's and the
 * dashboard's (the sandbox checkout is on a function URL of its own: test/infra/payment-safety.test.ts).
 */
const stageRoutes = routesOfStage({ sandboxPayments: true }).filter(servedByApi);
/** Routes whose callers hold an API key (checked by an authorizer, limited by their usage plan). */
const isKeyed = (route: Route) => route.auth.kind === 'sync' || route.auth.kind === 'payment' || route.auth.kind === 'key';
const restApiId = logicalId(stack.api.restApi);
const stageId = logicalId(stack.api.restApi.deploymentStage);

/** Method resources with their route path (rebuilt from PathPart and ParentId). */
const methods = (() => {
  const pathOf = (ref: CfnJson): string => {
    if (ref['Fn::GetAtt']?.[0] === restApiId) return '';
    const resource = json.Resources[ref.Ref]!.Properties;
    return `${pathOf(resource.ParentId)}/${resource.PathPart}`;
  };
  return ofType('AWS::ApiGateway::Method').map(([id, r]) => ({ id, props: r.Properties, path: pathOf(r.Properties.ResourceId), httpMethod: r.Properties.HttpMethod as string }));
})();
const methodOf = (route: Route) => methods.find((m) => m.httpMethod === route.method && m.path === route.path)!;

describe('usage plans', () => {
  it('has one usage plan per client plan with its rate and burst, on the stage, and no quota', () => {
    const plans = ofType('AWS::ApiGateway::UsagePlan');
    expect(plans).toHaveLength(PLANS.length);
    for (const plan of PLANS) {
      const id = logicalId(stack.api.usagePlans[plan]);
      const props = json.Resources[id]!.Properties;
      expect(props.Throttle).toEqual({ RateLimit: DEFAULT_PLAN_LIMITS[plan].rateLimit, BurstLimit: DEFAULT_PLAN_LIMITS[plan].burstLimit });
      expect(props.Quota).toBeUndefined();
      expect(props.ApiStages).toEqual([expect.objectContaining({ ApiId: { Ref: restApiId }, Stage: { Ref: stageId } })]);
      expect(json.Outputs[usagePlanOutputKey[plan]].Value).toEqual({ Ref: id });
    }
    expect(usagePlanOutputKey).toEqual({ standard: 'UsagePlanStandardId', premium: 'UsagePlanPremiumId' });
  });

  it('takes API keys from the authorizer and requires one on every keyed method only', () => {
    expect(json.Resources[restApiId]!.Properties.ApiKeySourceType).toBe('AUTHORIZER');
    for (const route of stageRoutes) expect(methodOf(route).props.ApiKeyRequired ?? false, route.id).toBe(isKeyed(route));
    for (const method of methods.filter((m) => m.httpMethod === 'ANY')) expect(method.props.ApiKeyRequired ?? false).toBe(false);
  });

  it('lets a stage override a plan\'s limits and refuses limits that cannot throttle', () => {
    const custom = synth({ planLimits: { standard: { rateLimit: 5, burstLimit: 10 } } });
    const throttleOf = (plan: 'standard' | 'premium') => custom.json.Resources[custom.logicalId(custom.stack.api.usagePlans[plan])]!.Properties.Throttle;
    expect(throttleOf('standard')).toEqual({ RateLimit: 5, BurstLimit: 10 });
    expect(throttleOf('premium')).toEqual({ RateLimit: DEFAULT_PLAN_LIMITS.premium.rateLimit, BurstLimit: DEFAULT_PLAN_LIMITS.premium.burstLimit });
    expect(() => synth({ planLimits: { premium: { rateLimit: 0, burstLimit: 10 } } })).toThrow(/planLimits\.premium/);
    expect(() => synth({ planLimits: { premium: { rateLimit: 10, burstLimit: 0.5 } } })).toThrow(/planLimits\.premium/);
  });

  it('keeps a stage-wide method throttle only as a backstop well above any one plan', () => {
    const stage = json.Resources[stageId]!.Properties;
    const [settings] = stage.MethodSettings;
    for (const plan of PLANS) {
      expect(settings.ThrottlingRateLimit).toBeGreaterThanOrEqual(5 * DEFAULT_PLAN_LIMITS[plan].rateLimit);
      expect(settings.ThrottlingBurstLimit).toBeGreaterThanOrEqual(5 * DEFAULT_PLAN_LIMITS[plan].burstLimit);
    }
  });
});

describe('authorizers', () => {
  const authorizers = ofType('AWS::ApiGateway::Authorizer');
  const syncId = logicalId(stack.api.authorizers.sync);
  const paymentId = logicalId(stack.api.authorizers.payment);

  it('caches the sync authorizer for 1 to 30 s per Authorization header, within the 60 s revocation bound', () => {
    expect(authorizers).toHaveLength(2);
    const sync = json.Resources[syncId]!.Properties;
    expect(sync.Type).toBe('REQUEST');
    expect(sync.IdentitySource).toBe('method.request.header.Authorization');
    expect(sync.AuthorizerResultTtlInSeconds).toBeGreaterThanOrEqual(1);
    expect(sync.AuthorizerResultTtlInSeconds).toBeLessThanOrEqual(30);
    expect(sync.AuthorizerResultTtlInSeconds + DEFAULT_API_KEY_CACHE_TTL_SECONDS).toBeLessThanOrEqual(REVOCATION_BOUND_SECONDS);
  });

  it('does not cache the payment authorizer, which reads Origin and x-api-key too', () => {
    expect(json.Resources[paymentId]!.Properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0, IdentitySource: '' });
  });

  it('runs both on the authorizer function', () => {
    for (const id of [syncId, paymentId]) expect(JSON.stringify(json.Resources[id]!.Properties.AuthorizerUri)).toContain(logicalId(stack.authorizerFunction));
  });

  it('puts the sync authorizer on the sync routes and the payment authorizer on the payment routes and the deliveries API (either kind of key, not cached)', () => {
    for (const route of routes.filter((r) => r.auth.kind !== 'public')) {
      const method = methodOf(route);
      expect(method.props.AuthorizationType, route.id).toBe('CUSTOM');
      expect(method.props.AuthorizerId, route.id).toEqual({ Ref: route.auth.kind === 'sync' ? syncId : paymentId });
    }
  });

  it('takes the result TTL from the stack prop and refuses one outside 1 to 30 s', () => {
    const custom = synth({ authorizerCacheTtlSeconds: 5 });
    expect(custom.json.Resources[custom.logicalId(custom.stack.api.authorizers.sync)]!.Properties.AuthorizerResultTtlInSeconds).toBe(5);
    for (const bad of [0, MAX_AUTHORIZER_CACHE_TTL_SECONDS + 1, 2.5]) expect(() => synth({ authorizerCacheTtlSeconds: bad })).toThrow(/authorizerCacheTtlSeconds/);
  });
});

describe('WAF', () => {
  const [aclId, acl] = ofType('AWS::WAFv2::WebACL')[0]!;
  const ruleOf = (rules: CfnJson[], name: string) => {
    const rule = rules.find((r: CfnJson) => r.Name === name);
    if (!rule) throw new Error(`no rule ${name}`);
    return rule;
  };
  /** The literal path parts a rate rule's scope-down matches (URI path CONTAINS, URL-decoded). */
  const searchedPaths = (scope: CfnJson): string[] =>
    (scope.OrStatement?.Statements ?? [scope]).map((s: CfnJson) => {
      expect(s.ByteMatchStatement).toMatchObject({ FieldToMatch: { UriPath: {} }, PositionalConstraint: 'CONTAINS', TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }] });
      return s.ByteMatchStatement.SearchString as string;
    });

  it('has one regional web ACL allowing by default, with metrics, and its rules in this order', () => {
    expect(ofType('AWS::WAFv2::WebACL')).toHaveLength(1);
    expect(acl.Properties).toMatchObject({
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      VisibilityConfig: { CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true },
    });
    const rules = acl.Properties.Rules as CfnJson[];
    expect(rules.map((r) => [r.Priority, r.Name])).toEqual([
      [0, 'AWS-AWSManagedRulesAmazonIpReputationList'],
      [1, 'AWS-AWSManagedRulesKnownBadInputsRuleSet'],
      [2, 'GuestBookingPostsPerIp'],
      [3, 'PublicRoutesPerIp'],
      [4, 'KeyedRoutesPerIp'],
    ]);
    for (const rule of rules) expect(rule.VisibilityConfig, rule.Name).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    // Each rule its own metric; the public rule's as before the others came.
    expect(new Set(rules.map((r) => r.VisibilityConfig.MetricName)).size).toBe(rules.length);
    expect(ruleOf(rules, 'PublicRoutesPerIp').VisibilityConfig.MetricName).toBe('hotel-integration-test-public-per-ip');
  });

  it("adds AWS's managed IP-reputation and known-bad-inputs rule groups with their own actions", () => {
    // https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-ip-rep.html
    // https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-baseline.html#aws-managed-rule-groups-baseline-known-bad-inputs
    // A rule group statement takes OverrideAction, never Action (AWS::WAFv2::WebACL Rule:
    // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-wafv2-webacl-rule.html).
    for (const name of ['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesKnownBadInputsRuleSet']) {
      const rule = ruleOf(acl.Properties.Rules, `AWS-${name}`);
      expect(rule.Statement).toEqual({ ManagedRuleGroupStatement: { VendorName: 'AWS', Name: name } });
      expect(rule.OverrideAction).toEqual({ None: {} });
      expect(rule.Action).toBeUndefined();
    }
  });

  it('limits guest booking POSTs per source address, far tighter than the public rule', () => {
    // Rate-based statement: limit at least 10, window 60, 120, 300 or 600 s
    // (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html;
    // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-wafv2-webacl-ratebasedstatement.html).
    const rule = ruleOf(acl.Properties.Rules, 'GuestBookingPostsPerIp');
    expect(rule.Action).toEqual({ Block: {} });
    const rate = rule.Statement.RateBasedStatement;
    expect(rate).toMatchObject({ AggregateKeyType: 'IP', Limit: 10, EvaluationWindowSec: 300 });
    const publicRate = ruleOf(acl.Properties.Rules, 'PublicRoutesPerIp').Statement.RateBasedStatement;
    expect(rate.Limit * 50).toBeLessThanOrEqual(publicRate.Limit);
    const [paths, method] = rate.ScopeDownStatement.AndStatement.Statements;
    expect(method).toEqual({
      ByteMatchStatement: { FieldToMatch: { Method: {} }, PositionalConstraint: 'EXACTLY', SearchString: 'POST', TextTransformations: [{ Priority: 0, Type: 'NONE' }] },
    });
    expect(searchedPaths(paths)).toEqual(['/book/']);
    // Every guest booking POST falls under it, and nothing else the stage serves.
    const posts = stageRoutes.filter((r) => r.method === 'POST' && r.path.startsWith('/book/'));
    expect(posts.length).toBeGreaterThan(0);
    for (const route of stageRoutes) expect(route.path.includes('/book/'), route.id).toBe(route.path.startsWith('/book/'));
  });

  it.each([
    ['test, with the sandbox provider', () => ofType, stageRoutes],
    ['prod', () => synth({ stage: 'prod', sandboxPayments: false }).ofType, routesOfStage({ sandboxPayments: false })],
  ] as const)('blocks a source IP over the rate limit on the public routes (stage %s)', (_, ofStage, deployed) => {
    const wafs = ofStage()('AWS::WAFv2::WebACL');
    expect(wafs).toHaveLength(1);
    const rule = ruleOf(wafs[0]![1].Properties.Rules, 'PublicRoutesPerIp');
    expect(rule.Action).toEqual({ Block: {} });
    const rate = rule.Statement.RateBasedStatement;
    expect(rate).toMatchObject({ AggregateKeyType: 'IP', Limit: 1000, EvaluationWindowSec: 300 });
    const searched = searchedPaths(rate.ScopeDownStatement);
    // Every route without a key on the API: the API's public ones and the whole dashboard (`/dashboard` covers its pages).
    const unkeyed = deployed.filter((r) => !isKeyed(r) && servedByApi(r));
    for (const route of unkeyed) expect(searched.some((prefix: string) => route.path.includes(prefix)), route.id).toBe(true);
    expect(searched).toContain('/dashboard');
    expect(searched.length).toBeLessThan(unkeyed.length);
    // No keyed route falls under it: they have their own rule.
    const keyed = deployed.filter(isKeyed);
    expect(keyed.length).toBeGreaterThan(0);
    for (const route of keyed) {
      for (const prefix of searched) expect(route.path.includes(prefix), `${route.id} ${prefix}`).toBe(false);
    }
  });

  it('limits the keyed routes per source address too, far above a client at its plan limit', () => {
    const rule = ruleOf(acl.Properties.Rules, 'KeyedRoutesPerIp');
    expect(rule.Action).toEqual({ Block: {} });
    const rate = rule.Statement.RateBasedStatement;
    expect(rate).toMatchObject({ AggregateKeyType: 'IP', Limit: 60_000, EvaluationWindowSec: 300 });
    expect(rate.Limit / rate.EvaluationWindowSec).toBeGreaterThanOrEqual(2 * Math.max(...PLANS.map((p) => DEFAULT_PLAN_LIMITS[p].rateLimit)));
    const searched = searchedPaths(rate.ScopeDownStatement);
    for (const prefix of searched) expect(prefix).toMatch(/^\/api\/v1\//);
    const keyed = stageRoutes.filter(isKeyed);
    for (const route of keyed) expect(searched.some((prefix) => route.path.includes(prefix)), route.id).toBe(true);
  });

  it('is associated with the API stage, after the stage exists', () => {
    const [, association] = ofType('AWS::WAFv2::WebACLAssociation')[0]!;
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    const arn = JSON.stringify(association.Properties.ResourceArn);
    expect(arn).toContain(`{"Ref":"${restApiId}"}`);
    expect(arn).toContain(`/stages/`);
    expect(arn).toContain(`{"Ref":"${stageId}"}`);
    expect(association.DependsOn).toContain(stageId);
  });

  it('takes the limits from the stack props, and refuses those AWS does not take', () => {
    const custom = synth({
      publicRateLimit: { limit: 200, windowSeconds: 60 },
      guestBookingRateLimit: { limit: 20, windowSeconds: 600 },
      keyedRateLimit: { limit: 5_000, windowSeconds: 120 },
    });
    const rules = custom.ofType('AWS::WAFv2::WebACL')[0]![1].Properties.Rules;
    expect(ruleOf(rules, 'PublicRoutesPerIp').Statement.RateBasedStatement).toMatchObject({ Limit: 200, EvaluationWindowSec: 60 });
    expect(ruleOf(rules, 'GuestBookingPostsPerIp').Statement.RateBasedStatement).toMatchObject({ Limit: 20, EvaluationWindowSec: 600 });
    expect(ruleOf(rules, 'KeyedRoutesPerIp').Statement.RateBasedStatement).toMatchObject({ Limit: 5_000, EvaluationWindowSec: 120 });
    expect(() => synth({ publicRateLimit: { limit: 5 } })).toThrow(/publicRateLimit/);
    expect(() => synth({ guestBookingRateLimit: { limit: 9 } })).toThrow(/guestBookingRateLimit.limit/);
    expect(() => synth({ keyedRateLimit: { limit: 100, windowSeconds: 30 as 60 } })).toThrow(/keyedRateLimit.windowSeconds/);
  });
});

describe('gateway responses', () => {
  const responses = new Map(ofType('AWS::ApiGateway::GatewayResponse').map(([, r]) => [r.Properties.ResponseType as string, r.Properties]));

  it('keeps API Gateway\'s own status on DEFAULT_4XX and DEFAULT_5XX', () => {
    for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
      expect(responses.get(type), type).toBeDefined();
      expect(responses.get(type)!.StatusCode, type).toBeUndefined();
      expect(gatewayResponses.find((g) => g.type === type)!.statusCode).toBeUndefined();
    }
  });

  it('answers an integration timeout in the envelope with Retry-After', () => {
    const timeout = responses.get('INTEGRATION_TIMEOUT')!;
    expect(timeout.StatusCode).toBe('503');
    const body = JSON.parse(timeout.ResponseTemplates['application/json'].replace('$context.requestId', 'r-1'));
    expect(body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), request_id: 'r-1' } });
    expect(timeout.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Retry-After': "'1'",
      'gatewayresponse.header.X-Request-Id': 'context.requestId',
      'gatewayresponse.header.Content-Type': "'application/json'",
    });
  });

  it.each([
    ['UNAUTHORIZED', '401', 'MISSING_API_KEY', undefined],
    ['INVALID_API_KEY', '401', 'INVALID_API_KEY', undefined],
    ['THROTTLED', '429', 'RATE_LIMITED', "'1'"],
    ['WAF_FILTERED', '429', 'RATE_LIMITED', "'60'"],
  ])('answers %s with %s %s', (type, status, code, retryAfter) => {
    const response = responses.get(type)!;
    expect(response.StatusCode).toBe(status);
    expect(JSON.parse(response.ResponseTemplates['application/json']).error.code).toBe(code);
    expect(response.ResponseParameters['gatewayresponse.header.Retry-After']).toBe(retryAfter);
  });
});
