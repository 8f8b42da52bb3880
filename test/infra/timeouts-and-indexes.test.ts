/**
 * Route functions stop before API Gateway does (its integration timeout is 29 s), and the
 * table's indexes project only what their queries read (docs/data-model.md): never ALL, never
 * guest data. Checked on the synthesized template of a prod stage and of a stage with every route.
 */
import { type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, MAX_ROUTE_TIMEOUT_SECONDS, routes, routesOfStage } from '../../definitions/routes';
import { HotelIntegrationStack } from '../../infra/stack';
import { tableDefinition } from '../../definitions/table';
import { WRITE_RESERVE_MS, WRITE_ROUND_MS } from '../../shared/domain/property-sync/time-budget';
import { testApp } from '../support/cdk-app';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

const app = testApp();
const stages = [
  { stack: new HotelIntegrationStack(app, 'HotelIntegration-prod', { stage: 'prod' }), routes: routesOfStage({ sandboxPayments: false }) },
  { stack: new HotelIntegrationStack(app, 'HotelIntegration-test', { stage: 'test', sandboxPayments: true }), routes: routesOfStage({ sandboxPayments: true }) },
];
const stacks = stages.map((s) => s.stack);

type CfnJson = any;
const resourcesOf = (stack: HotelIntegrationStack) => mergedTemplate(stack).toJSON().Resources as Record<string, { Type: string; Properties: CfnJson }>;

describe('timeouts', () => {
  it('gives every route function at most 28 s, under API Gateway’s 29 s integration timeout', () => {
    expect(MAX_ROUTE_TIMEOUT_SECONDS).toBeLessThanOrEqual(28);
    for (const { stack, routes: stageRoutes } of stages) {
      const resources = resourcesOf(stack);
      expect([...stack.routeFunctions.keys()].sort()).toEqual(stageRoutes.map((r) => r.id).sort());
      // Per route, so that each route sharing a function is held to its own declared timeout.
      for (const route of stageRoutes) {
        const fn = stack.routeFunctions.get(route.id)!;
        const timeout = resources[logicalIdOf(fn)]!.Properties.Timeout;
        expect(timeout, route.id).toBeLessThanOrEqual(MAX_ROUTE_TIMEOUT_SECONDS);
        expect(timeout, route.id).toBe(route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS);
      }
    }
  });

  it('gives the sync writes the most, and leaves them time for 500 writes after the reserve', () => {
    expect(DEFAULT_FUNCTION_TIMEOUT_SECONDS).toBe(10);
    for (const route of routes.filter((r) => r.method === 'PUT' && r.auth.kind === 'sync')) expect(route.timeoutSeconds, route.id).toBe(MAX_ROUTE_TIMEOUT_SECONDS);
    // 500 single-item writes, 16 at a time (the slowest sync), fit with half the time to spare for reads.
    expect(WRITE_RESERVE_MS + Math.ceil(500 / 16) * WRITE_ROUND_MS).toBeLessThan((MAX_ROUTE_TIMEOUT_SECONDS * 1000) / 2);
  });
});

describe('index projections', () => {
  it('projects no index ALL; each projects what the shared definition names (INCLUDE) and no guest attribute', () => {
    for (const stack of stacks) {
      const tables = Object.values(resourcesOf(stack)).filter((r) => r.Type === 'AWS::DynamoDB::Table');
      expect(tables).toHaveLength(1);
      const indexes = tables[0]!.Properties.GlobalSecondaryIndexes as { IndexName: string; Projection: { ProjectionType: string; NonKeyAttributes?: string[] } }[];
      expect(indexes.map((i) => i.IndexName).sort()).toEqual(tableDefinition.globalSecondaryIndexes.map((i) => i.indexName).sort());
      for (const index of indexes) {
        expect(index.Projection.ProjectionType, index.IndexName).not.toBe('ALL');
        const defined = tableDefinition.globalSecondaryIndexes.find((i) => i.indexName === index.IndexName)!;
        expect(index.Projection).toEqual(
          defined.projectedAttributes.length
            ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...defined.projectedAttributes] }
            : { ProjectionType: 'KEYS_ONLY' },
        );
        expect((index.Projection.NonKeyAttributes ?? []).filter((a) => a.startsWith('guest_')), index.IndexName).toEqual([]);
      }
    }
  });

  it('keeps the stay index the availability route queries (gsi1) to the overlap attributes', () => {
    const gsi1 = tableDefinition.globalSecondaryIndexes.find((i) => i.indexName === 'gsi1')!;
    const availability = routes.find((r) => r.id === 'GetAvailability')!;
    expect(availability.access.dynamodb.queries).toEqual(['gsi1']);
    expect(availability.access.dynamodb.actions).toEqual(['Query']);
    expect([...gsi1.projectedAttributes].sort()).toEqual(['check_in_date', 'check_out_date', 'room_id', 'status']);
  });
});
