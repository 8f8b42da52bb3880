import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';

export type RateWindowSeconds = 60 | 120 | 300 | 600;

/** A per-source-address WAF rate limit. */
export interface PublicRateLimit {
  /** Requests one source address may send within the window. */
  limit: number;
  /** @default 300 */
  windowSeconds?: RateWindowSeconds;
}

/**
 * About 3 requests/s per address over five minutes: far above what a guest's checkout, a hotel's
 * reception network or Stripe's webhook senders make, far below what a flood costs in Lambda time.
 */
export const DEFAULT_PUBLIC_RATE_LIMIT: Required<PublicRateLimit> = { limit: 1_000, windowSeconds: 300 };

/**
 * Guest booking form POSTs (each may hold a room for 30 minutes): 10 in five minutes, AWS's lowest
 * limit, about three guests' bookings with a correction each; the service itself allows 3 open
 * holds per address and client.
 */
export const DEFAULT_GUEST_BOOKING_RATE_LIMIT: Required<PublicRateLimit> = { limit: 10, windowSeconds: 300 };

/**
 * The keyed routes: 200 requests/s per address over five minutes, twice the premium plan's rate.
 * Clients are limited by their usage plans; this stops a flood of invalid keys, which reaches the
 * authorizer before any usage plan can count it, while several hotels' PMS integrations behind
 * one egress address stay within it.
 */
export const DEFAULT_KEYED_RATE_LIMIT: Required<PublicRateLimit> = { limit: 60_000, windowSeconds: 300 };

export interface PublicRateLimitWebAclProps {
  stage: string;
  /** The API stage the web ACL is associated with. */
  apiStage: Stage;
  /** Paths (API Gateway syntax) of the stage's unkeyed routes: public and dashboard. */
  publicPaths: readonly string[];
  /** Paths of the guest booking routes that take a POST. */
  guestBookingPostPaths: readonly string[];
  /** Paths of the keyed routes (`/api/v1/`, with a sync or payment key). */
  keyedPaths: readonly string[];
  rateLimit: PublicRateLimit;
  guestBookingRateLimit: PublicRateLimit;
  keyedRateLimit: PublicRateLimit;
}

/** AWS managed rule groups, evaluated first, with their own (block) actions. */
export const MANAGED_RULE_GROUPS = [
  // Addresses Amazon threat intelligence lists as bots, reconnaissance or DDoS sources
  // (https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-ip-rep.html).
  'AWSManagedRulesAmazonIpReputationList',
  // Request patterns known to be invalid and tied to exploits (Log4j, Java deserialization,
  // exploitable paths, localhost Host headers)
  // (https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-baseline.html#aws-managed-rule-groups-baseline-known-bad-inputs).
  'AWSManagedRulesKnownBadInputsRuleSet',
] as const;

/**
 * A regional WAF web ACL on the API stage: AWS's managed IP-reputation and known-bad-inputs rule
 * groups, then three rate-based rules per source address (aggregate key IP), each scoped down by
 * path: the guest booking POSTs (tightest), every unkeyed route, and the keyed routes (loosest:
 * their clients are limited by usage plans, and many hotels' PMS integrations can share one
 * egress address). A blocked request gets the WAF_FILTERED gateway response (429 RATE_LIMITED;
 * definitions/gateway-responses.ts), as no rule sets a WAF custom response, which would take precedence
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html).
 *
 * Rate-based rules: https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based.html;
 * limit at least 10, window 60, 120, 300 or 600 s
 * (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html).
 */
export class PublicRateLimitWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: PublicRateLimitWebAclProps) {
    super(scope, id);
    const metric = (name: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: `hotel-integration-${props.stage}-${name}` });
    const perIp = (rule: { name: string; metric: string; prop: string; rateLimit: PublicRateLimit; scope: CfnWebACL.StatementProperty }, priority: number): CfnWebACL.RuleProperty => {
      const { limit, windowSeconds } = checkRateLimit(rule.rateLimit, rule.prop);
      return {
        name: rule.name,
        priority,
        action: { block: {} },
        statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit, evaluationWindowSec: windowSeconds, scopeDownStatement: rule.scope } },
        visibilityConfig: metric(rule.metric),
      };
    };

    const managed = MANAGED_RULE_GROUPS.map(
      (name, priority): CfnWebACL.RuleProperty => ({
        name: `AWS-${name}`,
        priority,
        // none: the group's own rule actions apply (block, or count where AWS sets count).
        overrideAction: { none: {} },
        statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
        visibilityConfig: metric(name),
      }),
    );
    const guestPaths = pathsMatching(props.guestBookingPostPaths, 'guest booking');
    const posts: CfnWebACL.StatementProperty = {
      andStatement: {
        statements: [
          guestPaths,
          { byteMatchStatement: { fieldToMatch: { method: {} }, positionalConstraint: 'EXACTLY', searchString: 'POST', textTransformations: [{ priority: 0, type: 'NONE' }] } },
        ],
      },
    };

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `hotel-integration-${props.stage}`,
      description: 'Managed IP-reputation and known-bad-inputs groups, and per source IP rate limits, on the hotel integration API',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: `hotel-integration-${props.stage}` },
      rules: [
        ...managed,
        ...[
          { name: 'GuestBookingPostsPerIp', metric: 'guest-booking-per-ip', prop: 'guestBookingRateLimit', rateLimit: props.guestBookingRateLimit, scope: posts },
          { name: 'PublicRoutesPerIp', metric: 'public-per-ip', prop: 'publicRateLimit', rateLimit: props.rateLimit, scope: pathsMatching(props.publicPaths, 'public') },
          // The payment-orders path covers the public verify route too: it counts here as well, far below this limit.
          { name: 'KeyedRoutesPerIp', metric: 'keyed-per-ip', prop: 'keyedRateLimit', rateLimit: props.keyedRateLimit, scope: pathsMatching(props.keyedPaths, 'keyed') },
        ].map((rule, i) => perIp(rule, managed.length + i)),
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

function checkRateLimit(rateLimit: PublicRateLimit, prop: string): Required<PublicRateLimit> {
  const { limit, windowSeconds = 300 } = rateLimit;
  if (!Number.isInteger(limit) || limit < 10 || limit > 2_000_000_000) throw new Error(`${prop}.limit must be a whole number from 10 to 2,000,000,000`);
  if (![60, 120, 300, 600].includes(windowSeconds)) throw new Error(`${prop}.windowSeconds must be 60, 120, 300 or 600`);
  return { limit, windowSeconds };
}

/**
 * Requests whose URI path contains one of the paths' literal parts up to their first parameter:
 * with or without the stage prefix (custom domains), after URL decoding, and with a trailing
 * slash. A prefix that contains another adds nothing (`/dashboard` covers `/dashboard/rooms`).
 */
function pathsMatching(paths: readonly string[], what: string): CfnWebACL.StatementProperty {
  const prefixes = minimalPrefixes(paths);
  if (prefixes.length === 0) throw new Error(`The stage has no ${what} route to protect`);
  const matches: CfnWebACL.StatementProperty[] = prefixes.map((prefix) => ({
    byteMatchStatement: {
      fieldToMatch: { uriPath: {} },
      positionalConstraint: 'CONTAINS',
      searchString: prefix,
      textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
    },
  }));
  return matches.length === 1 ? matches[0]! : { orStatement: { statements: matches } };
}

/** The literal parts of `paths` up to their first parameter, without those another one contains. */
export function minimalPrefixes(paths: readonly string[]): string[] {
  const all = [...new Set(paths.map((path) => path.split('{')[0]!))];
  return all.filter((prefix) => !all.some((other) => other !== prefix && prefix.includes(other)));
}
