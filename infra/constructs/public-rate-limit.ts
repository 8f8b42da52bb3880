import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';

export type RateWindowSeconds = 60 | 120 | 300 | 600;

export interface PublicRateLimit {
  /** Requests one source address may send to the public routes within the window. */
  limit: number;
  /** @default 300 */
  windowSeconds?: RateWindowSeconds;
}

/**
 * About 3 requests/s per address over five minutes: far above what a guest's checkout, a hotel's
 * reception network or Stripe's webhook senders make, far below what a flood costs in Lambda time.
 */
export const DEFAULT_PUBLIC_RATE_LIMIT: Required<PublicRateLimit> = { limit: 1_000, windowSeconds: 300 };

export interface PublicRateLimitWebAclProps {
  stage: string;
  /** The API stage the web ACL is associated with. */
  apiStage: Stage;
  /** Paths (API Gateway syntax) of the stage's public routes. */
  publicPaths: readonly string[];
  rateLimit: PublicRateLimit;
}

/**
 * A regional WAF web ACL on the API stage with one rule: a rate-based rule per source IP
 * (aggregate key IP), scoped down to the public routes' paths. The keyed routes are left out on
 * purpose: they are rate limited per client by the usage plans, and many hotels' PMS integrations
 * can share one egress address, which a per-IP rule would throttle together. A blocked request gets
 * the WAF_FILTERED gateway response (429 RATE_LIMITED; infra/gateway-responses.ts), as the rule sets
 * no WAF custom response, which would take precedence
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
 *
 * Rate-based rules: https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based.html
 */
export class PublicRateLimitWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: PublicRateLimitWebAclProps) {
    super(scope, id);
    const { limit, windowSeconds } = { ...DEFAULT_PUBLIC_RATE_LIMIT, ...props.rateLimit };
    if (!Number.isInteger(limit) || limit < 10 || limit > 2_000_000_000) throw new Error('publicRateLimit.limit must be a whole number from 10 to 2,000,000,000');
    if (![60, 120, 300, 600].includes(windowSeconds)) throw new Error('publicRateLimit.windowSeconds must be 60, 120, 300 or 600');

    // The path's literal part up to its first parameter, matched anywhere in the URI path: with or
    // without the stage prefix (custom domains), after URL decoding, and with a trailing slash.
    // A prefix that contains another adds nothing (`/dashboard` covers `/dashboard/rooms`).
    const prefixes = minimalPrefixes(props.publicPaths);
    if (prefixes.length === 0) throw new Error('The stage has no public route to protect');
    const matches: CfnWebACL.StatementProperty[] = prefixes.map((prefix) => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'CONTAINS',
        searchString: prefix,
        textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
      },
    }));
    const publicRoutes: CfnWebACL.StatementProperty = matches.length === 1 ? matches[0]! : { orStatement: { statements: matches } };

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `hotel-integration-${props.stage}`,
      description: 'Per source IP rate limit on the public routes of the hotel integration API',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: `hotel-integration-${props.stage}` },
      rules: [
        {
          name: 'PublicRoutesPerIp',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: { aggregateKeyType: 'IP', limit, evaluationWindowSec: windowSeconds, scopeDownStatement: publicRoutes },
          },
          visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: `hotel-integration-${props.stage}-public-per-ip` },
        },
      ],
    });

    const association = new CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: props.apiStage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    // The stage ARN is built from names, so nothing else orders the association after the stage.
    association.node.addDependency(props.apiStage);
  }
}

/** The literal parts of `paths` up to their first parameter, without those another one contains. */
export function minimalPrefixes(paths: readonly string[]): string[] {
  const all = [...new Set(paths.map((path) => path.split('{')[0]!))];
  return all.filter((prefix) => !all.some((other) => other !== prefix && prefix.includes(other)));
}
